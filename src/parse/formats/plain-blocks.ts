/**
 * The hot path of a urlset or an index: `<url>` and `<sitemap>` blocks of the common shape matched
 * straight in the text, one sticky regular expression per block (V8 compiles it to machine code,
 * which scans a URL several times faster than a character loop in JavaScript), a whole run of
 * consecutive blocks at a time:
 *
 *   <url><loc>…</loc><lastmod>…</lastmod><changefreq>…</changefreq><priority>…</priority>
 *        <image:image><image:loc>…</image:loc><image:caption>…</image:caption>…</image:image>…
 *        <xhtml:link rel="alternate" hreflang="…" href="…"/>…</url>
 *   <sitemap><loc>…</loc><lastmod>…</lastmod></sitemap>
 *
 * (each child optional but loc, in this order, unprefixed, without attributes, separated by
 * whitespace only; then, in a `<url>`, any number of images (their loc, then optionally
 * caption, geo_location, title and license, in the schema's order) and of alternates written
 * exactly so, under the prefixes the root binds to the image and XHTML namespaces). It takes a block only when the general path would report nothing about it:
 * anything else (another extension, a comment, CDATA, a reference other than `&amp;`, a value
 * the general path would repair or drop) ends the run, and the tokenizer reads that block the
 * general way, from its start tag; a block cut by the end of the text is waited for.
 * test/parse/plain-blocks.test.ts holds both paths to the same entries, positions and diagnostics.
 *
 * Positions cost more than the match itself, so they are worked out only when the reader asks
 * for them (`located()`); otherwise an entry carries where its block starts, which is enough to
 * place a diagnostic about it.
 */
import { W3C_DATE_IN_RANGE } from '../../core/datetime.js';
import { CHANGEFREQS, type Changefreq, type Image, type SitemapRef, type UrlEntry } from '../../core/entry.js';
import type { EmittedEntry, EntryQueue } from '../emitted.js';
import type { Position } from '../../core/position.js';
import { ELEMENT_CUT, type TextPositions } from '../xml/tokenizer.js';
import { isValidW3cDate } from './values.js';

/** The blocks read this way: a urlset's `<url>`, an index's `<sitemap>`. */
export type PlainElement = 'url' | 'sitemap';

export interface PlainBlockOptions {
  maxValueLength: number;
  /** The prefix the root binds to the image namespace, when it binds one. */
  imagePrefix: string | undefined;
  /** The prefix the root binds to the XHTML namespace (for `xhtml:link` alternates), when it binds one. */
  xhtmlPrefix: string | undefined;
  /** Whether entries carry the positions of their fields (`located()`), or only where their block starts. */
  positions: boolean;
}

const SPACE = '[ \\t\\r\\n]*';
/** The ASCII characters a URL may hold unencoded (RFC 3986) but `%` and `&`, which are matched apart. */
const URL_CHARACTER = "[!#$'-;=?-\\[\\]_a-z~]";
/**
 * A URL the general path takes without a word: absolute http(s), nothing around it, every `%`
 * followed by two hexadecimal digits, no reference but `&amp;` (written as an unrolled loop, so
 * that the engine never backtracks).
 */
const CLEAN_URL = `https?://${URL_CHARACTER}*(?:(?:%[0-9A-Fa-f]{2}|&amp;)${URL_CHARACTER}*)*`;
/** hreflang values made of letters, digits, `-` and `_` (anything else takes the general path). */
const PLAIN_LANGUAGE_TAG = '[A-Za-z0-9_-]+';
/**
 * Text the general path reads as it stands (after trimming): no markup, no reference but `&amp;`,
 * no control character but tab and line feed (a carriage return is normalised away by XML).
 */
const PLAIN_TEXT = String.raw`(?:[^<&\x00-\x08\x0b-\x1f\ufffe\uffff]|&amp;)+`;
/** Decimal numbers from 0 to 1 as the general path reads them (`1`, `0.5`, `.5`, `1.0`, `+0.3` …). */
const PRIORITY_IN_RANGE = String.raw`\+?(?:0*1(?:\.0*)?|0*\.\d+|0+(?:\.\d*)?)`;

/** The two expressions for one shape of block: a whole block, and one extension element in it. */
interface PlainPatterns {
  /**
   * Groups: 1 loc, 2 lastmod, 3 changefreq, 4 priority, 5 the extension elements (possibly '').
   * Values are matched valid (a lastmod's day past 28 is checked apart); an invalid one fails the
   * match, and the general path reads that block and reports it.
   */
  block: RegExp;
  /**
   * Groups: 1 an image's loc, 2 caption, 3 geo_location, 4 title, 5 license; or 6 hreflang and
   * 7 href of an alternate.
   */
  extension: RegExp;
  /** The start tags of an image's optional children, to place their values (undefined without images). */
  imageTags: ImageTags | undefined;
}

/** Start tags of the optional children of an image, under the document's prefix. */
type ImageTags = Record<'caption' | 'geoLocation' | 'title' | 'license', string>;

const patternsByShape = new Map<string, PlainPatterns>();

function patternsFor(element: PlainElement, options: PlainBlockOptions): PlainPatterns {
  const key = element === 'url' ? `url ${options.imagePrefix} ${options.xhtmlPrefix}` : element;
  let patterns = patternsByShape.get(key);
  if (patterns === undefined) {
    const sources =
      element === 'url' ? urlPatternSources(options.imagePrefix, options.xhtmlPrefix) : SITEMAP_PATTERN_SOURCES;
    const imageTags =
      element === 'url' && options.imagePrefix !== undefined ? imageTagsFor(options.imagePrefix) : undefined;
    patterns = { block: new RegExp(sources.block, 'y'), extension: new RegExp(sources.extension, 'y'), imageTags };
    patternsByShape.set(key, patterns);
  }
  return patterns;
}

/** How both kinds of block start: the start tag, the loc (group 1) and a lastmod (group 2). */
function blockHead(element: PlainElement): string {
  return `${SPACE}<${element}>${SPACE}<loc>(${CLEAN_URL})</loc>${SPACE}(?:<lastmod>(${W3C_DATE_IN_RANGE})</lastmod>${SPACE})?`;
}

/**
 * An index's `<sitemap>`: the groups of a `<url>`, with those of changefreq and priority never
 * taking part (the `(?!)` fails) and no extensions.
 */
const SITEMAP_PATTERN_SOURCES = {
  block: `${blockHead('sitemap')}(?:(?!)()())?()</sitemap>`,
  extension: '(?!)',
};

function imageTagsFor(prefix: string): ImageTags {
  return {
    caption: `<${prefix}:caption>`,
    geoLocation: `<${prefix}:geo_location>`,
    title: `<${prefix}:title>`,
    license: `<${prefix}:license>`,
  };
}

function urlPatternSources(
  imagePrefix: string | undefined,
  xhtmlPrefix: string | undefined,
): { block: string; extension: string } {
  /** An image; `group` wraps each value in a capturing group or not. */
  const image = (group: (value: string) => string) => {
    const p = escapePrefix(imagePrefix!);
    const optional = (tag: string, value: string) => `(?:<${p}:${tag}>${group(value)}</${p}:${tag}>${SPACE})?`;
    return (
      `<${p}:image>${SPACE}<${p}:loc>${group(CLEAN_URL)}</${p}:loc>${SPACE}` +
      optional('caption', PLAIN_TEXT) +
      optional('geo_location', PLAIN_TEXT) +
      optional('title', PLAIN_TEXT) +
      optional('license', CLEAN_URL) +
      `</${p}:image>`
    );
  };
  const link = (hreflang: string, href: string) =>
    `<${escapePrefix(xhtmlPrefix!)}:link rel="alternate" hreflang="${hreflang}" href="${href}" ?/>`;
  const bare: string[] = [];
  const captured: string[] = [];
  if (imagePrefix !== undefined) {
    bare.push(image((value) => value));
    captured.push(image((value) => `(${value})`));
  } else {
    captured.push('(?!)()()()()()'); // keeps the group numbers of an alternate the same
  }
  if (xhtmlPrefix !== undefined) {
    bare.push(link(PLAIN_LANGUAGE_TAG, CLEAN_URL));
    captured.push(link(`(${PLAIN_LANGUAGE_TAG})`, `(${CLEAN_URL})`));
  }
  const extensions = bare.length === 0 ? '()' : `((?:(?:${bare.join('|')})${SPACE})*)`;
  return {
    block:
      blockHead('url') +
      `(?:<changefreq>(${CHANGEFREQS.join('|')})</changefreq>${SPACE})?` +
      `(?:<priority>(${PRIORITY_IN_RANGE})</priority>${SPACE})?` +
      `${extensions}</url>`,
    extension: `(?:${captured.join('|')})`,
  };
}

/** A prefix as literal text in an expression (a lenient reader may hand on any characters). */
function escapePrefix(prefix: string): string {
  return prefix.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Extension elements in a block: more than this and the general path reads it (it limits the nodes of a block). */
const MAX_PLAIN_EXTENSIONS = 1_000;

/**
 * Reads the run of plain blocks that starts with the `<url>` or `<sitemap>` at `blockStart`,
 * emitting an entry for each. Returns where the last block read ends (just past its end tag),
 * or, when the first is not plain, ELEMENT_CUT if it is cut by the end of the text (a common
 * block's end is worth waiting for: the general path would read it several times slower) and
 * -1 otherwise. `text` places offsets of `buf`; it is asked in increasing order.
 */
export function readPlainBlocks(
  element: PlainElement,
  buf: string,
  blockStart: number,
  text: TextPositions,
  options: PlainBlockOptions,
  out: EntryQueue,
): number {
  const patterns = patternsFor(element, options);
  const { block } = patterns;
  let end = -1;
  // Where the next `&` is: blocks before it hold no `&amp;` to decode (most blocks hold none).
  let ampersand = -1;
  const base = text.offset(0);
  block.lastIndex = blockStart;
  for (let match = block.exec(buf); match !== null; match = block.exec(buf)) {
    const next = block.lastIndex;
    if (ampersand < match.index) {
      const found = buf.indexOf('&', match.index);
      // The text's length for none: kept a small integer, which V8's compiled loop assumes.
      ampersand = found === -1 ? buf.length : found;
    }
    const emitted = plainEntry(element, buf, match, next, ampersand < next, base, text, options, patterns);
    if (emitted === undefined) break;
    out.emit(emitted);
    end = next;
    block.lastIndex = next;
  }
  if (end === -1 && buf.length - blockStart < MAX_CUT_BLOCK && buf.indexOf(`</${element}>`, blockStart) === -1)
    return ELEMENT_CUT;
  return end;
}

/** The longest cut block worth waiting for (longer ones are read the general way, which holds less). */
const MAX_CUT_BLOCK = 64 * 1024;

/**
 * The entry of one matched block (`ampersands`: whether the block holds any `&`; `base`: the
 * document offset of `buf`); undefined when a value is one the general path would not take silently.
 */
function plainEntry(
  element: PlainElement,
  buf: string,
  match: RegExpExecArray,
  blockEnd: number,
  ampersands: boolean,
  base: number,
  text: TextPositions,
  options: PlainBlockOptions,
  patterns: PlainPatterns,
): EmittedEntry | undefined {
  const rawLoc = match[1]!;
  const lastmod = match[2];
  const changefreq = match[3];
  const priorityText = match[4];
  const extensions = match[5]!;
  if (rawLoc.length > options.maxValueLength) return undefined;
  const loc = ampersands ? decodeAmpersands(rawLoc) : rawLoc;
  const entry: UrlEntry | SitemapRef = element === 'url' ? { kind: 'url', loc } : { kind: 'sitemap', loc };
  if (lastmod !== undefined) {
    if (isPastDay28(lastmod) && !isValidW3cDate(lastmod)) return undefined;
    entry.lastmod = lastmod;
  }
  if (entry.kind === 'url') {
    if (changefreq !== undefined) entry.changefreq = changefreq as Changefreq;
    if (priorityText !== undefined) entry.priority = Number(priorityText);
  }
  const start = skipSpace(buf, match.index);
  // Extensions end where the end tag starts (only a `<url>` has them).
  const extensionsEnd = blockEnd - element.length - 3;
  const extensionsStart = extensionsEnd - extensions.length;
  if (!options.positions) {
    if (
      extensions !== '' &&
      !readExtensions(buf, extensionsStart, extensionsEnd, entry as UrlEntry, undefined, text, options, patterns)
    )
      return undefined;
    return { entry, offset: base + start };
  }
  // Positions in document order: the block, its fields, then its extension elements. Each value
  // starts just past its start tag, the first one after the value before it (the match has
  // proved the order); finding them so is cheaper than having the expression record them.
  const at = text.at(start);
  let valueStart = buf.indexOf('<loc>', start) + 5;
  const fields: Record<string, Position> = { loc: text.at(valueStart) };
  let valueEnd = valueStart + rawLoc.length;
  if (lastmod !== undefined) {
    valueStart = buf.indexOf('<lastmod>', valueEnd) + 9;
    fields.lastmod = text.at(valueStart);
    valueEnd = valueStart + lastmod.length;
  }
  if (changefreq !== undefined) {
    valueStart = buf.indexOf('<changefreq>', valueEnd) + 12;
    fields.changefreq = text.at(valueStart);
    valueEnd = valueStart + changefreq.length;
  }
  if (priorityText !== undefined) fields.priority = text.at(buf.indexOf('<priority>', valueEnd) + 10);
  if (
    extensions !== '' &&
    !readExtensions(buf, extensionsStart, extensionsEnd, entry as UrlEntry, fields, text, options, patterns)
  )
    return undefined;
  return { entry, location: { line: at.line, column: at.column, fields } };
}

/**
 * The images and alternates between `from` and `to` added to `entry` (and their positions to
 * `fields`, when given, as the general path records them); false when there are too many, or a
 * value is too long or blank, for the fast path.
 */
function readExtensions(
  buf: string,
  from: number,
  to: number,
  entry: UrlEntry,
  fields: Record<string, Position> | undefined,
  text: TextPositions,
  options: PlainBlockOptions,
  patterns: PlainPatterns,
): boolean {
  const { extension } = patterns;
  let count = 0;
  for (let i = from; (i = skipSpace(buf, i)) < to; i = extension.lastIndex) {
    if (++count > MAX_PLAIN_EXTENSIONS) return false;
    extension.lastIndex = i;
    // The block's expression matched these very elements: this one matches too.
    const match = extension.exec(buf)!;
    if (match[1] !== undefined) {
      const images = (entry.images ??= []);
      const image = plainImage(match, buf, i, fields, images.length, text, options, patterns.imageTags!);
      if (image === undefined) return false;
      images.push(image);
    } else {
      const href = match[7]!;
      if (href.length > options.maxValueLength) return false;
      const alternates = (entry.alternates ??= []);
      if (fields !== undefined) fields[`alternates.${alternates.length}`] = text.at(i);
      alternates.push({ hreflang: match[6]!, href: decodeAmpersands(href) });
    }
  }
  return true;
}

/**
 * The image matched at `at` (groups 1 to 5 of the extension expression), the entry's `index`-th,
 * its positions recorded when `fields` is given; undefined when a value is too long or blank for
 * the fast path.
 */
function plainImage(
  match: RegExpExecArray,
  buf: string,
  at: number,
  fields: Record<string, Position> | undefined,
  index: number,
  text: TextPositions,
  options: PlainBlockOptions,
  tags: ImageTags,
): Image | undefined {
  const rawLoc = match[1]!;
  if (rawLoc.length > options.maxValueLength) return undefined;
  const image: Image = { loc: decodeAmpersands(rawLoc) };
  const path = fields === undefined ? '' : `images.${index}`;
  if (fields !== undefined) {
    fields[path] = text.at(at);
    // The loc value starts past the first `:loc>` in the image (`<image:image> <image:loc>`).
    fields[`${path}.loc`] = text.at(buf.indexOf(':loc>', at) + 5);
  }
  // In the order the general path records them; each value starts just past its start tag.
  let after = at;
  for (const [field, group] of IMAGE_TEXT_FIELDS) {
    const raw = match[group];
    if (raw === undefined) continue;
    if (raw.length > options.maxValueLength) return undefined;
    // Text is trimmed, as the general path does; left blank, it is reported there.
    const value = field === 'license' ? decodeAmpersands(raw) : decodeAmpersands(raw).trim();
    if (value === '') return undefined;
    image[field] = value;
    if (fields !== undefined) {
      after = buf.indexOf(tags[field], after) + tags[field].length;
      fields[`${path}.${field}`] = text.at(after);
    }
  }
  return image;
}

/** An image's optional values, in document order, with their group in the extension expression. */
const IMAGE_TEXT_FIELDS = [
  ['caption', 2],
  ['geoLocation', 3],
  ['title', 4],
  ['license', 5],
] as const;

function decodeAmpersands(url: string): string {
  return url.includes('&') ? url.replaceAll('&amp;', '&') : url;
}

/** Past the spaces, tabs and line breaks at `i`. */
function skipSpace(buf: string, i: number): number {
  for (let c = buf.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = buf.charCodeAt(++i));
  return i;
}

/** Whether a date matched by W3C_DATE_IN_RANGE has a day that some months lack (29, 30, 31). */
function isPastDay28(date: string): boolean {
  if (date.length < 10) return false;
  const tens = date.charCodeAt(8);
  return tens === 0x33 /* 3 */ || (tens === 0x32 /* 2 */ && date.charCodeAt(9) === 0x39); /* 9 */
}
