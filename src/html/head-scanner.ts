/**
 * A page's head read fast: the same PageHead as `readPageHead(chunks, url)` (./page-head.ts, with
 * no body to read), from a scanner that looks only at the tags the head rules need (`html`,
 * `head`, `meta`, `link`, `base`, `title`, `script`, `noscript`, `h1`, `h2`) and stops at `</head>` or
 * `<body>`. Other tags are stepped over (their attributes read only to find where they end),
 * raw text (`script`, `style`, `title`…) is found with `indexOf`, and character references are
 * decoded only in the values that are used, and only when they hold a `&`, by htmlparser2 itself,
 * so that an entity reads as the full parser reads it. htmlparser2 is loaded only then
 * (loadReferenceDecoder): most heads of a build have no reference in what is read of them, and
 * loading the parser cost more CPU time than scanning a few thousand heads.
 *
 * Why not htmlparser2 for the head too (the project's rule is one parser, unless measurement
 * says otherwise): `generate DIR` reads every page's head, and htmlparser2's per-character state
 * machine with an attribute object and callbacks per tag cost 50 µs a page, the largest part of
 * the run (bench/build-dir.bench.ts); this scanner reads the same head in a fraction of that.
 * Where a page's body matters (a short page that may be a redirect stub, a page whose title may
 * say "not found"), the reader of the build folder still uses readPageHead: this one never reads
 * a body. The tokenizing follows htmlparser2's (the HTML standard's, in what a head holds): a
 * differential test holds the two readers to the same answers (test/html/head-scanner.test.ts).
 */
import type { Parser } from 'htmlparser2';
import type { Alternate } from '../core/entry.js';
import { ClientRedirectScanner } from './client-redirect.js';
import { addDirectiveList, isHonouredMetaName, noDirectives } from './directives.js';
import { loadHtmlParser } from './one-pass.js';
import {
  dateModifiedOf,
  isJsonLd,
  MAX_JSON_LD_CHARS,
  MODIFIED_PROPERTIES,
  pageHeadOf,
  relTokens,
  type PageHead,
} from './page-head.js';
import { PageTitles } from './page-titles.js';

/** Elements whose content is text up to their end tag, as htmlparser2 reads them. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes']);

/** Elements that have no content and no end tag (they never stand on the stack of open elements). */
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Open elements that an element closes by opening, where that matters to the head rules (as htmlparser2 does). */
const CLOSED_BY_OPENING = new Map<string, Set<string>>([
  ['body', new Set(['head', 'link', 'script'])],
  ...[...HEADINGS].map((heading): [string, Set<string>] => [heading, HEADINGS]),
]);

/** Elements whose attributes the head rules read. */
const WITH_ATTRIBUTES = new Set(['html', 'meta', 'link', 'base', 'script']);

/** The attributes the head rules read, each a slot of HeadScanner's `values`. */
const LANG = 0;
const TYPE = 1;
const SRC = 2;
const NAME = 3;
const CONTENT = 4;
const PROPERTY = 5;
const HTTP_EQUIV = 6;
const HREF = 7;
const REL = 8;
const HREFLANG = 9;
const ATTRIBUTE_SLOTS = 10;

/** The slots emptied for the next tag (a loop: Array.prototype.fill cost more on ten slots). */
function clearedSlots(values: (string | undefined)[]): (string | undefined)[] {
  for (let slot = 0; slot < ATTRIBUTE_SLOTS; slot++) values[slot] = undefined;
  return values;
}

/** The slot of an attribute (its name lower-cased) the head rules read, or -1. */
function attributeSlot(key: string): number {
  switch (key) {
    case 'lang':
      return LANG;
    case 'type':
      return TYPE;
    case 'src':
      return SRC;
    case 'name':
      return NAME;
    case 'content':
      return CONTENT;
    case 'property':
      return PROPERTY;
    case 'http-equiv':
      return HTTP_EQUIV;
    case 'href':
      return HREF;
    case 'rel':
      return REL;
    case 'hreflang':
      return HREFLANG;
    default:
      return -1;
  }
}

/**
 * Reads the head of the page at `pageUrl` from its UTF-8 bytes (or text), as readPageHead does
 * with no body. Throws ReferenceDecoderNotLoaded when a value it reads has a character reference
 * and loadReferenceDecoder() has not been awaited.
 */
export function scanPageHead(chunks: Iterable<Uint8Array | string>, pageUrl: string): PageHead {
  const scanner = new HeadScanner();
  const decoder = new Utf8Pieces();
  for (const chunk of chunks) {
    // Bytes are decoded a step at a time: most of a chunk past the head is never made a string.
    const step = typeof chunk === 'string' ? chunk.length : DECODE_STEP;
    for (let at = 0; at < chunk.length; at += step) {
      const piece = typeof chunk === 'string' ? chunk : decoder.decode(chunk.subarray(at, at + step));
      if (scanner.feed(piece)) return pageHeadOf(scanner.facts(), pageUrl);
    }
  }
  scanner.end(decoder.end());
  return pageHeadOf(scanner.facts(), pageUrl);
}

/** Bytes decoded at a time: a head of a few kilobytes is decoded, and little beyond it. */
const DECODE_STEP = 4096;

/** One decoder for every page: its non-streaming UTF-8 path is several times faster than a streaming one. */
const utf8 = new TextDecoder('utf-8');

/**
 * UTF-8 chunks decoded one by one, the bytes of a character cut at a chunk's end kept for the
 * next: a streaming TextDecoder, made for each page, cost more than the scanning itself.
 */
class Utf8Pieces {
  private carry: Uint8Array | undefined;

  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.carry !== undefined) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
      this.carry = undefined;
    }
    const whole = completeLength(bytes);
    if (whole < bytes.length) this.carry = bytes.slice(whole);
    return utf8.decode(whole === bytes.length ? bytes : bytes.subarray(0, whole));
  }

  /** What is left: bytes of a character cut short decode as U+FFFD, as a streaming decoder's end does. */
  end(): string {
    const rest = this.carry;
    this.carry = undefined;
    return rest === undefined ? '' : utf8.decode(rest);
  }
}

/** The length of the bytes' longest prefix that ends with a whole UTF-8 character. */
function completeLength(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let i = length - 1; i >= 0 && i >= length - 4; i--) {
    const byte = bytes[i]!;
    if (byte < 0x80) return length;
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return i + needed > length ? i : length;
    }
  }
  return length;
}

/** Character codes the scanner compares with. */
const TAB = 9;
const NEW_LINE = 10;
const FORM_FEED = 12;
const RETURN = 13;
const SPACE = 32;
const SLASH = 47;
const EQUALS = 61;
const GREATER = 62;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;

function isSpace(c: number): boolean {
  return c === SPACE || c === NEW_LINE || c === TAB || c === RETURN || c === FORM_FEED;
}

/** True for a character that toLowerCase may change: an ASCII capital, or any non-ASCII character. */
function mayLowerCase(c: number): boolean {
  return (c >= 65 && c <= 90) || c >= 128;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Where a tag's or an attribute's name ends: white space, `/`, `>` (and `=` for an attribute). */
function endsName(c: number, attribute: boolean): boolean {
  return isSpace(c) || c === SLASH || c === GREATER || (attribute && c === EQUALS);
}

/** What `scan` answers when the text so far ends inside a construct: read more first. */
const INCOMPLETE = -1;

class HeadScanner {
  /** The text not yet scanned (from `pos`). */
  private text = '';
  private pos = 0;
  private eof = false;
  /** The head ended: `</head>` (of an open `<head>`) or `<body>`. */
  private done = false;
  /** Reading stopped at the end of the head, before the end of the document. */
  private endedEarly = false;
  /** The raw-text element being read (its content runs to its end tag), and where to look for that on. */
  private raw: string | undefined;
  private rawSearch = 0;
  /** The open elements, innermost first, as htmlparser2 keeps them: an end tag closes those above its element. */
  private readonly open: string[] = [];
  private inNoscript = false;
  private readonly directives = noDirectives();
  private readonly canonicalHrefs: string[] = [];
  private readonly alternateHrefs: Alternate[] = [];
  private baseHref: string | undefined;
  private metaModified: string | undefined;
  private jsonLdModified: string | undefined;
  /** The text of the JSON-LD block being read; undefined outside one. */
  private jsonLd: string | undefined;
  private readonly redirects = new ClientRedirectScanner();
  private readonly titles = new PageTitles();
  private lang: string | undefined;

  /** Scans on with `piece`; true once the head has ended (nothing more needs reading). */
  feed(piece: string): boolean {
    this.text = this.pos === 0 ? this.text + piece : this.text.slice(this.pos) + piece;
    this.rawSearch -= this.pos;
    this.pos = 0;
    this.scan();
    return this.done;
  }

  /** The document ends with `rest`. */
  end(rest: string): void {
    this.eof = true;
    this.feed(rest);
    // Elements still open at the end close, as htmlparser2 closes them (the head was not ended early for that).
    if (this.done) return;
    this.endedEarly = false;
    while (this.open.length > 0) this.closed(this.open.shift()!);
  }

  facts(): Parameters<typeof pageHeadOf>[0] {
    return {
      directives: this.directives,
      canonicalHrefs: this.canonicalHrefs,
      alternateHrefs: this.alternateHrefs,
      baseHref: this.baseHref,
      modified: this.metaModified ?? this.jsonLdModified,
      lang: this.lang,
      title: this.titles.title,
      heading: this.titles.heading,
      redirect: this.redirects.redirect,
      showsNothing: !this.endedEarly,
    };
  }

  private scan(): void {
    const text = this.text;
    while (!this.done && this.pos < text.length) {
      if (this.raw !== undefined) {
        if (!this.rawContent(text)) return;
        continue;
      }
      const lt = text.indexOf('<', this.pos);
      if (lt < 0) {
        // A reference may be cut at the chunk's end: text being read waits for the rest.
        if (this.titles.isReading && !this.eof) return;
        this.textPiece(text.slice(this.pos));
        this.pos = text.length;
        return;
      }
      if (lt > this.pos) this.textPiece(text.slice(this.pos, lt));
      this.pos = lt;
      const next = this.markup(text, lt);
      if (next === INCOMPLETE) return;
      this.pos = next;
    }
  }

  /** Reads the content of the raw-text element up to its end tag; false when that is not in the text yet. */
  private rawContent(text: string): boolean {
    const name = this.raw!;
    let close = this.rawEnd(text, name);
    let after: number;
    if (close === INCOMPLETE) {
      if (!this.eof) return false;
      close = after = text.length;
    } else {
      const gt = text.indexOf('>', close);
      if (gt < 0 && !this.eof) {
        this.rawSearch = close;
        return false;
      }
      after = gt < 0 ? text.length : gt + 1;
    }
    const content = text.slice(this.pos, close);
    this.pos = after;
    this.raw = undefined;
    if (name === 'script') {
      if (this.redirects.inScript) this.redirects.text(content);
      if (this.jsonLd !== undefined)
        this.jsonLd = this.jsonLd.length + content.length > MAX_JSON_LD_CHARS ? undefined : this.jsonLd + content;
    }
    if (this.titles.isReading && content !== '')
      this.titles.text(name === 'title' || name === 'textarea' ? decodeReferences(content, 'text') : content);
    this.endTag(name);
    return true;
  }

  /** Where the end tag of raw-text element `name` starts (`</name` then white space, `/` or `>`), or INCOMPLETE. */
  private rawEnd(text: string, name: string): number {
    for (let at = text.indexOf('</', Math.max(this.pos, this.rawSearch)); at >= 0; at = text.indexOf('</', at + 2)) {
      const after = at + 2 + name.length;
      if (after >= text.length) {
        // `</scr` at the end: it may be the end tag, once the next chunk says.
        this.rawSearch = at;
        return INCOMPLETE;
      }
      if (text.slice(at + 2, after).toLowerCase() === name && endsName(text.charCodeAt(after), false)) return at;
    }
    this.rawSearch = Math.max(this.pos, text.length - 1);
    return INCOMPLETE;
  }

  /** Reads the markup starting with the `<` at `lt`; where the scan goes on, or INCOMPLETE. */
  private markup(text: string, lt: number): number {
    const length = text.length;
    const incomplete = this.eof ? length : INCOMPLETE;
    if (lt + 1 >= length) {
      if (!this.eof) return INCOMPLETE;
      this.textPiece('<');
      return length;
    }
    const c = text.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        // `<!-->` and `<!--->` are whole comments.
        if (text.startsWith('>', lt + 4)) return lt + 5;
        if (text.startsWith('->', lt + 4)) return lt + 6;
        const close = text.indexOf('-->', lt + 4);
        return close < 0 ? incomplete : close + 3;
      }
      if (length - lt < 4 && !this.eof) return INCOMPLETE; // may yet be `<!--`
      const gt = text.indexOf('>', lt + 2);
      return gt < 0 ? incomplete : gt + 1;
    }
    if (c === 63 /* ? */) {
      const gt = text.indexOf('>', lt + 2);
      return gt < 0 ? incomplete : gt + 1;
    }
    if (c === SLASH) {
      if (lt + 2 >= length) return incomplete;
      if (text.charCodeAt(lt + 2) === GREATER) return lt + 3;
      const gt = text.indexOf('>', lt + 2);
      if (gt < 0) return incomplete;
      if (isLetter(text.charCodeAt(lt + 2))) {
        let end = lt + 3;
        while (end < gt && !endsName(text.charCodeAt(end), false)) end++;
        this.endTag(text.slice(lt + 2, end).toLowerCase());
      }
      return gt + 1;
    }
    if (isLetter(c)) return this.startTag(text, lt);
    this.textPiece('<');
    return lt + 1;
  }

  /** Reads a start tag and its attributes (kept for the elements the rules read); where it ends, or INCOMPLETE. */
  private startTag(text: string, lt: number): number {
    const length = text.length;
    const eofEnd = this.eof ? length : INCOMPLETE;
    let i = lt + 2;
    let upper = mayLowerCase(text.charCodeAt(lt + 1));
    for (; i < length; i++) {
      const c = text.charCodeAt(i);
      if (endsName(c, false)) break;
      if (mayLowerCase(c)) upper = true;
    }
    if (i >= length) return eofEnd;
    const name = upper ? text.slice(lt + 1, i).toLowerCase() : text.slice(lt + 1, i);
    // Only the tags the rules read keep attributes: in the fixed slots of `values`, the first of each name.
    const values = WITH_ATTRIBUTES.has(name) ? clearedSlots(this.values) : undefined;
    for (;;) {
      let c = text.charCodeAt(i);
      while (i < length && (isSpace(c) || c === SLASH)) c = text.charCodeAt(++i);
      if (i >= length) return eofEnd;
      if (c === GREATER) break;
      const nameStart = i;
      let keyUpper = false;
      for (; i < length; i++) {
        c = text.charCodeAt(i);
        if (endsName(c, true)) break;
        if (mayLowerCase(c)) keyUpper = true;
      }
      const nameEnd = i;
      while (i < length && isSpace(c)) c = text.charCodeAt(++i);
      if (i >= length) return eofEnd;
      let valueStart = i;
      let valueEnd = i;
      let quote: '"' | "'" | '' = '';
      if (c === EQUALS) {
        c = text.charCodeAt(++i);
        while (i < length && isSpace(c)) c = text.charCodeAt(++i);
        if (i >= length) return eofEnd;
        if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
          quote = c === DOUBLE_QUOTE ? '"' : "'";
          const close = text.indexOf(quote, i + 1);
          if (close < 0) return eofEnd;
          valueStart = i + 1;
          valueEnd = close;
          i = close + 1;
        } else {
          valueStart = i;
          while (i < length && !isSpace(c) && c !== GREATER) c = text.charCodeAt(++i);
          if (i >= length) return eofEnd;
          valueEnd = i;
        }
      }
      if (values === undefined) continue;
      const key = text.slice(nameStart, nameEnd);
      const slot = attributeSlot(keyUpper ? key.toLowerCase() : key);
      if (slot < 0 || values[slot] !== undefined) continue;
      const value = text.slice(valueStart, valueEnd);
      values[slot] = value.includes('&') ? decodeReferences(value, quote) : value;
    }
    this.startElement(name, values);
    return i + 1;
  }

  /** The attributes read of the tag being started (the slots of attributeSlot), reused from tag to tag. */
  private readonly values: (string | undefined)[] = new Array<string | undefined>(ATTRIBUTE_SLOTS).fill(undefined);

  private startElement(name: string, values: readonly (string | undefined)[] | undefined): void {
    const closes = CLOSED_BY_OPENING.get(name);
    while (closes !== undefined && this.open.length > 0 && closes.has(this.open[0]!)) this.closed(this.open.shift()!);
    if (this.done) return;
    if (!VOID.has(name)) this.open.unshift(name);
    if (RAW_TEXT.has(name)) {
      this.raw = name;
      this.rawSearch = 0;
    }
    switch (name) {
      case 'html':
        if (this.lang === undefined) this.lang = values![LANG]?.trim() || undefined;
        return;
      case 'body':
        this.endHead();
        return;
      case 'script':
        if (isJsonLd(values![TYPE]) && this.jsonLdModified === undefined) this.jsonLd = '';
        else this.redirects.scriptOpened({ src: values![SRC], type: values![TYPE] });
        return;
      case 'noscript':
        this.inNoscript = true;
        return;
      case 'title':
      case 'h1':
      case 'h2':
        this.titles.opened(name, true);
        return;
      case 'meta': {
        const content = values![CONTENT];
        if (!this.inNoscript && values![HTTP_EQUIV] !== undefined)
          this.redirects.meta({ 'http-equiv': values![HTTP_EQUIV], content });
        const metaName = values![NAME];
        if (metaName !== undefined && isHonouredMetaName(metaName)) addDirectiveList(this.directives, content ?? '');
        const property = values![PROPERTY]?.trim().toLowerCase();
        if (this.metaModified === undefined && property !== undefined && MODIFIED_PROPERTIES.has(property))
          this.metaModified = content?.trim() || undefined;
        return;
      }
      case 'base':
        if (this.baseHref === undefined && values![HREF] !== undefined) this.baseHref = values![HREF];
        return;
      case 'link': {
        const href = values![HREF];
        if (href === undefined) return;
        const rel = relTokens(values![REL]);
        if (rel.includes('canonical')) this.canonicalHrefs.push(href);
        const hreflang = values![HREFLANG]?.trim();
        if (rel.includes('alternate') && hreflang) this.alternateHrefs.push({ hreflang, href });
        return;
      }
    }
  }

  /** An end tag: its element closes, and those opened inside it that are still open; a stray one is ignored. */
  private endTag(name: string): void {
    const at = this.open.indexOf(name);
    if (at < 0 || VOID.has(name)) return;
    for (const element of this.open.splice(0, at + 1)) this.closed(element);
  }

  /** What the closing of an element (by its end tag, or implied) means to the head rules. */
  private closed(name: string): void {
    if (name === 'head') this.endHead();
    else if (name === 'noscript') this.inNoscript = false;
    else if (name === 'script') this.closeScript();
    this.titles.closed(name);
  }

  private endHead(): void {
    if (this.done || this.eof) return;
    this.done = true;
    this.endedEarly = true;
  }

  private textPiece(text: string): void {
    if (this.titles.isReading) this.titles.text(decodeReferences(text, 'text'));
  }

  private closeScript(): void {
    this.redirects.scriptClosed();
    if (this.jsonLd === undefined) return;
    this.jsonLdModified ??= dateModifiedOf(this.jsonLd);
    this.jsonLd = undefined;
  }
}

/** The value decoded by the last call of decodeReferences. */
let decoded = '';
/** htmlparser2, as decodeReferences uses it; loaded by loadReferenceDecoder. */
let referenceDecoder: Parser | undefined;

/**
 * Thrown by scanPageHead when a value it reads has a character reference and htmlparser2 is not
 * loaded yet: await loadReferenceDecoder(), then scan the page again.
 */
export class ReferenceDecoderNotLoaded extends Error {
  constructor() {
    super('a character reference needs htmlparser2: await loadReferenceDecoder() before scanning this head');
    this.name = 'ReferenceDecoderNotLoaded';
  }
}

/** Loads htmlparser2 for the character references of scanPageHead (once; later calls return at once). */
export async function loadReferenceDecoder(): Promise<void> {
  if (referenceDecoder !== undefined) return;
  const Parser = await loadHtmlParser();
  referenceDecoder ??= new Parser(
    {
      ontext(text) {
        decoded += text;
      },
      onattribute(_name, value) {
        decoded = value;
      },
    },
    { decodeEntities: true },
  );
}

/**
 * Text or an attribute value (as written between `quote`s) with its character references
 * decoded by htmlparser2, so that `&amp;`, `&#x27;`, `&copy` and the legacy references without a
 * semicolon read exactly as the full parser reads them, in text and in attributes alike.
 */
function decodeReferences(raw: string, quote: '"' | "'" | '' | 'text'): string {
  if (!raw.includes('&')) return raw;
  if (referenceDecoder === undefined) throw new ReferenceDecoderNotLoaded();
  decoded = '';
  referenceDecoder.reset();
  referenceDecoder.end(quote === 'text' ? `<title>${raw}</title>` : `<a v=${quote}${raw}${quote}>`);
  return decoded;
}
