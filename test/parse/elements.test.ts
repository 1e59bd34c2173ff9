/**
 * The element layer (src/parse/xml/elements.ts) over the real lexer: what a document reader gets
 * from it (elements by namespace, text with references expanded, whitespace apart, positions),
 * and how it repairs what does not nest.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Position } from '../../src/core/position.js';
import { XmlElements, type XmlAttribute, type XmlHandler } from '../../src/parse/xml/elements.js';
import { LineIndex } from '../../src/parse/xml/line-index.js';
import { XmlTokenizer, type Flow } from '../../src/parse/xml/tokenizer.js';

/** Records what the document reader would get; `belongsAt` plays its depthFor. */
class Recorder implements XmlHandler {
  readonly events: string[] = [];
  depthFor?: (uri: string, local: string) => number | undefined;

  constructor(belongsAt?: (local: string) => number | undefined) {
    if (belongsAt) this.depthFor = (_uri, local) => belongsAt(local);
  }

  openElement(uri: string, local: string, attributes: readonly XmlAttribute[], qname: string, at: Position): Flow {
    const attrs = attributes.map((a) => ` ${a.local}{${a.uri}}=${a.value}`).join('');
    this.events.push(`<${qname} {${uri}}${local}${attrs} @${at.line}:${at.column}`);
    return 'continue';
  }
  closeElement(): Flow {
    this.events.push('>');
    return 'continue';
  }
  text(value: string, at: Position): void {
    this.events.push(`text ${JSON.stringify(value)} @${at.line}:${at.column}`);
  }
  whitespace(value: string): void {
    this.events.push(`whitespace ${JSON.stringify(value)}`);
  }
}

function read(xml: string, handler = new Recorder()): { events: string[]; problems: string[]; repairs: number } {
  const lines = new LineIndex();
  const problems: string[] = [];
  const report = (code: string, message: string, at: Position) =>
    problems.push(`${code} @${at.line}:${at.column} ${message}`);
  const count = { repairs: 0 };
  const lexer = new XmlTokenizer(new XmlElements(handler, lines, report, count), lines, report);
  lexer.append(xml);
  lexer.scan(true);
  lexer.end();
  return { events: handler.events, problems, repairs: count.repairs };
}

test('elements: names resolved in the scope they stand in, references expanded, whitespace apart', () => {
  const { events, problems } = read(
    '<r xmlns="urn:r" xmlns:p="urn:p">\n <p:a p:x="1&amp;2"><b xmlns="urn:b">x &lt; y\r\n</b></p:a>\n <c/></r>',
  );
  assert.deepEqual(events, [
    '<r {urn:r}r xmlns{http://www.w3.org/2000/xmlns/}=urn:r p{http://www.w3.org/2000/xmlns/}=urn:p @1:1',
    'whitespace "\\n "',
    '<p:a {urn:p}a x{urn:p}=1&2 @2:2',
    '<b {urn:b}b xmlns{http://www.w3.org/2000/xmlns/}=urn:b @2:21',
    'text "x < y\\n" @2:38',
    '>',
    '>',
    'whitespace "\\n "',
    '<c {urn:r}c @4:2',
    '>',
    '>',
  ]);
  assert.deepEqual(problems, []);
});

test('elements: an undeclared usual prefix is read as its namespace, said once; text outside the root is said once', () => {
  const { events, problems } = read('junk <r><image:a/><image:b/></r> more');
  assert.deepEqual(events, [
    '<r {}r @1:6',
    '<image:a {http://www.google.com/schemas/sitemap-image/1.1}a @1:9',
    '>',
    '<image:b {http://www.google.com/schemas/sitemap-image/1.1}b @1:19',
    '>',
    '>',
  ]);
  assert.deepEqual(
    problems.map((p) => p.split(' ').slice(0, 2).join(' ')),
    ['XML-002 @1:1', 'XML-001 @1:9', 'XML-001 @1:34'],
  );
});

test('elements: an end tag closes the elements left open inside it, each reported', () => {
  const { events, problems, repairs } = read('<r><a><b><c></a></r>');
  assert.deepEqual(events, ['<r {}r @1:1', '<a {}a @1:4', '<b {}b @1:7', '<c {}c @1:10', '>', '>', '>', '>']);
  assert.deepEqual(
    problems.map((p) => p.split(' ').slice(0, 2).join(' ')),
    ['XML-001 @1:13', 'XML-001 @1:13'],
  );
  assert.equal(repairs, 1);
});

test('elements: an element met deeper than it belongs closes what is open down there, its declarations with it', () => {
  const handler = new Recorder((local) => (local === 'blk' ? 1 : undefined));
  const { events, problems, repairs } = read('<r><blk><x>text<blk xmlns:p="urn:p"><p:y/></blk><p:z/></r>', handler);
  assert.deepEqual(events, [
    '<r {}r @1:1',
    '<blk {}blk @1:4',
    '<x {}x @1:9',
    'text "text" @1:12',
    '>',
    '>',
    '<blk {}blk p{http://www.w3.org/2000/xmlns/}=urn:p @1:16',
    '<p:y {urn:p}y @1:37',
    '>',
    '>',
    '<p:z {urn:undeclared-prefix:p}z @1:49',
    '>',
    '>',
  ]);
  assert.deepEqual(
    problems.map((p) => p.split(' ').slice(0, 6).join(' ')),
    [
      'XML-001 @1:16 <blk> starts inside <x>,',
      'XML-001 @1:16 <blk> starts inside <blk>,',
      'XML-001 @1:49 the prefix "p" of',
    ],
  );
  assert.equal(repairs, 1);
});
