/**
 * XML's element structure over the lexer's tokens, as htmlparser2's Parser is over its Tokenizer:
 * it matches end tags to the open elements (repairing what does not match, the way a browser-like
 * reader does), resolves namespaces, expands references and normalises line breaks, and tells
 * what lies outside the root. A document reader gets a clean stream of elements and text, each
 * with its position.
 */
import type { Position } from '../../core/position.js';
import { decodeReferences, type EntityProblem } from './entities.js';
import type { LineIndex } from './line-index.js';
import { CONVENTIONAL_PREFIXES, NamespaceScopes } from './namespaces.js';
import type { Flow, RawAttribute, TokenHandler, XmlProblemReporter } from './tokenizer.js';

export interface XmlAttribute {
  /** The name as written, with its prefix. */
  qname: string;
  /** Namespace URI ('' for unprefixed attributes, as XML Namespaces says). */
  uri: string;
  local: string;
  value: string;
}

/** What a document reader receives. Its flows go back to the lexer (see Flow). */
export interface XmlHandler {
  openElement(uri: string, local: string, attributes: readonly XmlAttribute[], qname: string, at: Position): Flow;
  closeElement(): Flow;
  /** Character data of the current element, possibly in several pieces. */
  text(value: string, at: Position): void;
  /**
   * Character data written as whitespace alone, always a whole run: indentation, where the
   * document's structure gives it no meaning (SAX's ignorable whitespace).
   */
  whitespace(value: string, at: Position): void;
  /**
   * The depth an element of this name belongs at, when the document's structure says (the root's
   * children are at depth 1), or undefined. Met deeper, the elements open down to that depth
   * have lost their end tags: they are closed there, and the repair is reported.
   */
  depthFor?(uri: string, local: string): number | undefined;
}

/** Counts what was repaired: each place where end tags were missing. */
export interface RepairCount {
  repairs: number;
}

interface OpenElement {
  qname: string;
  uri: string;
  local: string;
}

const EMPTY_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);

export class XmlElements implements TokenHandler {
  private readonly stack: OpenElement[] = [];
  private readonly scopes = new NamespaceScopes();
  private declaredEntities: ReadonlySet<string> = new Set();
  private readonly reportedOnce = new Set<string>();
  private rootSeen = false;
  private rootClosed = false;
  /**
   * An end tag that matched nothing, met with only the root open and nothing after it yet: at the
   * end of the document it is the root's own end tag, misspelt (an XML error), not a cut-off.
   */
  private strayRootEnd = false;

  constructor(
    private readonly handler: XmlHandler,
    private readonly lines: LineIndex,
    private readonly report: XmlProblemReporter,
    private readonly count: RepairCount,
  ) {}

  /** The namespace URI `prefix` is bound to where the reading stands ('' for the default namespace). */
  namespaceOf(prefix: string): string | undefined {
    return this.scopes.lookup(prefix);
  }

  /** The prefixes bound to `uri` where the reading stands, in the order they were declared. */
  prefixesOf(uri: string): string[] {
    return this.scopes.prefixesOf(uri);
  }

  // ── tokens ──────────────────────────────────────────────────────────────────────────────────

  startTag(qname: string, raw: readonly RawAttribute[] | undefined, selfClosing: boolean, at: number): Flow {
    if (this.rootClosed) {
      this.reportOnce('after-root', 'XML-001', `content after the root element (<${qname}> is ignored)`, at);
      return 'continue';
    }
    this.rootSeen = true;
    if (this.strayRootEnd) this.strayRootEnd = false;
    const depth = this.stack.length;
    let attributes = EMPTY_ATTRIBUTES;
    let declarations: [string, string][] | undefined;
    if (raw !== undefined) {
      for (const attribute of raw) {
        const name = attribute.qname;
        // Namespace names are compared trimmed (as saxes does): a stray space must not hide an extension.
        if (name === 'xmlns') (declarations ??= []).push(['', this.attributeValue(attribute).trim()]);
        else if (name.startsWith('xmlns:'))
          (declarations ??= []).push([name.slice(6), this.attributeValue(attribute).trim()]);
      }
      if (declarations !== undefined) this.scopes.declare(depth, declarations);
      attributes = raw.map((attribute) => this.resolveAttribute(attribute, at));
    }
    const colon = qname.indexOf(':');
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const uri = this.resolve(colon === -1 ? '' : qname.slice(0, colon), qname, at);
    const belongsAt = depth > 1 ? this.handler.depthFor?.(uri, local) : undefined;
    if (belongsAt !== undefined && belongsAt < depth) {
      // Its own declarations go with it, to where it belongs.
      if (declarations !== undefined) this.scopes.close(depth);
      this.closeUnclosed(belongsAt, qname, at);
      if (declarations !== undefined) this.scopes.declare(belongsAt, declarations);
    }
    this.stack.push({ qname, uri, local });
    const flow = this.handler.openElement(uri, local, attributes, qname, this.lines.positionOf(at));
    return selfClosing && flow !== 'stop' ? this.popElement() : flow;
  }

  endTag(qname: string, at: number): Flow {
    const stack = this.stack;
    const top = stack[stack.length - 1];
    if (top !== undefined && top.qname === qname) return this.popElement();
    if (stack.some((element) => element.qname === qname)) {
      this.count.repairs++;
      while (stack[stack.length - 1]!.qname !== qname) {
        this.problem('XML-001', `</${qname}> closes <${stack[stack.length - 1]!.qname}>, which was never closed`, at);
        this.popElement();
      }
      return this.popElement();
    }
    // Past the root everything is ignored, and said once: a concatenation of documents would
    // otherwise print one problem per stray tag.
    if (top === undefined && this.rootClosed)
      this.reportOnce('after-root', 'XML-001', `content after the root element (</${qname}> is ignored)`, at);
    else {
      this.problem(
        'XML-001',
        top ? `</${qname}> does not match <${top.qname}>; ignored` : `</${qname}> closes nothing; ignored`,
        at,
      );
      this.strayRootEnd = stack.length === 1;
    }
    return 'continue';
  }

  text(raw: string, at: number): void {
    if (this.stack.length === 0) {
      this.outsideRoot(raw, at);
      return;
    }
    if (isWhitespace(raw)) {
      this.handler.whitespace(normaliseNewlines(raw), this.lines.positionOf(at));
      return;
    }
    this.strayRootEnd = false;
    let text = raw;
    if (text.indexOf('&') !== -1)
      text = decodeReferences(text, this.declaredEntities, (problem) => this.entityProblem(problem, at));
    this.handler.text(normaliseNewlines(text), this.lines.positionOf(at));
  }

  verbatim(text: string, at: number): void {
    if (this.stack.length > 0) this.handler.text(normaliseNewlines(text), this.lines.positionOf(at));
  }

  cdata(at: number): void {
    if (this.stack.length === 0) this.problem('XML-001', 'a CDATA section outside the root element', at);
  }

  doctype(entities: readonly string[]): void {
    this.declaredEntities = new Set(entities);
  }

  end(at: number): void {
    // A misspelt root end tag was reported where it is; nothing was cut off.
    if (this.stack.length === 1 && this.strayRootEnd) return;
    if (this.stack.length > 0) {
      this.count.repairs++;
      const open = this.stack[this.stack.length - 1]!.qname;
      this.problem(
        'XML-014',
        `the document ends before </${open}>: it is cut off; the unfinished entry is left out`,
        at,
      );
    } else if (!this.rootSeen) {
      this.problem('XML-001', 'the document has no root element', at);
    }
  }

  // ── elements ────────────────────────────────────────────────────────────────────────────────

  /** Closes the open elements down to `depth`: a start tag met at `at` shows their end tags are missing. */
  private closeUnclosed(depth: number, qname: string, at: number): void {
    this.count.repairs++;
    const stack = this.stack;
    while (stack.length > depth) {
      const open = stack[stack.length - 1]!.qname;
      // Reported while the element is open, so that it names the entry the element belongs to.
      this.problem(
        'XML-001',
        `<${qname}> starts inside <${open}>, which was never closed: it is closed here (add its </${open}>)`,
        at,
      );
      this.popElement();
    }
  }

  private popElement(): Flow {
    this.stack.pop();
    this.scopes.close(this.stack.length);
    if (this.stack.length === 0) this.rootClosed = true;
    return this.handler.closeElement();
  }

  private resolveAttribute(attribute: RawAttribute, at: number): XmlAttribute {
    const name = attribute.qname;
    const colon = name.indexOf(':');
    const prefix = colon === -1 ? '' : name.slice(0, colon);
    return {
      qname: name,
      uri:
        name === 'xmlns' || prefix === 'xmlns'
          ? 'http://www.w3.org/2000/xmlns/'
          : colon === -1
            ? ''
            : this.resolve(prefix, name, at),
      local: colon === -1 ? name : name.slice(colon + 1),
      value: this.attributeValue(attribute),
    };
  }

  private resolve(prefix: string, qname: string, at: number): string {
    const uri = this.scopes.lookup(prefix);
    if (uri !== undefined) return uri;
    const conventional = CONVENTIONAL_PREFIXES[prefix];
    this.reportOnce(
      `prefix:${prefix}`,
      'XML-001',
      `the prefix "${prefix}" of <${qname}> is not declared${conventional ? `; read as ${conventional}` : ''} (add xmlns:${prefix}="…" to the root element)`,
      at,
    );
    return conventional ?? `urn:undeclared-prefix:${prefix}`;
  }

  // ── text ────────────────────────────────────────────────────────────────────────────────────

  /** Text before or after the root is ignored; said once, at its first visible character (a run may come in pieces). */
  private outsideRoot(raw: string, at: number): void {
    if (isWhitespace(raw)) return;
    const visible = at + (raw.length - raw.trimStart().length);
    if (this.rootClosed) this.reportOnce('after-root', 'XML-001', 'text after the root element is ignored', visible);
    else this.reportOnce('before-root', 'XML-002', 'text before the root element is ignored', visible);
  }

  private attributeValue(raw: RawAttribute): string {
    let value = raw.value.replace(/[\t\n\r]/g, ' ');
    if (value.indexOf('&') !== -1)
      value = decodeReferences(value, this.declaredEntities, (problem) => this.entityProblem(problem, raw.offset));
    return value;
  }

  /** A reference that could not be expanded; `base` is the document offset its text starts at. */
  private entityProblem(problem: EntityProblem, base: number): void {
    const at = base + problem.offset;
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

  // ── problems ────────────────────────────────────────────────────────────────────────────────

  private problem(code: string, message: string, at: number): void {
    this.report(code, message, this.lines.positionOf(at));
  }

  private reportOnce(key: string, code: string, message: string, at: number): void {
    if (this.reportedOnce.has(key)) return;
    this.reportedOnce.add(key);
    this.problem(code, message, at);
  }
}

/** Whether `text` is XML whitespace alone (spaces, tabs, line breaks). */
function isWhitespace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** XML end-of-line handling: CRLF and lone CR become LF. */
function normaliseNewlines(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}
