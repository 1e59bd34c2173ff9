/**
 * The XML lexer (src/parse/xml/tokenizer.ts) alone: the tokens it hands on, with their offsets,
 * however the text is cut; what it reports; and how a layer in front of it pauses it and reads on
 * from where it stands.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineIndex } from '../../src/parse/xml/line-index.js';
import { XmlTokenizer, type Flow, type RawAttribute, type TokenHandler } from '../../src/parse/xml/tokenizer.js';

type Token =
  | ['start', string, RawAttribute[] | undefined, boolean, number]
  | ['end', string, number]
  | ['text' | 'verbatim', string, number]
  | ['cdata', number]
  | ['doctype', string[]]
  | ['eof', number];

/** Records every token; `flow` says what to answer after a tag. */
class Recorder implements TokenHandler {
  readonly tokens: Token[] = [];
  constructor(private readonly flow: (tag: string) => Flow = () => 'continue') {}
  startTag(qname: string, attributes: readonly RawAttribute[] | undefined, selfClosing: boolean, at: number): Flow {
    this.tokens.push(['start', qname, attributes && [...attributes], selfClosing, at]);
    return this.flow(qname);
  }
  endTag(qname: string, at: number): Flow {
    this.tokens.push(['end', qname, at]);
    return this.flow(`/${qname}`);
  }
  text(raw: string, at: number): void {
    this.tokens.push(['text', raw, at]);
  }
  verbatim(text: string, at: number): void {
    this.tokens.push(['verbatim', text, at]);
  }
  cdata(at: number): void {
    this.tokens.push(['cdata', at]);
  }
  doctype(entities: readonly string[]): void {
    this.tokens.push(['doctype', [...entities]]);
  }
  end(at: number): void {
    this.tokens.push(['eof', at]);
  }
}

interface Lexed {
  tokens: Token[];
  problems: [string, number, number][];
}

/** Lexes `pieces` one after the other, as a stream would hand them over. */
function lex(pieces: readonly string[], flow?: (tag: string) => Flow, maxTokenLength?: number): Lexed {
  const recorder = new Recorder(flow);
  const problems: [string, number, number][] = [];
  const lexer = new XmlTokenizer(
    recorder,
    new LineIndex(),
    (code, _message, at) => problems.push([code, at.line, at.column]),
    maxTokenLength === undefined ? {} : { maxTokenLength },
  );
  for (const piece of pieces) if (lexer.append(piece)) lexer.scan(false);
  lexer.scan(true);
  lexer.end();
  return { tokens: recorder.tokens, problems };
}

/** The tokens with adjacent character data joined (how it is cut into pieces is the lexer's business). */
function joined(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    const last = out[out.length - 1];
    if (
      (token[0] === 'text' || token[0] === 'verbatim') &&
      last?.[0] === token[0] &&
      last[2] + last[1].length === token[2]
    )
      out[out.length - 1] = [token[0], last[1] + token[1], last[2]];
    else out.push(token);
  }
  return out;
}

/** The document offset of the `nth` occurrence of `snippet` in `text`. */
function offsetOf(text: string, snippet: string, nth = 1): number {
  let at = -1;
  for (let i = 0; i < nth; i++) at = text.indexOf(snippet, at + 1);
  assert.ok(at !== -1, snippet);
  return at;
}

test('lexer: tags with their attributes as written, text as written, each at its document offset', () => {
  const xml = `<?xml version="1.0"?><!-- c --><a x="1 &amp; 2" y='z'>t &lt; u<b/><c:d e:f="g">\r\n</c:d></a>`;
  const at = (snippet: string) => offsetOf(xml, snippet);
  assert.deepEqual(lex([xml]).tokens, [
    [
      'start',
      'a',
      [
        { qname: 'x', value: '1 &amp; 2', offset: at('1 &amp;') },
        { qname: 'y', value: 'z', offset: at("z'") },
      ],
      false,
      at('<a'),
    ],
    ['text', 't &lt; u', at('t &lt;')],
    ['start', 'b', undefined, true, at('<b/>')],
    ['start', 'c:d', [{ qname: 'e:f', value: 'g', offset: at('g"') }], false, at('<c:d')],
    ['text', '\r\n', at('\r\n')],
    ['end', 'c:d', at('</c:d>')],
    ['end', 'a', at('</a>')],
    ['eof', xml.length],
  ]);
});

test('lexer: CDATA comes verbatim, a DOCTYPE is skipped with the names of the entities it declares', () => {
  const xml = `<!DOCTYPE a [<!ENTITY e "x"> <!ENTITY % p "y">]><a><![CDATA[<b>&e;]]></a>`;
  const { tokens, problems } = lex([xml]);
  assert.deepEqual(tokens, [
    ['doctype', ['e', 'p']],
    ['start', 'a', undefined, false, 48],
    ['cdata', 51],
    ['verbatim', '<b>&e;', 60],
    ['end', 'a', 69],
    ['eof', 73],
  ]);
  assert.deepEqual(problems, [['SEC-001', 1, 1]]);
});

test('lexer: what is not well-formed is reported where it is and read the lenient way', () => {
  const xml = '<a b=c d>\n1 < 2</a>\n<?xml version="1.0"?><!-- open';
  const at = (snippet: string) => offsetOf(xml, snippet);
  const { tokens, problems } = lex([xml]);
  assert.deepEqual(tokens, [
    ['start', 'a', [{ qname: 'b', value: 'c', offset: at('c d') }], false, 0],
    ['text', '\n1 ', at('\n1')],
    ['verbatim', '<', at('< 2')],
    ['text', ' 2', at(' 2')],
    ['end', 'a', at('</a>')],
    ['text', '\n', at('\n<?xml')],
    ['eof', xml.length],
  ]);
  assert.deepEqual(problems, [
    ['XML-001', 1, 1], // b=c is not quoted
    ['XML-001', 1, 1], // d has no value
    ['XML-005', 2, 3], // a raw <
    ['XML-002', 3, 1], // the declaration is not first
    ['XML-001', 3, 31], // the document ends inside a comment
  ]);
});

test('lexer: a tag longer than the limit stops the reading', () => {
  const { tokens, problems } = lex(['<a>', `<b c="${'x'.repeat(200)}`, '">'], undefined, 100);
  assert.deepEqual(tokens, [['start', 'a', undefined, false, 0]]);
  assert.deepEqual(problems, [['LIMIT-001', 1, 4]]);
});

/** A document with every kind of token, whitespace runs and CRLFs, for cutting. */
const DOCUMENT = [
  '<?xml version="1.0" encoding="UTF-8"?>\r\n',
  '<!DOCTYPE r [<!ENTITY e "x">]>\n',
  '<r xmlns="urn:r" xmlns:p="urn:p">\n',
  '  <!-- a comment with <tags> -->\n',
  '  <p:a p:b="1" c=\'2 &amp; 3\'>text &amp; more\r\nlines</p:a>\n',
  '  <e/>\t\n',
  '  <f><![CDATA[ <not a tag> ]]>after</f>\n',
  '  <?pi data?>\n',
  '  <g>   </g>\n',
  '</r>\n',
].join('');

test('lexer: the same tokens however the text is cut, and a run of whitespace always whole', () => {
  const whole = lex([DOCUMENT]);
  const whitespace = (tokens: readonly Token[]) =>
    tokens.filter((token) => token[0] === 'text' && /^[ \t\r\n]+$/.test(token[1]));
  fc.assert(
    fc.property(fc.array(fc.nat({ max: DOCUMENT.length }), { maxLength: 12 }), (cuts) => {
      const at = [...new Set(cuts)].sort((a, b) => a - b);
      const pieces = [...at, DOCUMENT.length].map((end, i) => DOCUMENT.slice(i === 0 ? 0 : at[i - 1], end));
      const cut = lex(pieces);
      assert.deepEqual(joined(cut.tokens), joined(whole.tokens));
      assert.deepEqual(cut.problems, whole.problems);
      assert.deepEqual(whitespace(cut.tokens), whitespace(whole.tokens));
    }),
    { numRuns: 300 },
  );
  // A byte at a time, too.
  assert.deepEqual(joined(lex([...DOCUMENT]).tokens), joined(whole.tokens));
});

test('lexer: held whitespace waits for more text before the lexer looks again', () => {
  const recorder = new Recorder();
  const lexer = new XmlTokenizer(recorder, new LineIndex(), () => undefined);
  assert.equal(lexer.append('<a>  '), true);
  lexer.scan(false);
  // The run may go on: it is held, and a little more text is not worth a look.
  assert.equal(lexer.append(' '), false);
  assert.equal(lexer.append(`${' '.repeat(4096)}x</a>`), true);
  lexer.scan(false);
  assert.deepEqual(recorder.tokens, [
    ['start', 'a', undefined, false, 0],
    ['text', `${' '.repeat(4099)}x`, 3],
    ['end', 'a', 4103],
  ]);
});

test('lexer: a handler pauses it after a tag; a layer in front reads on from where it stands', () => {
  const recorder = new Recorder((tag) => (tag === 'r' || tag === '/b' ? 'pause' : 'continue'));
  const lexer = new XmlTokenizer(recorder, new LineIndex(), () => undefined);
  lexer.append('<r><b>1</b><b>2</b><c/></r>');
  lexer.scan(false);
  assert.equal(lexer.paused, true);
  assert.equal(lexer.text.slice(lexer.index), '<b>1</b><b>2</b><c/></r>');
  lexer.scan(false);
  assert.equal(recorder.tokens.length, 1, 'nothing is read while paused');
  // The layer in front takes the first <b>…</b> itself, and hands the rest back.
  lexer.skipTo(lexer.index + '<b>1</b>'.length);
  lexer.resume();
  lexer.scan(false);
  assert.equal(lexer.paused, true);
  assert.equal(lexer.offset + lexer.index, '<r><b>1</b><b>2</b>'.length);
  lexer.resume();
  lexer.scan(true);
  assert.deepEqual(
    recorder.tokens.map((token) => `${token[0]} ${String(token[1])}`),
    ['start r', 'start b', 'text 2', 'end b', 'start c', 'end r'],
  );
});

test('lexer: a handler stops it for good', () => {
  const { tokens, problems } = lex(['<html><a>&</a>', '<b></b>'], (tag) => (tag === 'html' ? 'stop' : 'continue'));
  assert.deepEqual(tokens, [['start', 'html', undefined, false, 0]]);
  assert.deepEqual(problems, []);
});
