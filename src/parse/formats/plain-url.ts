/**
 * The hot path of a urlset: `<url>` blocks of the common shape read straight from the text,
 * without tokens, nodes or a tree, a whole run of consecutive blocks at a time:
 *
 *   <url><loc>…</loc><lastmod>…</lastmod><changefreq>…</changefreq><priority>…</priority>
 *        <image:image><image:loc>…</image:loc></image:image>…</url>
 *
 * (each child optional but loc, in this order, unprefixed, without attributes, separated by
 * whitespace only; any number of images holding only their loc, under the prefix the root binds
 * to the image namespace). It takes a block only when the general path would report nothing
 * about it: anything else (another extension, a comment, CDATA, a reference other than `&amp;`
 * in a loc, a value the general path would repair or drop, a block cut by the end of the chunk)
 * ends the run, and the tokenizer reads that block the general way, from its start tag.
 * test/parse/plain-url.test.ts holds both paths to the same entries, positions and diagnostics.
 */
import { isChangefreq, type UrlEntry } from '../../core/entry.js';
import type { LocatedEntry, Position } from '../types.js';
import type { LineMark } from '../xml/tokenizer.js';
import { isValidW3cDate } from './values.js';

const enum Field {
  Loc,
  Lastmod,
  Changefreq,
  Priority,
}

const FIELD_NAMES = ['loc', 'lastmod', 'changefreq', 'priority'] as const;
/** `<changefreq>`, the longest start tag of a field. */
const MAX_FIELD_TAG_LENGTH = 12;
const PRIORITY = /^[+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export interface PlainUrlOptions {
  maxValueLength: number;
  /** The prefix the root binds to the image namespace, when it binds one. */
  imagePrefix: string | undefined;
  /** The prefix the root binds to the XHTML namespace (for `xhtml:link` alternates), when it binds one. */
  xhtmlPrefix: string | undefined;
}

/**
 * The tags of `<image:image><image:loc>…</image:loc></image:image>` and the start of
 * `<xhtml:link rel="alternate" hreflang="…" href="…"/>` under the document's prefixes.
 */
interface ExtensionTags {
  imageOpen: string | undefined;
  imageClose: string;
  imageLocOpen: string;
  imageLocClose: string;
  linkOpen: string | undefined;
}

const tagsByPrefixes = new Map<string, ExtensionTags>();

function extensionTags(imagePrefix: string | undefined, xhtmlPrefix: string | undefined): ExtensionTags {
  const key = `${imagePrefix} ${xhtmlPrefix}`;
  let tags = tagsByPrefixes.get(key);
  if (tags === undefined) {
    tags = {
      imageOpen: imagePrefix === undefined ? undefined : `<${imagePrefix}:image>`,
      imageClose: `</${imagePrefix}:image>`,
      imageLocOpen: `<${imagePrefix}:loc>`,
      imageLocClose: `</${imagePrefix}:loc>`,
      linkOpen: xhtmlPrefix === undefined ? undefined : `<${xhtmlPrefix}:link rel="alternate" hreflang="`,
    };
    tagsByPrefixes.set(key, tags);
  }
  return tags;
}

/** Extension elements in a block: more than this and the general path reads it (it limits the nodes of a block). */
const MAX_PLAIN_EXTENSIONS = 1_000;

/**
 * Reads the run of plain blocks that starts with the one whose content starts at `contentStart`
 * (just past `<url>`, which is at `at` in the document), emitting an entry for each. Returns
 * where the last block read ends (just past `</url>`), with its line left in `endLine`, or -1
 * when the first is not plain.
 */
export function readPlainUrlBlocks(
  buf: string,
  contentStart: number,
  at: Position,
  options: PlainUrlOptions,
  emit: (located: LocatedEntry) => void,
  endLine: LineMark,
): number {
  const cursor: LineCursor = { line: at.line, lineStart: contentStart - 5 - (at.column - 1), blockEnd: -1 };
  let end = -1;
  let start = contentStart;
  let blockAt = at;
  for (;;) {
    const located = readPlainUrlBlock(buf, start, blockAt, cursor, options);
    if (located === undefined) return end;
    emit(located);
    end = cursor.blockEnd;
    endLine.line = cursor.line;
    endLine.lineStart = cursor.lineStart;
    // The next block, when it follows after whitespace only.
    const next = skipWhitespace(buf, end, cursor);
    if (!textAt(buf, next, '<url>')) return end;
    blockAt = { line: cursor.line, column: next - cursor.lineStart + 1 };
    start = next + 5;
  }
}

/** The line being read and where it starts in the text (before the text when it began in an earlier chunk). */
interface LineCursor {
  line: number;
  lineStart: number;
  /** Just past the `</url>` of the block last read. */
  blockEnd: number;
}

/** Skips spaces, tabs and line breaks (counting lines) from `i`; returns where they stop. */
function skipWhitespace(buf: string, i: number, cursor: LineCursor): number {
  for (const end = buf.length; i < end; i++) {
    const c = buf.charCodeAt(i);
    if (c === 0x0a) {
      cursor.line++;
      cursor.lineStart = i + 1;
    } else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) break;
  }
  return i;
}

/** One plain block; undefined (with the cursor's line count spoilt) when it is not plain. */
function readPlainUrlBlock(buf: string, contentStart: number, at: Position, cursor: LineCursor, options: PlainUrlOptions): LocatedEntry | undefined {
  const values: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  const positions: (Position | undefined)[] = [undefined, undefined, undefined, undefined];
  // Lines are counted in the whitespace between children (a clean value holds no line break).
  let next: number = Field.Loc;
  let i = skipWhitespace(buf, contentStart, cursor);
  let extensions: PlainExtension[] | undefined;
  while (!isUrlEndTag(buf, i)) {
    const field = childAt(buf, i, next);
    if (field === -1) {
      // Only images and alternates may follow, up to the end of the block.
      extensions = readPlainExtensions(buf, i, cursor, extensionTags(options.imagePrefix, options.xhtmlPrefix), options.maxValueLength);
      if (extensions === undefined) return undefined;
      i = cursor.blockEnd - 6;
      break;
    }
    const name = FIELD_NAMES[field]!;
    const valueStart = i + name.length + 2;
    const valueEnd = buf.indexOf('<', valueStart);
    if (valueEnd - valueStart > options.maxValueLength || !isEndTag(buf, valueEnd, name)) return undefined;
    const value = field === Field.Loc ? cleanUrl(buf, valueStart, valueEnd) : buf.slice(valueStart, valueEnd);
    if (value === undefined) return undefined;
    values[field] = value;
    positions[field] = { line: cursor.line, column: valueStart - cursor.lineStart + 1 };
    next = field + 1;
    i = skipWhitespace(buf, valueEnd + name.length + 3, cursor);
  }
  cursor.blockEnd = i + 6;
  return buildEntry(values, positions, extensions, at);
}

/** Whether `</url>` is at `i`. */
function isUrlEndTag(buf: string, i: number): boolean {
  return (
    i + 6 <= buf.length &&
    buf.charCodeAt(i) === 0x3c /* < */ &&
    buf.charCodeAt(i + 1) === 0x2f /* / */ &&
    buf.charCodeAt(i + 2) === 0x75 /* u */ &&
    buf.charCodeAt(i + 3) === 0x72 /* r */ &&
    buf.charCodeAt(i + 4) === 0x6c /* l */ &&
    buf.charCodeAt(i + 5) === 0x3e /* > */
  );
}

type PlainExtension =
  | { kind: 'image'; loc: string; at: Position; locAt: Position }
  | { kind: 'link'; hreflang: string; href: string; at: Position };

/**
 * Plain images (`<image:image><image:loc>…</image:loc></image:image>`) and alternates
 * (`<xhtml:link rel="alternate" hreflang="…" href="…"/>`, attributes in that order, double
 * quotes), whitespace between, from `i` up to the block's `</url>` (where the cursor's blockEnd
 * is left); undefined for anything else.
 */
function readPlainExtensions(buf: string, i: number, cursor: LineCursor, tags: ExtensionTags, maxValueLength: number): PlainExtension[] | undefined {
  const extensions: PlainExtension[] = [];
  while (!isUrlEndTag(buf, i)) {
    if (extensions.length === MAX_PLAIN_EXTENSIONS) return undefined;
    const at = { line: cursor.line, column: i - cursor.lineStart + 1 };
    let extension: PlainExtension | undefined;
    if (tags.imageOpen !== undefined && textAt(buf, i, tags.imageOpen)) {
      i = skipWhitespace(buf, i + tags.imageOpen.length, cursor);
      if (!textAt(buf, i, tags.imageLocOpen)) return undefined;
      const valueStart = i + tags.imageLocOpen.length;
      const valueEnd = buf.indexOf('<', valueStart);
      if (valueEnd - valueStart > maxValueLength || !textAt(buf, valueEnd, tags.imageLocClose)) return undefined;
      const loc = cleanUrl(buf, valueStart, valueEnd);
      if (loc === undefined) return undefined;
      extension = { kind: 'image', loc, at, locAt: { line: cursor.line, column: valueStart - cursor.lineStart + 1 } };
      i = skipWhitespace(buf, valueEnd + tags.imageLocClose.length, cursor);
      if (!textAt(buf, i, tags.imageClose)) return undefined;
      i += tags.imageClose.length;
    } else if (tags.linkOpen !== undefined && textAt(buf, i, tags.linkOpen)) {
      const hreflangStart = i + tags.linkOpen.length;
      const hreflangEnd = buf.indexOf('"', hreflangStart);
      if (hreflangEnd === -1 || !isPlainLanguageTag(buf, hreflangStart, hreflangEnd) || !textAt(buf, hreflangEnd, '" href="')) return undefined;
      const hrefStart = hreflangEnd + 8;
      const hrefEnd = buf.indexOf('"', hrefStart);
      const href = hrefEnd === -1 ? undefined : cleanUrl(buf, hrefStart, hrefEnd);
      if (href === undefined) return undefined;
      if (textAt(buf, hrefEnd + 1, '/>')) i = hrefEnd + 3;
      else if (textAt(buf, hrefEnd + 1, ' />')) i = hrefEnd + 4;
      else return undefined;
      extension = { kind: 'link', hreflang: buf.slice(hreflangStart, hreflangEnd), href, at };
    } else {
      return undefined;
    }
    extensions.push(extension);
    i = skipWhitespace(buf, i, cursor);
  }
  cursor.blockEnd = i + 6;
  return extensions;
}

/** A non-empty run of letters, digits, `-` and `_` (what hreflang values are made of; anything else takes the general path). */
function isPlainLanguageTag(buf: string, start: number, end: number): boolean {
  if (end === start) return false;
  for (let i = start; i < end; i++) {
    const c = buf.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f)) return false;
  }
  return true;
}

/** The field whose start tag is at `i`, when it is one that may come next; -1 otherwise. */
function childAt(buf: string, i: number, next: number): number {
  // Near the end of the text the block is cut anyway (and reading past the end would cost the optimised code).
  if (i + MAX_FIELD_TAG_LENGTH > buf.length || buf.charCodeAt(i) !== 0x3c /* < */) return -1;
  // Told apart by their first letters, then checked whole.
  let field: number;
  switch (buf.charCodeAt(i + 1)) {
    case 0x6c /* l */:
      field = buf.charCodeAt(i + 2) === 0x6f /* o */ ? Field.Loc : Field.Lastmod;
      break;
    case 0x63 /* c */:
      field = Field.Changefreq;
      break;
    case 0x70 /* p */:
      field = Field.Priority;
      break;
    default:
      return -1;
  }
  if (field < next) return -1;
  const name = FIELD_NAMES[field]!;
  return textAt(buf, i + 1, name) && buf.charCodeAt(i + 1 + name.length) === 0x3e /* > */ ? field : -1;
}

/** Whether `text` holds `expected` at `at` (a character loop: cheaper than startsWith for short names). */
function textAt(text: string, at: number, expected: string): boolean {
  if (at < 0 || at + expected.length > text.length) return false;
  for (let k = 0; k < expected.length; k++) if (text.charCodeAt(at + k) !== expected.charCodeAt(k)) return false;
  return true;
}

function isEndTag(buf: string, at: number, name: string): boolean {
  return at !== -1 && at + name.length + 3 <= buf.length && buf.charCodeAt(at + 1) === 0x2f /* / */ && textAt(buf, at + 2, name) && buf.charCodeAt(at + 2 + name.length) === 0x3e;
}

function buildEntry(
  values: (string | undefined)[],
  positions: (Position | undefined)[],
  extensions: PlainExtension[] | undefined,
  at: Position,
): LocatedEntry | undefined {
  const loc = values[Field.Loc];
  if (loc === undefined) return undefined;
  const entry: UrlEntry = { kind: 'url', loc };
  const fields: Record<string, Position> = { loc: positions[Field.Loc]! };
  const lastmod = values[Field.Lastmod];
  if (lastmod !== undefined) {
    if (!isValidW3cDate(lastmod)) return undefined;
    entry.lastmod = lastmod;
    fields['lastmod'] = positions[Field.Lastmod]!;
  }
  const changefreq = values[Field.Changefreq];
  if (changefreq !== undefined) {
    if (!isChangefreq(changefreq)) return undefined;
    entry.changefreq = changefreq;
    fields['changefreq'] = positions[Field.Changefreq]!;
  }
  const priorityText = values[Field.Priority];
  if (priorityText !== undefined) {
    const priority = plainPriority(priorityText);
    if (priority === undefined) return undefined;
    entry.priority = priority;
    fields['priority'] = positions[Field.Priority]!;
  }
  // In document order, as the general path records them.
  for (const extension of extensions ?? []) {
    if (extension.kind === 'image') {
      const images = (entry.images ??= []);
      fields[`images.${images.length}`] = extension.at;
      fields[`images.${images.length}.loc`] = extension.locAt;
      images.push({ loc: extension.loc });
    } else {
      const alternates = (entry.alternates ??= []);
      fields[`alternates.${alternates.length}`] = extension.at;
      alternates.push({ hreflang: extension.hreflang, href: extension.href });
    }
  }
  return { entry, location: { line: at.line, column: at.column, fields } };
}

/** Valid priorities seen lately, as numbers: a sitemap uses a handful of values throughout. */
const RECENT_PRIORITIES = new Map<string, number>();

/** The priority the general path would read from `text` without a word, or undefined. */
function plainPriority(text: string): number | undefined {
  const known = RECENT_PRIORITIES.get(text);
  if (known !== undefined) return known;
  const priority = PRIORITY.test(text) ? Number(text) : NaN;
  if (!(priority >= 0 && priority <= 1)) return undefined;
  if (RECENT_PRIORITIES.size >= 64) RECENT_PRIORITIES.clear();
  RECENT_PRIORITIES.set(text, priority);
  return priority;
}

/**
 * The URL the text between `start` and `end` holds, when the general path would take it without a
 * word: an absolute http(s) URL with nothing around it, only characters RFC 3986 allows unencoded,
 * every `%` followed by two hexadecimal digits, no reference but `&amp;`. Undefined otherwise.
 * Checked in place: a character loop over the document is cheaper than over a slice of it.
 */
function cleanUrl(buf: string, start: number, end: number): string | undefined {
  if (!textAt(buf, start, 'https://') && !textAt(buf, start, 'http://')) return undefined;
  let ampersands = false;
  for (let i = start; i < end; i++) {
    const c = buf.charCodeAt(i);
    if (c >= 0x80 || URL_CHARACTER[c] === 0) return undefined;
    if (c === 0x25 /* % */ && !(i + 2 < end && isHexDigit(buf.charCodeAt(i + 1)) && isHexDigit(buf.charCodeAt(i + 2)))) return undefined;
    if (c === 0x26 /* & */) {
      if (!textAt(buf, i + 1, 'amp;')) return undefined;
      ampersands = true;
      i += 4;
    }
  }
  const url = buf.slice(start, end);
  return ampersands ? url.replaceAll('&amp;', '&') : url;
}

/** 1 for the ASCII characters a URL may hold unencoded (RFC 3986), 0 for the others. */
const URL_CHARACTER = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) URL_CHARACTER[c] = '"<>\\^`{|}'.includes(String.fromCharCode(c)) ? 0 : 1;

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
