/**
 * A streaming XML tokenizer specialised for the hot path of sitemap documents, yet a correct XML
 * tokenizer: elements, attributes, namespaces (resolved by URI), text, CDATA, comments, processing
 * instructions, character and the five entity references. It works on string chunks with indexOf
 * scans, carries partial tokens across chunk boundaries, and counts lines lazily (only when a
 * position is asked for). A DOCTYPE is skipped, never processed.
 *
 * It is lenient: every deviation from well-formedness is reported (with the catalog's code) and
 * read the way a browser-like reader would, so a broken document loses as little as possible.
 * Its equivalence with saxes on well-formed documents is proven by test/parse/tokenizer-differential.
 */
import type { Position } from '../../core/position.js';
import { decodeReferences, type EntityProblem } from './entities.js';
import { CONVENTIONAL_PREFIXES, NamespaceScopes } from './namespaces.js';

export interface XmlAttribute {
  /** The name as written, with its prefix. */
  qname: string;
  /** Namespace URI ('' for unprefixed attributes, as XML Namespaces says). */
  uri: string;
  local: string;
  value: string;
}

/** What the tokenizer reports to. `position()` of the tokenizer is the current token's start. */
export interface XmlHandler {
  openElement(uri: string, local: string, attributes: readonly XmlAttribute[], qname: string): void;
  closeElement(uri: string, local: string): void;
  /** Character data of the current element, possibly in several pieces. */
  text(value: string): void;
  /**
   * Optional fast path: an element holding only plain text, in one call (instead of open, text,
   * close). `valueAt` is where the text starts, when known without counting lines.
   */
  leaf?(uri: string, local: string, qname: string, text: string, at: Position, valueAt: Position): void;
  /**
   * Optional fast path: offered each start tag without attributes directly inside the root, with
   * the text it stands in (`contentStart` is just past the tag). The handler may read the whole
   * element, and siblings right after it, from the text and return where what it read ends (just
   * past an end tag), return -1 to let the tokenizer read the element the general way, or
   * ELEMENT_CUT when the element is cut by the end of the text (it is offered again once more
   * text has come, or read the general way at the end of the input). `positions` places offsets
   * of `buf` in the document.
   */
  wholeElement?(
    uri: string,
    local: string,
    qname: string,
    buf: string,
    contentStart: number,
    positions: TextPositions,
  ): number;
  /**
   * Whitespace-only text directly inside elements this deep (the root is 1) means nothing to the
   * handler and is not handed on: the indentation between the elements of a pretty-printed sitemap.
   */
  readonly insignificantWhitespaceDepth?: number;
}

/** Whitespace held back at the end of the text while it may still be indentation (see scanContent). */
const MAX_HELD_WHITESPACE = 64 * 1024;

/** How much more text is waited for before what is held is scanned again (see resumeAt). */
const RESUME_GROWTH = 4096;

/** What XmlHandler.wholeElement returns for an element cut by the end of the text handed over. */
export const ELEMENT_CUT = -2;

/** Places offsets of the text handed to a fast path. */
export interface TextPositions {
  /** The document offset of `text[index]`. */
  offset(index: number): number;
  /** The 1-based line and column of `text[index]` (cheapest when asked in increasing order). */
  at(index: number): Position;
}

export type XmlProblemReporter = (code: string, message: string, at: Position) => void;

export interface TokenizerOptions {
  /** Longest start tag, comment or declaration held while waiting for its end (default 1 MiB). */
  maxTokenLength?: number;
}

const enum Mode {
  Content,
  Comment,
  CData,
  ProcessingInstruction,
  Doctype,
  Stopped,
}

const EMPTY_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);
const WHITESPACE_ONLY = /^[ \t\r\n]*$/;

/** An attribute as written; `offset` is where its value starts in the document. */
interface RawAttribute {
  qname: string;
  value: string;
  offset: number;
}

interface OpenElement {
  qname: string;
  uri: string;
  local: string;
}

export class XmlTokenizer {
  private buf = '';
  private pos = 0;
  /** Absolute offset (in UTF-16 units) of buf[0]. */
  private bufOffset = 0;
  private tokenStart = 0;
  private line = 1;
  private lineStart = 0;
  private counted = 0;
  /**
   * The document offset of the first line break at or after `counted`, or the end of the text
   * when it holds none (-1: not looked for since the text last grew). Positions asked one after
   * another on one line then cost no search.
   */
  private nextBreak = -1;
  /**
   * After a handler asked to wait for the rest of a cut element, or whitespace was held back: the
   * document offset the text must reach before it is scanned again. Scanning at every small write
   * would read what is held again each time (quadratic on a stream that trickles in byte by byte).
   */
  private resumeAt = 0;
  /** The line the text handed over starts on, and where that line starts (perhaps in text already dropped). */
  private bufLine = 1;
  private bufLineStart = 0;
  /** What wholeElement handlers place offsets with (one object, reused). */
  private readonly textPositions: TextPositions = {
    offset: (index) => this.bufOffset + index,
    at: (index) => this.positionOf(this.bufOffset + index),
  };

  private mode = Mode.Content;
  private doctype = { quote: 0, depth: 0, text: '' };
  private readonly stack: OpenElement[] = [];
  private readonly scopes = new NamespaceScopes();
  private readonly declaredEntities = new Set<string>();
  private readonly reportedOnce = new Set<string>();
  private rootSeen = false;
  private rootClosed = false;
  private readonly maxTokenLength: number;

  constructor(
    private readonly handler: XmlHandler,
    private readonly report: XmlProblemReporter,
    options: TokenizerOptions = {},
  ) {
    this.maxTokenLength = options.maxTokenLength ?? 1 << 20;
  }

  /** 1-based line and column of the token being handled. */
  position(): Position {
    return this.positionOf(this.tokenStart);
  }

  /** The namespace URI `prefix` is bound to where the tokenizer is ('' for the default namespace). */
  namespaceOf(prefix: string): string | undefined {
    return this.scopes.lookup(prefix);
  }

  write(chunk: string): void {
    if (this.mode === Mode.Stopped) return;
    if (this.pos > 0) {
      const start = this.bufOffset + this.pos;
      this.countLinesTo(start);
      // Placed while the text before it is still here (a fast path may have counted beyond it).
      const at = this.positionOf(start);
      this.bufLine = at.line;
      this.bufLineStart = start - (at.column - 1);
      this.bufOffset += this.pos;
      this.buf = this.buf.slice(this.pos);
      this.pos = 0;
    }
    this.buf = this.buf.length === 0 ? chunk : this.buf + chunk;
    this.nextBreak = -1;
    if (this.bufOffset + this.buf.length < this.resumeAt) return;
    this.scan(false);
  }

  /** The input is complete: whatever is still open is reported as a cut-off document. */
  end(): void {
    if (this.mode === Mode.Stopped) return;
    this.scan(true);
    // The handler may have stopped the reading on the way (a root that is no sitemap).
    if ((this.mode as Mode) === Mode.Stopped) return;
    const at = this.positionOf(this.bufOffset + this.buf.length);
    const unfinished: Partial<Record<Mode, string>> = {
      [Mode.Comment]: 'a comment',
      [Mode.CData]: 'a CDATA section',
      [Mode.ProcessingInstruction]: 'a processing instruction',
      [Mode.Doctype]: 'the DOCTYPE',
    };
    const inside = unfinished[this.mode];
    if (inside) this.report('XML-001', `the document ends inside ${inside}`, at);
    else if (this.pos < this.buf.length) this.report('XML-001', 'the document ends inside a tag', at);
    if (this.stack.length > 0) {
      const open = this.stack[this.stack.length - 1]!.qname;
      this.report('XML-001', `the document ends before </${open}> (cut off?); the unfinished entry is left out`, at);
    } else if (!this.rootSeen) {
      this.report('XML-001', 'the document has no root element', at);
    }
    this.mode = Mode.Stopped;
  }

  /** Stops reading: later writes are ignored. */
  stop(): void {
    this.mode = Mode.Stopped;
  }

  // ── scanning ────────────────────────────────────────────────────────────────────────────────

  private scan(final: boolean): void {
    const buf = this.buf;
    while (this.pos < buf.length && this.mode !== Mode.Stopped) {
      switch (this.mode) {
        case Mode.Content:
          if (!this.scanContent(final)) return;
          break;
        case Mode.Comment:
          if (!this.skipUntil('-->', final)) return;
          break;
        case Mode.ProcessingInstruction:
          if (!this.skipUntil('?>', final)) return;
          break;
        case Mode.CData:
          if (!this.scanCData(final)) return;
          break;
        case Mode.Doctype:
          if (!this.scanDoctype()) return;
          break;
      }
    }
  }

  /** Handles the next text run or markup; false when it needs more input. */
  private scanContent(final: boolean): boolean {
    const buf = this.buf;
    const start = this.pos;
    const lt = buf.indexOf('<', start);
    if (lt === -1) {
      const end = final ? buf.length : safeTextEnd(buf, start);
      // Whitespace that may be indentation is kept until its run ends, so that the run reads the
      // same however it is cut (indentation is dropped, the start of a value is not).
      if (!final && end - start < MAX_HELD_WHITESPACE && this.isIndentation(start, end)) {
        this.resumeAt = this.bufOffset + buf.length + RESUME_GROWTH;
        return false;
      }
      if (end > start) this.emitText(start, end);
      this.pos = end;
      return false;
    }
    if (lt > start && !this.isIndentation(start, lt)) this.emitText(start, lt);
    this.pos = lt;
    this.tokenStart = this.bufOffset + lt;
    if (lt + 1 >= buf.length) return this.needMore(final);
    const next = buf.charCodeAt(lt + 1);
    if (next === 0x2f /* / */) return this.scanEndTag(final);
    if (next === 0x21 /* ! */) return this.scanMarkupDeclaration(final);
    if (next === 0x3f /* ? */) return this.scanProcessingInstruction(final);
    if (isNameStart(next)) return this.scanStartTag(final);
    this.problem('XML-005', 'a raw "<" in text; write it as &lt;', this.tokenStart);
    this.emitRawText('<');
    this.pos = lt + 1;
    return true;
  }

  /** Whether the text between `start` and `end` is whitespace where the handler ignores it (see insignificantWhitespaceDepth). */
  private isIndentation(start: number, end: number): boolean {
    return (
      this.stack.length <= (this.handler.insignificantWhitespaceDepth ?? 0) && isWhitespaceRun(this.buf, start, end)
    );
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
    // The fast paths take only a start tag written `<name>`, nothing else in it.
    if (i === lt + qname.length + 2) {
      if (this.stack.length === 1 && !this.rootClosed && this.handler.wholeElement !== undefined) {
        const read = this.scanWholeElement(qname, i, final);
        if (read === 'read') return true;
        if (read === 'wait') return this.needMore(final);
      }
      if (this.handler.leaf !== undefined && this.scanLeaf(qname, i)) return true;
    }
    this.pos = i;
    this.openElement(qname, attributes, selfClosing);
    return true;
  }

  /**
   * Lets the handler read a whole child of the root from the text (see XmlHandler.wholeElement):
   * 'read' it did, 'wait' for more text before offering it again, 'general' for the general way.
   */
  private scanWholeElement(qname: string, contentStart: number, final: boolean): 'read' | 'wait' | 'general' {
    const colon = qname.indexOf(':');
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const uri = this.resolve(colon === -1 ? '' : qname.slice(0, colon), qname);
    const end = this.handler.wholeElement!(uri, local, qname, this.buf, contentStart, this.textPositions);
    if (end >= 0) {
      this.pos = end;
      return 'read';
    }
    if (end !== ELEMENT_CUT || final) return 'general';
    this.resumeAt = this.bufOffset + this.buf.length + RESUME_GROWTH;
    return 'wait';
  }

  /**
   * The hot path: `<name>plain text</name>` (no attributes, references, CR or markup inside), the
   * shape of nearly every element of a sitemap, handed on as one leaf. Anything else returns
   * false and takes the general path.
   */
  private scanLeaf(qname: string, textStart: number): boolean {
    const buf = this.buf;
    const close = buf.indexOf('<', textStart);
    if (close === -1 || buf.charCodeAt(close + 1) !== 0x2f /* / */) return false;
    const end = close + 2 + qname.length;
    if (buf.charCodeAt(end) !== 0x3e /* > */ || !buf.startsWith(qname, close + 2)) return false;
    if (this.stack.length === 0 || this.rootClosed) return false;
    const text = buf.slice(textStart, close);
    if (text.indexOf('&') !== -1 || text.indexOf('\r') !== -1) return false;
    const colon = qname.indexOf(':');
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const uri = this.resolve(colon === -1 ? '' : qname.slice(0, colon), qname);
    const at = this.position();
    // The start tag is `<name>` (see scanStartTag): the value starts on its line, just past it.
    const valueAt = { line: at.line, column: at.column + qname.length + 2 };
    this.pos = end + 1;
    this.handler.leaf!(uri, local, qname, text, at, valueAt);
    return true;
  }

  private scanEndTag(final: boolean): boolean {
    const buf = this.buf;
    const gt = buf.indexOf('>', this.pos + 2);
    if (gt === -1) return this.needMore(final);
    const qname = buf.slice(this.pos + 2, gt).trimEnd();
    this.pos = gt + 1;
    this.closeElement(qname);
    return true;
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
      if (this.stack.length === 0) this.problem('XML-001', 'a CDATA section outside the root element', this.tokenStart);
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
    const end = close === -1 ? (final ? buf.length : Math.max(this.pos, buf.length - 2)) : close;
    if (end > this.pos && this.stack.length > 0) {
      this.tokenStart = this.bufOffset + this.pos;
      this.deliverText(normaliseNewlines(buf.slice(this.pos, end)));
    }
    if (close === -1) {
      this.pos = end;
      return false;
    }
    this.pos = close + 3;
    this.mode = Mode.Content;
    return true;
  }

  /** Skips a DOCTYPE (quote- and bracket-aware), remembering the entity names it declares. */
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
    for (const match of state.text.matchAll(/<!ENTITY\s+(?:%\s+)?([^\s"'>]+)/g)) this.declaredEntities.add(match[1]!);
    this.pos = i + 1;
    this.mode = Mode.Content;
    return true;
  }

  // ── elements ────────────────────────────────────────────────────────────────────────────────

  private openElement(qname: string, raw: RawAttribute[] | undefined, selfClosing: boolean): void {
    if (this.rootClosed) {
      this.reportOnce('after-root', 'XML-001', `content after the root element (<${qname}> is ignored)`);
      return;
    }
    this.rootSeen = true;
    const depth = this.stack.length;
    let attributes = EMPTY_ATTRIBUTES;
    if (raw !== undefined) {
      const declarations: [string, string][] = [];
      for (const attribute of raw) {
        const name = attribute.qname;
        // Namespace names are compared trimmed (as saxes does): a stray space must not hide an extension.
        if (name === 'xmlns') declarations.push(['', this.attributeValue(attribute).trim()]);
        else if (name.startsWith('xmlns:')) declarations.push([name.slice(6), this.attributeValue(attribute).trim()]);
      }
      if (declarations.length > 0) this.scopes.declare(depth, declarations);
      const resolved: XmlAttribute[] = [];
      for (const attribute of raw) {
        const name = attribute.qname;
        const colon = name.indexOf(':');
        const prefix = colon === -1 ? '' : name.slice(0, colon);
        resolved.push({
          qname: name,
          uri:
            name === 'xmlns' || prefix === 'xmlns'
              ? 'http://www.w3.org/2000/xmlns/'
              : colon === -1
                ? ''
                : this.resolve(prefix, name),
          local: colon === -1 ? name : name.slice(colon + 1),
          value: this.attributeValue(attribute),
        });
      }
      attributes = resolved;
    }
    const colon = qname.indexOf(':');
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const uri = this.resolve(colon === -1 ? '' : qname.slice(0, colon), qname);
    this.stack.push({ qname, uri, local });
    this.handler.openElement(uri, local, attributes, qname);
    if (selfClosing) this.popElement();
  }

  private resolve(prefix: string, qname: string): string {
    const uri = this.scopes.lookup(prefix);
    if (uri !== undefined) return uri;
    const conventional = CONVENTIONAL_PREFIXES[prefix];
    this.reportOnce(
      `prefix:${prefix}`,
      'XML-001',
      `the prefix "${prefix}" of <${qname}> is not declared${conventional ? `; read as ${conventional}` : ''} (add xmlns:${prefix}="…" to the root element)`,
    );
    return conventional ?? `urn:undeclared-prefix:${prefix}`;
  }

  private closeElement(qname: string): void {
    const stack = this.stack;
    const top = stack[stack.length - 1];
    if (top !== undefined && top.qname === qname) {
      this.popElement();
      return;
    }
    if (stack.some((element) => element.qname === qname)) {
      while (stack[stack.length - 1]!.qname !== qname) {
        this.problem(
          'XML-001',
          `</${qname}> closes <${stack[stack.length - 1]!.qname}>, which was never closed`,
          this.tokenStart,
        );
        this.popElement();
      }
      this.popElement();
      return;
    }
    // Past the root everything is ignored, and said once: a concatenation of documents would
    // otherwise print one problem per stray tag.
    if (top === undefined && this.rootClosed)
      this.reportOnce('after-root', 'XML-001', `content after the root element (</${qname}> is ignored)`);
    else
      this.problem(
        'XML-001',
        top ? `</${qname}> does not match <${top.qname}>; ignored` : `</${qname}> closes nothing; ignored`,
        this.tokenStart,
      );
  }

  private popElement(): void {
    const element = this.stack.pop()!;
    this.scopes.close(this.stack.length);
    if (this.stack.length === 0) this.rootClosed = true;
    this.handler.closeElement(element.uri, element.local);
  }

  // ── text ────────────────────────────────────────────────────────────────────────────────────

  private emitText(start: number, end: number): void {
    this.tokenStart = this.bufOffset + start;
    let text = this.buf.slice(start, end);
    if (this.stack.length === 0) {
      if (!WHITESPACE_ONLY.test(text)) {
        // Once, at its first visible character: a run of text may come in pieces.
        const at = this.bufOffset + start + (text.length - text.trimStart().length);
        if (this.rootClosed) this.reportOnce('after-root', 'XML-001', 'text after the root element is ignored', at);
        else this.reportOnce('before-root', 'XML-002', 'text before the root element is ignored', at);
      }
      return;
    }
    if (text.indexOf('&') !== -1)
      text = decodeReferences(text, this.declaredEntities, (p) => this.entityProblem(p, start));
    this.deliverText(normaliseNewlines(text));
  }

  private emitRawText(text: string): void {
    if (this.stack.length > 0) this.handler.text(text);
  }

  private deliverText(text: string): void {
    this.handler.text(text);
  }

  private attributeValue(raw: RawAttribute): string {
    let value = raw.value.replace(/[\t\n\r]/g, ' ');
    if (value.indexOf('&') !== -1)
      value = decodeReferences(value, this.declaredEntities, (p) => this.entityProblem(p, raw.offset - this.bufOffset));
    return value;
  }

  private entityProblem(problem: EntityProblem, base: number): void {
    const at = this.bufOffset + base + problem.offset;
    switch (problem.kind) {
      case 'raw-ampersand':
        this.problem('XML-005', 'a raw "&" must be written &amp; (kept as "&")', at);
        break;
      case 'declared-entity':
        this.problem(
          'SEC-001',
          `the entity &${problem.name}; comes from the DOCTYPE and is not expanded (left out)`,
          at,
        );
        break;
      case 'undeclared-entity':
        this.problem('XML-001', `the entity &${problem.name}; is not defined in XML (kept as written)`, at);
        break;
      case 'bad-char-ref':
        this.problem('XML-006', `${problem.text} is not a character XML allows (left out)`, at);
        break;
    }
  }

  // ── positions and problems ─────────────────────────────────────────────────────────────────

  private problem(code: string, message: string, at: number): void {
    this.report(code, message, this.positionOf(at));
  }

  private reportOnce(key: string, code: string, message: string, at = this.tokenStart): void {
    if (this.reportedOnce.has(key)) return;
    this.reportedOnce.add(key);
    this.problem(code, message, at);
  }

  /**
   * The 1-based line and column of a document offset; for offsets still in the text being read
   * (those of the entries handed out from the current chunk).
   */
  positionOf(offset: number): Position {
    if (offset >= this.counted) {
      this.countLinesTo(offset);
      return { line: this.line, column: offset - this.lineStart + 1 };
    }
    return this.earlierPosition(offset);
  }

  /**
   * A place before what lines were counted to (a problem reported after a later one): counted
   * back from there within the buffer. Lines start at 1 and columns at 1 whatever happens.
   */
  private earlierPosition(offset: number): Position {
    if (offset >= this.lineStart) return { line: this.line, column: offset - this.lineStart + 1 };
    const buf = this.buf;
    let line = this.line;
    const before = this.lineStart - this.bufOffset - 1;
    let nl = before < 0 ? -1 : buf.lastIndexOf('\n', before);
    while (nl !== -1 && this.bufOffset + nl >= offset) {
      line--;
      // lastIndexOf reads a negative start as 0: a break at 0 would be found again and again.
      nl = nl === 0 ? -1 : buf.lastIndexOf('\n', nl - 1);
    }
    // No line break left in the text: the offset is on the line the text starts on.
    if (nl === -1) return { line: this.bufLine, column: Math.max(1, offset - this.bufLineStart + 1) };
    return { line: Math.max(1, line), column: Math.max(1, offset - (this.bufOffset + nl + 1) + 1) };
  }

  private countLinesTo(offset: number): void {
    if (offset <= this.counted) return;
    if (offset <= this.nextBreak) {
      this.counted = offset;
      return;
    }
    const buf = this.buf;
    const end = offset - this.bufOffset;
    let nl = this.nextBreak === -1 ? buf.indexOf('\n', this.counted - this.bufOffset) : this.nextBreak - this.bufOffset;
    while (nl !== -1 && nl < end) {
      this.line++;
      this.lineStart = this.bufOffset + nl + 1;
      nl = buf.indexOf('\n', nl + 1);
    }
    this.counted = offset;
    this.nextBreak = nl === -1 ? this.bufOffset + buf.length : this.bufOffset + nl;
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

/** XML end-of-line handling: CRLF and lone CR become LF. */
function normaliseNewlines(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}
