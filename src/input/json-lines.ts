/**
 * JSON Lines → entries, a chunk's worth at a time. Each line is one entry object in the shape of
 * DESIGN.md (`kind` may be left out); blank lines and `#` comments are skipped, as in text lists;
 * a line that is no JSON object is a problem with its line number. The fields are checked later,
 * by the writer.
 *
 * The hot path: a line written the way JSON.stringify writes such an entry, its fields in their
 * order, its strings without escapes,
 *
 *   {"kind":"url","loc":"…","lastmod":"…","changefreq":"…","priority":0.5}
 *
 * (each field optional but loc), is matched straight in the chunk's text by one sticky regular
 * expression, which gives the very values JSON.parse would: reading a line so takes a third of
 * JSON.parse's time, and no line is cut out of the text first. Any other line (another field,
 * another order, an escape, spaces) is read by JSON.parse. test/input/json-lines.test.ts holds
 * both readings to the same items.
 */
import { diagnostic, type Changefreq, type UrlEntry } from '../core/index.js';
import { decodeText, LineSplitter, MAX_LINE_LENGTH, type NumberedLine } from './lines.js';
import { NotUtf8Error } from './text-decoding.js';
import type { ReadItem } from './types.js';

/** A JSON string without escapes (JSON forbids raw control characters in strings anyway). */
const PLAIN_STRING = '"([^"\\\\\\u0000-\\u001f]*)"';
/** A JSON number, as JSON.parse reads it (Number() of the same text gives the same value). */
const NUMBER = '(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)';
const PLAIN_LINE = new RegExp(
  `\\{(?:"kind":"url",)?"loc":${PLAIN_STRING}(?:,"lastmod":${PLAIN_STRING})?(?:,"changefreq":${PLAIN_STRING})?(?:,"priority":${NUMBER})?\\}\\r?\\n`,
  'y',
);

export async function* readJsonLineBatches(
  chunks: AsyncIterable<Uint8Array | string>,
  source: string,
): AsyncGenerator<ReadItem[]> {
  const lines = new LineSplitter(MAX_LINE_LENGTH);
  try {
    for await (const piece of decodeText(chunks)) {
      const items = readPiece(piece, lines, source);
      if (items.length > 0) yield items;
    }
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const items = readPiece(error.text, lines, source);
    items.push(lineItem(lines.notUtf8(error), source)!);
    yield items;
    return;
  }
  const last = lines.rest();
  const item = last === undefined ? undefined : lineItem(last, source);
  if (item !== undefined) yield [item];
}

/**
 * The items of the lines that end in `piece`. A line begun in an earlier piece is completed by the
 * splitter; the lines wholly inside the piece are matched in place (the hot path), and the start
 * of the next is held.
 */
function readPiece(piece: string, lines: LineSplitter, source: string): ReadItem[] {
  const items: ReadItem[] = [];
  let at = 0;
  if (lines.pending) {
    const end = piece.indexOf('\n');
    if (end === -1) {
      lines.hold(piece, 0);
      return items;
    }
    const item = lineItem(lines.complete(piece, 0, end), source);
    if (item !== undefined) items.push(item);
    at = end + 1;
  }
  for (;;) {
    PLAIN_LINE.lastIndex = at;
    const match = PLAIN_LINE.exec(piece);
    if (match !== null) {
      items.push({ entry: plainEntry(match), source, line: ++lines.line });
      at = PLAIN_LINE.lastIndex;
      continue;
    }
    const end = piece.indexOf('\n', at);
    if (end === -1) break;
    const item = lineItem(lines.complete(piece, at, end), source);
    if (item !== undefined) items.push(item);
    at = end + 1;
  }
  lines.hold(piece, at);
  return items;
}

/** A line read by JSON.parse, or the problem the splitter found with it. */
function lineItem({ text, line, problem }: NumberedLine, source: string): ReadItem | undefined {
  if (problem !== undefined) return { problem: diagnostic('INPUT-001', problem, { source, line }) };
  return readJsonLine(text, source, line);
}

/** The entry of a line PLAIN_LINE matched: the fields JSON.parse would give, in the same order. */
function plainEntry(match: RegExpExecArray): UrlEntry {
  const entry: UrlEntry = { kind: 'url', loc: match[1]! };
  const [, , lastmod, changefreq, priority] = match;
  if (lastmod !== undefined) entry.lastmod = lastmod;
  // Any text here: the writer checks it (and says what is wrong with it), as it does a parsed one.
  if (changefreq !== undefined) entry.changefreq = changefreq as Changefreq;
  if (priority !== undefined) entry.priority = Number(priority);
  return entry;
}

/** One line read by JSON.parse: an entry, a problem, or nothing (a blank line, a comment). */
function readJsonLine(text: string, source: string, line: number): ReadItem | undefined {
  const trimmed = text.trimStart();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    return {
      problem: diagnostic('INPUT-001', `not valid JSON: ${(error as Error).message}`, {
        source,
        line,
        ...(position ? { column: Number(position[1]) + 1 } : {}),
      }),
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      problem: diagnostic('INPUT-001', 'each line must be one JSON object, such as {"loc":"https://example.com/"}', {
        source,
        line,
      }),
    };
  }
  const object = value as Record<string, unknown>;
  if (typeof object.loc !== 'string') {
    // Every reader downstream takes loc for a string: an entry without one is no entry.
    return {
      problem: diagnostic(
        'INPUT-001',
        `the entry has no "loc"${object.loc === undefined ? '' : ' string'}: each line needs one, such as {"loc":"https://example.com/"}`,
        { source, line },
      ),
    };
  }
  return { entry: ('kind' in object ? object : { kind: 'url', ...object }) as unknown as UrlEntry, source, line };
}
