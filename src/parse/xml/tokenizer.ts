/**
 * A streaming XML lexer: it cuts text into tokens (start and end tags with their attributes as
 * written, character data, CDATA sections) and skips comments, processing instructions and a
 * DOCTYPE (never processed). It works on string chunks with indexOf scans and carries a token cut
 * by the end of a chunk over to the next. It knows nothing of elements, namespaces or references
 * (elements.ts makes elements of its tokens), nor of sitemaps, just as htmlparser2's Tokenizer
 * knows nothing of its Parser.
 *
 * It is lenient: what is not well-formed is reported (with the catalog's code) and read the way a
 * browser-like reader would, so a broken document loses as little as possible. Tokens carry
 * document offsets; the line index it keeps up to date places them.
 *
 * Its handler may pause it after a tag. It then returns from scan(), and a layer in front of it
 * may read on from where it stands (text, index, skipTo) before resuming it: that is how the
 * sitemap fast path takes the blocks it can read faster, and hands back the rest.
 */
import type { Position } from '../../core/position.js';
import type { LineIndex } from './line-index.js';

/** An attribute as written; `offset` is where its value starts in the document. */
export interface RawAttribute {
  qname: string;
  value: string;
  offset: number;
}

/** What a handler tells the lexer after a tag: read on, pause (see resume()), or stop for good. */
export type Flow = 'continue' | 'pause' | 'stop';

/** What the lexer hands its tokens to. `at` is a token's document offset. */
export interface TokenHandler {
  /** A start tag, once whole; `attributes` is undefined when it has none. */
  startTag(qname: string, attributes: readonly RawAttribute[] | undefined, selfClosing: boolean, at: number): Flow;
  endTag(qname: string, at: number): Flow;
  /**
   * Character data as written (references not expanded, line breaks not normalised), possibly
   * in several pieces; a run that is only whitespace always comes whole, so that indentation can
   * be told from the start of a value however the text was cut.
   */
  text(raw: string, at: number): void;
  /** Character data to take as it stands: the content of a CDATA section, or a stray `<`. */
  verbatim(text: string, at: number): void;
  /** A CDATA section starts (its content follows as verbatim text). */
  cdata(at: number): void;
  /** The DOCTYPE ended, declaring these entities (which are never expanded). */
  doctype(entities: readonly string[]): void;
  /** The input ended, at `at`, with no token left unfinished (or with what was reported). */
  end(at: number): void;
}

export type XmlProblemReporter = (code: string, message: string, at: Position) => void;

export interface TokenizerOptions {
  /** Longest start tag, comment or declaration held while waiting for its end (default 1 MiB). */
  maxTokenLength?: number;
}

/** Whitespace held back at the end of the text while its run may go on (see scanContent). */
const MAX_HELD_WHITESPACE = 64 * 1024;

/**
 * How much more text is waited for before what is held is scanned again. Scanning at every
 * small write would read what is held again each time (quadratic on a stream that trickles in
 * byte by byte).
 */
const RESUME_GROWTH = 4096;

const enum Mode {
  Content,
  Comment,
  CData,
  ProcessingInstruction,
  Doctype,
  Stopped,
}

export class XmlTokenizer {
  private buf = '';
  private pos = 0;
  /** The document offset (in UTF-16 units) of buf[0]. */
  private bufOffset = 0;
  /** Where the token being read starts (a document offset). */
  private tokenStart = 0;
  /** Set by a handler's 'pause': scan() reads nothing until resume(). */
  private isPaused = false;
  /** The document offset the text must reach before it is scanned again (see waitForMore). */
  private resumeAt = 0;
  private mode = Mode.Content;
  private doctype = { quote: 0, depth: 0, text: '' };
  private readonly maxTokenLength: number;

  constructor(
    private readonly tokens: TokenHandler,
    private readonly lines: LineIndex,
    private readonly report: XmlProblemReporter,
    options: TokenizerOptions = {},
  ) {
    this.maxTokenLength = options.maxTokenLength ?? 1 << 20;
  }

  /**
   * Adds the next chunk of text, releasing what was read before it. False while what is held
   * waits for more text (see waitForMore): then there is nothing to scan yet.
   */
  append(chunk: string): boolean {
    if (this.mode === Mode.Stopped) return false;
    if (this.pos > 0) {
      this.bufOffset += this.pos;
      this.buf = this.buf.slice(this.pos);
      this.pos = 0;
    }
    this.buf = this.buf.length === 0 ? chunk : this.buf + chunk;
    this.lines.hold(this.buf, this.bufOffset);
    return this.bufOffset + this.buf.length >= this.resumeAt;
  }

  /**
   * Reads tokens until the text runs out (`final`: the input is complete, so nothing is held for
   * what may follow), the handler pauses or stops the reading.
   */
  scan(final: boolean): void {
    const buf = this.buf;
    while (this.pos < buf.length && this.mode !== Mode.Stopped && !this.isPaused) {
      let more: boolean;
      switch (this.mode) {
        case Mode.Content:
          more = this.scanContent(final);
          break;
        case Mode.Comment:
          more = this.skipUntil('-->', final);
          break;
        case Mode.ProcessingInstruction:
          more = this.skipUntil('?>', final);
          break;
        case Mode.CData:
          more = this.scanCData(final);
          break;
        case Mode.Doctype:
          more = this.scanDoctype();
          break;
      }
      if (!more) return;
    }
  }

  /** The input is complete and scanned (scan(true)): reports what it ends inside of. */
  end(): void {
    if (this.mode === Mode.Stopped) return;
    const at = this.bufOffset + this.buf.length;
    const unfinished: Partial<Record<Mode, string>> = {
      [Mode.Comment]: 'a comment',
      [Mode.CData]: 'a CDATA section',
      [Mode.ProcessingInstruction]: 'a processing instruction',
      [Mode.Doctype]: 'the DOCTYPE',
    };
    const inside = unfinished[this.mode];
    if (inside) this.problem('XML-001', `the document ends inside ${inside}`, at);
    else if (this.pos < this.buf.length) this.problem('XML-001', 'the document ends inside a tag', at);
    this.mode = Mode.Stopped;
    this.tokens.end(at);
  }

  // ── for a layer in front of the lexer, while it is paused ───────────────────────────────────

  get paused(): boolean {
    return this.isPaused;
  }

  /** Reads on at the next scan(). */
  resume(): void {
    this.isPaused = false;
  }

  /** The text in hand: `index` is where the lexer stands in it, `offset` the document offset of its start. */
  get text(): string {
    return this.buf;
  }

  get index(): number {
    return this.pos;
  }

  get offset(): number {
    return this.bufOffset;
  }

  /** Goes on from `index` of the text: what lies before it was read by the layer in front. */
  skipTo(index: number): void {
    this.pos = index;
  }

  /** Nothing is scanned again until RESUME_GROWTH more characters have come (or the input ends). */
  waitForMore(): void {
    this.resumeAt = this.bufOffset + this.buf.length + RESUME_GROWTH;
  }

  // ── scanning ────────────────────────────────────────────────────────────────────────────────

  /** Hands on the next text run or reads the next markup; false when it needs more input. */
  private scanContent(final: boolean): boolean {
    const buf = this.buf;
    const start = this.pos;
    const lt = buf.indexOf('<', start);
    if (lt === -1) {
      const end = final ? buf.length : safeTextEnd(buf, start);
      // Whitespace is held until its run ends, so that a run of whitespace alone comes whole.
      if (!final && end - start < MAX_HELD_WHITESPACE && isWhitespaceRun(buf, start, end)) {
        this.waitForMore();
        return false;
      }
      if (end > start) this.tokens.text(buf.slice(start, end), this.bufOffset + start);
      this.pos = end;
      return false;
    }
    if (lt > start) this.tokens.text(buf.slice(start, lt), this.bufOffset + start);
    this.pos = lt;
    this.tokenStart = this.bufOffset + lt;
    if (lt + 1 >= buf.length) return this.needMore(final);
    const next = buf.charCodeAt(lt + 1);
    if (next === 0x2f /* / */) return this.scanEndTag(final);
    if (next === 0x21 /* ! */) return this.scanMarkupDeclaration(final);
    if (next === 0x3f /* ? */) return this.scanProcessingInstruction(final);
    if (isNameStart(next)) return this.scanStartTag(final);
    this.problem('XML-005', 'a raw "<" in text; write it as &lt;', this.tokenStart);
    this.tokens.verbatim('<', this.tokenStart);
    this.pos = lt + 1;
    return true;
  }

  /** Waits for more input, unless the token is already too long or the input has ended. */
  private needMore(final: boolean): boolean {
    if (final) return false;
    if (this.buf.length - this.pos > this.maxTokenLength) {
      this.problem(
        'LIMIT-001',
        `a tag longer than ${this.maxTokenLength} characters; reading stops here`,
        this.tokenStart,
      );
      this.mode = Mode.Stopped;
    }
    return false;
  }

  private scanStartTag(final: boolean): boolean {
    const buf = this.buf;
    const lt = this.pos;
    let i = lt + 1;
    const length = buf.length;
    while (i < length && !isNameEnd(buf.charCodeAt(i))) i++;
    if (i >= length) return this.needMore(final);
    const qname = buf.slice(lt + 1, i);
    let attributes: RawAttribute[] | undefined;
    let selfClosing = false;
    // Problems in the tag are reported once it is whole: a tag cut by the end of the text is
    // scanned again from its start, and would report them twice.
    let problems: string[] | undefined;
    for (;;) {
      while (i < length && isSpace(buf.charCodeAt(i))) i++;
      if (i >= length) return this.needMore(final);
      const c = buf.charCodeAt(i);
      if (c === 0x3e /* > */) {
        i++;
        break;
      }
      if (c === 0x2f /* / */) {
        if (i + 1 >= length) return this.needMore(final);
        if (buf.charCodeAt(i + 1) === 0x3e) {
          selfClosing = true;
          i += 2;
          break;
        }
        (problems ??= []).push(`a stray "/" in the tag <${qname}>`);
        i++;
        continue;
      }
      const nameStart = i;
      while (i < length && !isNameEnd(buf.charCodeAt(i)) && buf.charCodeAt(i) !== 0x3d /* = */) i++;
      if (i >= length) return this.needMore(final);
      const attributeName = buf.slice(nameStart, i);
      while (i < length && isSpace(buf.charCodeAt(i))) i++;
      if (i >= length) return this.needMore(final);
      if (buf.charCodeAt(i) !== 0x3d /* = */ || attributeName === '') {
        (problems ??= []).push(`the attribute "${attributeName || buf[i]}" of <${qname}> has no value`);
        if (attributeName === '') i++;
        continue;
      }
      i++;
      while (i < length && isSpace(buf.charCodeAt(i))) i++;
      if (i >= length) return this.needMore(final);
      const quote = buf.charCodeAt(i);
      let value: string;
      let valueStart = i + 1;
      if (quote === 0x22 || quote === 0x27) {
        const close = buf.indexOf(quote === 0x22 ? '"' : "'", i + 1);
        if (close === -1) return this.needMore(final);
        value = buf.slice(i + 1, close);
        i = close + 1;
      } else {
        valueStart = i;
        while (i < length && !isSpace(buf.charCodeAt(i)) && buf.charCodeAt(i) !== 0x3e) i++;
        if (i >= length) return this.needMore(final);
        value = buf.slice(valueStart, i);
        (problems ??= []).push(`the value of the attribute ${attributeName} of <${qname}> is not quoted`);
      }
      (attributes ??= []).push({ qname: attributeName, value, offset: this.bufOffset + valueStart });
    }
    for (const message of problems ?? []) this.problem('XML-001', message, this.tokenStart);
    this.pos = i;
    this.follow(this.tokens.startTag(qname, attributes, selfClosing, this.tokenStart));
    return true;
  }

  private scanEndTag(final: boolean): boolean {
    const buf = this.buf;
    const gt = buf.indexOf('>', this.pos + 2);
    if (gt === -1) return this.needMore(final);
    const qname = buf.slice(this.pos + 2, gt).trimEnd();
    this.pos = gt + 1;
    this.follow(this.tokens.endTag(qname, this.tokenStart));
    return true;
  }

  private follow(flow: Flow): void {
    if (flow === 'pause') this.isPaused = true;
    else if (flow === 'stop') this.mode = Mode.Stopped;
  }

  private scanMarkupDeclaration(final: boolean): boolean {
    const buf = this.buf;
    const lt = this.pos;
    const head = buf.slice(lt, lt + 9);
    if (!final && head.length < 9 && ['<!--', '<![CDATA[', '<!DOCTYPE'].some((prefix) => prefix.startsWith(head))) {
      return this.needMore(final);
    }
    if (buf.startsWith('<!--', lt)) {
      this.pos = lt + 4;
      this.mode = Mode.Comment;
      return true;
    }
    if (buf.startsWith('<![CDATA[', lt)) {
      this.pos = lt + 9;
      this.mode = Mode.CData;
      this.tokens.cdata(this.tokenStart);
      return true;
    }
    if (buf.startsWith('<!DOCTYPE', lt)) {
      this.problem(
        'SEC-001',
        'the document has a DOCTYPE: it is not processed (no DTD, no external or custom entities)',
        this.tokenStart,
      );
      this.pos = lt + 9;
      this.doctype = { quote: 0, depth: 0, text: '' };
      this.mode = Mode.Doctype;
      return true;
    }
    // Reported once its end is here: a declaration cut by the end of the text is scanned again.
    const gt = buf.indexOf('>', lt);
    if (gt === -1 && !final) return this.needMore(final);
    this.problem('XML-001', 'unknown markup declaration "<!"', this.tokenStart);
    if (gt === -1) return false;
    this.pos = gt + 1;
    return true;
  }

  private scanProcessingInstruction(final: boolean): boolean {
    const buf = this.buf;
    const lt = this.pos;
    const close = buf.indexOf('?>', lt + 2);
    if (close === -1) {
      if (buf.length - lt < 64 && !final) return this.needMore(final);
      // A long PI is skipped in streaming mode; only its start matters for the checks below.
    }
    const head = buf.slice(lt + 2, Math.min(buf.length, lt + 64));
    const target = /^[^\s?]*/.exec(head)![0];
    if (target.toLowerCase() === 'xml') {
      if (this.tokenStart !== 0) {
        this.problem(
          'XML-002',
          'the XML declaration must be the very first thing in the file (remove what comes before it)',
          this.tokenStart,
        );
      }
    } else if (target === '') {
      this.problem('XML-001', 'a processing instruction without a target', this.tokenStart);
    }
    if (close === -1) {
      this.pos = lt + 2;
      this.mode = Mode.ProcessingInstruction;
      return true;
    }
    this.pos = close + 2;
    return true;
  }

  /** Skips to just past `terminator`; false (keeping only a possible partial terminator) when absent. */
  private skipUntil(terminator: string, final: boolean): boolean {
    const found = this.buf.indexOf(terminator, this.pos);
    if (found === -1) {
      this.pos = final ? this.buf.length : Math.max(this.pos, this.buf.length - (terminator.length - 1));
      return false;
    }
    this.pos = found + terminator.length;
    this.mode = Mode.Content;
    return true;
  }

  private scanCData(final: boolean): boolean {
    const buf = this.buf;
    const close = buf.indexOf(']]>', this.pos);
    // Without its end, the last two characters are kept: they may start the `]]>` (or be a CR before its LF).
    const end = close === -1 ? (final ? buf.length : Math.max(this.pos, buf.length - 2)) : close;
    if (end > this.pos) this.tokens.verbatim(buf.slice(this.pos, end), this.bufOffset + this.pos);
    if (close === -1) {
      this.pos = end;
      return false;
    }
    this.pos = close + 3;
    this.mode = Mode.Content;
    return true;
  }

  /** Skips a DOCTYPE (quote- and bracket-aware), collecting the names of the entities it declares. */
  private scanDoctype(): boolean {
    const buf = this.buf;
    const state = this.doctype;
    let i = this.pos;
    for (; i < buf.length; i++) {
      const c = buf.charCodeAt(i);
      if (state.quote !== 0) {
        if (c === state.quote) state.quote = 0;
      } else if (c === 0x22 || c === 0x27) state.quote = c;
      else if (c === 0x5b /* [ */) state.depth++;
      else if (c === 0x5d /* ] */) state.depth--;
      else if (c === 0x3e /* > */ && state.depth <= 0) break;
    }
    if (state.text.length < this.maxTokenLength) state.text += buf.slice(this.pos, i);
    if (i >= buf.length) {
      this.pos = buf.length;
      return false;
    }
    this.tokens.doctype([...state.text.matchAll(/<!ENTITY\s+(?:%\s+)?([^\s"'>]+)/g)].map((match) => match[1]!));
    this.pos = i + 1;
    this.mode = Mode.Content;
    return true;
  }

  private problem(code: string, message: string, at: number): void {
    this.report(code, message, this.lines.positionOf(at));
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

function isNameEnd(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x3e /* > */ || c === 0x2f; /* / */
}

function isWhitespaceRun(buf: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(buf.charCodeAt(i))) return false;
  return true;
}

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c >= 0xc0;
}

/** How much of a text run without `<` can be handed on now: all but a possibly unfinished reference or CR. */
function safeTextEnd(buf: string, start: number): number {
  let end = buf.length;
  const amp = buf.lastIndexOf('&');
  if (amp >= start && amp > end - 64 && buf.indexOf(';', amp) === -1) end = amp;
  if (end > start && buf.charCodeAt(end - 1) === 0x0d) end--;
  return end;
}
