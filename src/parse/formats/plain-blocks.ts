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
 * (the fields of fields.ts, each optional but loc, in their order, unprefixed, without attributes,
 * separated by whitespace only; then, in a `<url>`, any number of images and of alternates written
 * exactly so, under the prefixes the root binds to the image and XHTML namespaces; the expressions
 * are plain-patterns.ts). It takes a block only when the general path would report nothing about
 * it: anything else (another extension, a comment, CDATA, a reference other than `&amp;`, a value
 * the general path would repair or drop) ends the run, and the lexer reads that block the general
 * way; a block cut by the end of the text is waited for. test/parse/plain-blocks.test.ts holds
 * both paths to the same entries, positions and diagnostics.
 *
 * Positions cost more than the match itself, so they are worked out only when the reader asks
 * for them (`located()`); otherwise an entry carries where its block starts, which is enough to
 * place a diagnostic about it.
 */
import type { Changefreq, Image, SitemapRef, UrlEntry } from '../../core/entry.js';
import type { Position } from '../../core/position.js';
import type { EmittedEntry, EntryQueue } from '../emitted.js';
import type { LineIndex } from '../xml/line-index.js';
import { setField, type ValueKind } from './fields.js';
import { patternsFor, type PlainField, type PlainPatterns, type PlainShape } from './plain-patterns.js';
import { isValidW3cDate } from './values.js';
import { decimalNumber } from '../../core/rules/core-fields.js';

export interface PlainBlockOptions {
  maxValueLength: number;
  /** Whether entries carry the positions of their fields (`located()`), or only where their block starts. */
  positions: boolean;
}

/** Where a run of plain blocks ended, and what the text holds there. */
export interface PlainRun {
  /** Just past the last block read and the whitespace after it (where the run was to start, when none was read). */
  end: number;
  /** For the lexer: what follows is read the general way; or wait: a block is cut by the end of the text. */
  next: 'general' | 'wait';
}

/** Extension elements in a block: more than this and the general path reads it (it limits the nodes of a block). */
const MAX_PLAIN_EXTENSIONS = 1_000;

/** The longest cut block worth waiting for (longer ones are read the general way, which holds less). */
const MAX_CUT_BLOCK = 64 * 1024;

/** Reads the runs of plain blocks of one document, emitting an entry for each. */
export class PlainBlockReader {
  private readonly patterns: PlainPatterns;
  private readonly startTag: string;
  private readonly endTag: string;
  /** The text being read, and the document offset of its first character. */
  private text = '';
  private base = 0;

  constructor(
    private readonly shape: PlainShape,
    private readonly options: PlainBlockOptions,
    private readonly lines: LineIndex,
    private readonly out: EntryQueue,
  ) {
    this.patterns = patternsFor(shape);
    this.startTag = `<${shape.element}>`;
    this.endTag = `</${shape.element}>`;
  }

  /**
   * Reads the run of plain blocks at `start` of `text` (whose first character is at document
   * offset `base`). A block cut by the end of the text is worth waiting for (the general path
   * would read it several times slower), unless the input is `final`.
   */
  read(text: string, start: number, base: number, final: boolean): PlainRun {
    this.text = text;
    this.base = base;
    const { block } = this.patterns;
    let end = start;
    // Where the next `&` is: blocks before it hold no `&amp;` to decode (most blocks hold none).
    let ampersand = -1;
    block.lastIndex = skipSpace(text, start);
    for (let match = block.exec(text); match !== null; match = block.exec(text)) {
      const next = block.lastIndex;
      if (ampersand < match.index) {
        const found = text.indexOf('&', match.index);
        // The text's length for none: kept a small integer, which V8's compiled loop assumes.
        ampersand = found === -1 ? text.length : found;
      }
      const emitted = this.entry(match, next, ampersand < next);
      if (emitted === undefined) break;
      this.out.emit(emitted);
      end = next;
      block.lastIndex = next;
    }
    // Whitespace between blocks says nothing: a wait starts past it, so the lexer lets it go. (Held,
    // it would be scanned again at every chunk: a gzip bomb of spaces made that quadratic.)
    const next = skipSpace(text, end);
    return !final && this.isCut(next) ? { end: next, next: 'wait' } : { end, next: 'general' };
  }

  /** Whether what the text holds at `from` is a block, or its start tag, cut by the end of the text. */
  private isCut(from: number): boolean {
    const text = this.text;
    if (text.length - from < this.startTag.length) return this.startTag.startsWith(text.slice(from));
    return (
      text.startsWith(this.startTag, from) &&
      text.length - from < MAX_CUT_BLOCK &&
      text.indexOf(this.endTag, from) === -1
    );
  }

  /**
   * The entry of one matched block (`ampersands`: whether the block holds any `&`); undefined
   * when a value is one the general path would not take silently.
   */
  private entry(match: RegExpExecArray, blockEnd: number, ampersands: boolean): EmittedEntry | undefined {
    const { fields, extensions: run } = this.patterns;
    const entry: UrlEntry | SitemapRef = { kind: this.shape.element, loc: '' };
    const start = match.index;
    // Positions in document order: the block, its fields, then its extension elements.
    const at = this.options.positions ? this.at(start) : undefined;
    const positions: Record<string, Position> | undefined = at && {};
    if (!this.readFields(match, fields, entry, ampersands)) return undefined;
    if (positions !== undefined) this.locateFields(match, fields, start, positions, '');
    const extensions = run === undefined ? undefined : match[run];
    if (extensions) {
      // They end where the end tag starts, before the whitespace the match took after it.
      const to = this.text.lastIndexOf(this.endTag, blockEnd);
      if (!this.readExtensions(to - extensions.length, to, entry as UrlEntry, positions)) return undefined;
    }
    if (at === undefined) return { entry, offset: this.base + start };
    return { entry, location: { line: at.line, column: at.column, fields: positions! } };
  }

  /**
   * Sets the values `fields` match on `target`; false when a value is one the general path would
   * not take silently.
   */
  private readFields(
    match: RegExpExecArray,
    fields: readonly PlainField[],
    target: UrlEntry | SitemapRef | Image,
    ampersands: boolean,
  ): boolean {
    for (const field of fields) {
      const raw = match[field.group];
      if (raw === undefined) continue;
      const value = this.value(field.kind, raw, ampersands);
      if (value === undefined) return false;
      setField(target, field.property, value);
    }
    return true;
  }

  /**
   * Records where the values `fields` match start, from `from` on, into `positions` (under
   * `path`), as the general path records them: each just past its start tag, after the value
   * before it (the match has proved the order; finding them so is cheaper than having the
   * expression record them, as its `d` flag makes every match several times slower).
   */
  private locateFields(
    match: RegExpExecArray,
    fields: readonly PlainField[],
    from: number,
    positions: Record<string, Position>,
    path: string,
  ): void {
    let after = from;
    for (const field of fields) {
      const raw = match[field.group];
      if (raw === undefined) continue;
      const valueStart = this.text.indexOf(field.startTag, after) + field.startTag.length;
      positions[path + field.property] = this.at(valueStart);
      after = valueStart + raw.length;
    }
  }

  /**
   * The images and alternates between `from` and `to` added to `entry` (and their positions to
   * `positions`, when given, as the general path records them); false when there are too many,
   * or a value is too long or blank, for the fast path.
   */
  private readExtensions(
    from: number,
    to: number,
    entry: UrlEntry,
    positions: Record<string, Position> | undefined,
  ): boolean {
    const { extension, imageFields, alternate } = this.patterns;
    const text = this.text;
    let count = 0;
    for (let i = from; (i = skipSpace(text, i)) < to; i = extension.lastIndex) {
      if (++count > MAX_PLAIN_EXTENSIONS) return false;
      extension.lastIndex = i;
      // The block's expression matched these very elements: this one matches too.
      const match = extension.exec(text)!;
      if (alternate === undefined || match[alternate.href] === undefined) {
        const images = (entry.images ??= []);
        const image: Image = { loc: '' };
        if (!this.readFields(match, imageFields, image, true)) return false;
        if (positions !== undefined) {
          const path = `images.${images.length}`;
          positions[path] = this.at(i);
          this.locateFields(match, imageFields, i, positions, `${path}.`);
        }
        images.push(image);
      } else {
        const href = this.value('url', match[alternate.href]!, true);
        if (href === undefined) return false;
        const alternates = (entry.alternates ??= []);
        if (positions !== undefined) positions[`alternates.${alternates.length}`] = this.at(i);
        alternates.push({ hreflang: match[alternate.hreflang]!, href: href as string });
      }
    }
    return true;
  }

  /**
   * A value as the entry holds it; undefined when the general path would say something about it
   * (too long, blank once trimmed, a day the month lacks).
   */
  private value(kind: ValueKind, raw: string, ampersands: boolean): string | number | undefined {
    if (raw.length > this.options.maxValueLength) return undefined;
    switch (kind) {
      case 'url':
        return ampersands ? decodeAmpersands(raw) : raw;
      case 'text': {
        // Trimmed, as the general path does; left blank, it is reported there.
        const value = decodeAmpersands(raw).trim();
        return value === '' ? undefined : value;
      }
      case 'date':
        return isPastDay28(raw) && !isValidW3cDate(raw) ? undefined : raw;
      case 'changefreq':
        return changefreqNamed(raw);
      case 'priority':
        return decimalNumber(raw);
    }
  }

  /** The line and column of `text[index]`. */
  private at(index: number): Position {
    return this.lines.positionOf(this.base + index);
  }
}

/**
 * The changefreq the pattern matched (one of CHANGEFREQS), as the constant string of its name
 * rather than a slice of the text: writers then find it in their tables without reading it.
 */
function changefreqNamed(raw: string): Changefreq {
  switch (raw.charCodeAt(0)) {
    case 0x61 /* a */:
      return 'always';
    case 0x68 /* h */:
      return 'hourly';
    case 0x64 /* d */:
      return 'daily';
    case 0x77 /* w */:
      return 'weekly';
    case 0x6d /* m */:
      return 'monthly';
    case 0x79 /* y */:
      return 'yearly';
    default:
      return 'never';
  }
}

/** (A global expression: replaceAll with a string took twice as long.) */
function decodeAmpersands(url: string): string {
  return url.indexOf('&') === -1 ? url : url.replace(AMPERSAND_REFERENCE, '&');
}

const AMPERSAND_REFERENCE = /&amp;/g;

/** Past the spaces, tabs and line breaks at `i`. */
function skipSpace(text: string, i: number): number {
  // The indentation between blocks is short: a loop skips it faster than a regular expression
  // starts. A long run (a gzip bomb of spaces) is left to the expression, three times faster per
  // character.
  const loopEnd = Math.min(text.length, i + SPACE_LOOP_CHARS);
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = text.charCodeAt(++i))
    if (i === loopEnd) return nextNonSpace(text, i);
  return i;
}

const SPACE_LOOP_CHARS = 64;
const NON_SPACE = /[^ \n\t\r]/g;

function nextNonSpace(text: string, i: number): number {
  NON_SPACE.lastIndex = i;
  return NON_SPACE.exec(text)?.index ?? text.length;
}

/** Whether a date matched by W3C_DATE_IN_RANGE has a day that some months lack (29, 30, 31). */
function isPastDay28(date: string): boolean {
  if (date.length < 10) return false;
  const tens = date.charCodeAt(8);
  return tens === 0x33 /* 3 */ || (tens === 0x32 /* 2 */ && date.charCodeAt(9) === 0x39); /* 9 */
}
