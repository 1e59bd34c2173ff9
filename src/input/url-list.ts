/**
 * URL lists → entries: text (one URL per line), JSON Lines (one entry object per line, the
 * shape of docs/architecture.md), CSV (a header row; columns loc, lastmod, changefreq, priority), from a
 * file or standard input. Lines that cannot be read become problems with their line number;
 * the entries themselves are checked later, by the writer.
 */
import { Readable } from 'node:stream';
import type { CsvError } from 'csv-parse';
import { batches } from '../core/batches.js';
import { diagnostic, looksAbsoluteHttp, type Diagnostic, type UrlEntry } from '../core/index.js';
import { readFileText } from './file-text.js';
import { readJsonLineBatches } from './json-lines.js';
import { decodeText, readLineBatches, type LineLimit } from './lines.js';
import { NotUtf8Error } from './text-decoding.js';
import { formatFromContent, formatFromPath } from './sniff.js';
import type { ReadItem, UrlListFormat } from './types.js';

/**
 * How {@link readUrlList} reads: the format (else told from the name or content), and the stream
 * `-` means.
 */
export interface ReadUrlListOptions {
  /** The format; otherwise from the file extension, or sniffed from the first line. */
  format?: UrlListFormat;
  /** Standard input, read when the path is "-" (default process.stdin). */
  stdin?: NodeJS.ReadableStream;
}

/** Name used in problems for standard input: "-", as the command line writes it (and as validate names it). */
export const STDIN_SOURCE = '-';

/**
 * Reads a URL list (txt, jsonl or csv; `-` for standard input) as entries, each with its line; a
 * line that cannot be read is yielded as a problem, and reading goes on.
 */
export async function* readUrlList(path: string, options: ReadUrlListOptions = {}): AsyncGenerator<ReadItem> {
  for await (const items of readUrlListBatches(path, options)) yield* items;
}

/** The same items, a chunk's worth at a time (no promise per line: the generator's hot path). */
export async function* readUrlListBatches(path: string, options: ReadUrlListOptions = {}): AsyncGenerator<ReadItem[]> {
  const fromStdin = path === '-';
  const source = fromStdin ? STDIN_SOURCE : path;
  const stream = fromStdin ? decodeText(options.stdin ?? process.stdin) : readFileText(path);
  const chunks = stream[Symbol.asyncIterator]();
  // The first chunk is read ahead to sniff the format, then handed on with the rest; bytes that
  // are not UTF-8 in it are reported by the reader of the format, at their line.
  let first: IteratorResult<string> = { done: true, value: undefined };
  let notUtf8: NotUtf8Error | undefined;
  try {
    first = await chunks.next();
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    notUtf8 = error;
  }
  const head = notUtf8?.text ?? (first.done ? '' : first.value);
  const format = options.format ?? (fromStdin ? undefined : formatFromPath(path)) ?? formatFromContent(head);
  const all = (async function* () {
    if (notUtf8 !== undefined) throw notUtf8;
    if (!first.done) yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  })();
  if (format === 'csv') yield* batches(readCsv(all, source), 1024);
  else if (format === 'jsonl') yield* readJsonLineBatches(all, source);
  else yield* readTextLines(all, source);
}

/** A text list's line limit: far above any URL a sitemap may hold (2,048 characters). */
const TEXT_LINE_LIMIT: LineLimit = {
  maxLength: 64 * 1024,
  hint: 'too long to be a URL (a sitemap holds URLs of fewer than 2,048): a text list holds one URL per line',
};

async function* readTextLines(chunks: AsyncIterable<string>, source: string): AsyncGenerator<ReadItem[]> {
  let first = true;
  for await (const lines of readLineBatches(chunks, TEXT_LINE_LIMIT)) {
    const items: ReadItem[] = [];
    for (const { text, line, problem } of lines) {
      if (problem !== undefined) {
        items.push({ problem: diagnostic('INPUT-001', problem, { source, line }) });
        continue;
      }
      const loc = text.trim();
      if (loc === '' || loc.startsWith('#')) continue;
      if (first && formatFromContent(loc) === 'csv') {
        // Every line after a CSV header would be read as a URL with its other cells in it.
        items.push({ problem: csvHeaderInText(loc, source, line) });
        yield items;
        return;
      }
      first = false;
      const junk = notOneUrl(loc);
      items.push(
        junk === undefined
          ? { entry: { kind: 'url', loc }, source, line }
          : textLineProblem(junk, text, loc, source, line),
      );
    }
    if (items.length > 0) yield items;
  }
}

/**
 * Why a text list's line (trimmed) cannot be one URL, or undefined. URLs are written as they are
 * (a space in one is encoded by the writer) but for these, which no URL holds: whitespace between
 * words (several values, or a sentence) and a backslash (an escape such as \u00e9 copied from
 * JSON or code, which a URL parser would turn into "/u00e9").
 */
function notOneUrl(loc: string): { at: number; message: string } | undefined {
  const space = loc.search(/\s/);
  if (space !== -1)
    return {
      at: space,
      message: `"${shorten(loc)}" is not one URL: it holds whitespace (a text list holds one URL per line; write a space in a URL as %20)`,
    };
  const backslash = loc.indexOf('\\');
  if (backslash !== -1)
    return {
      at: backslash,
      message: `"${shorten(loc)}" holds a backslash, which no URL has (write an escape such as \\u00e9 as the character itself or as %C3%A9)`,
    };
  return undefined;
}

function textLineProblem(
  junk: { at: number; message: string },
  text: string,
  loc: string,
  source: string,
  line: number,
): ReadItem {
  const column = text.indexOf(loc) + junk.at + 1;
  return { problem: diagnostic('INPUT-001', junk.message, { source, line, column }) };
}

function csvHeaderInText(loc: string, source: string, line: number): Diagnostic {
  return diagnostic(
    'INPUT-001',
    `"${shorten(loc)}" is a CSV header, not a URL: read the list as CSV (name it .csv, or --input-format csv); nothing of it was read`,
    { source, line },
  );
}

/** A value as a message quotes it: at most 80 characters, the middle left out. */
function shorten(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 50)}…${text.slice(-29)}`;
}

const CSV_COLUMNS = ['loc', 'lastmod', 'changefreq', 'priority'];

interface CsvRecord {
  record: Record<string, string>;
  info: { lines: number; columns: { name: string }[]; error?: { record?: unknown[] } };
}

/** A CSV row's limit, in characters: a loc, a lastmod, a changefreq and a priority fit many times over. */
const CSV_ROW_LIMIT = 64 * 1024;

async function* readCsv(chunks: AsyncIterable<string>, source: string): AsyncGenerator<ReadItem> {
  // Loaded when a CSV is read: JSONL and text lists start without it.
  const { parse: parseCsv } = await import('csv-parse');
  let header: string[] | undefined;
  // Bytes that are not UTF-8 end the text given to the parser; they are reported at their line.
  let notUtf8: { error: NotUtf8Error; line: number } | undefined;
  const text = (async function* () {
    let lines = 1;
    try {
      for await (const chunk of chunks) {
        lines += countLineEnds(chunk);
        yield chunk;
      }
    } catch (error) {
      if (!(error instanceof NotUtf8Error)) throw error;
      notUtf8 = { error, line: lines + countLineEnds(error.text) };
      yield error.text;
    }
  })();
  const parser = Readable.from(text).pipe(
    parseCsv({
      bom: true,
      columns: (cells: string[]) => {
        header = cells;
        return cells.map((name) => {
          const column = name.trim().toLowerCase();
          return column === 'url' ? 'loc' : column;
        });
      },
      info: true,
      max_record_size: CSV_ROW_LIMIT,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }),
  );
  let checkedHeader = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<CsvRecord>) {
      if (!checkedHeader) {
        const names = info.columns.map((column) => column.name);
        const problem = headerProblem(names, source);
        if (problem !== undefined) {
          yield { problem };
          if (problem.severity === 'error') return;
        }
        checkedHeader = true;
      }
      // With relax_column_count the parser keeps going and notes an uneven row in info.error.
      if ((info.error?.record?.length ?? 0) > info.columns.length) {
        yield {
          problem: diagnostic('INPUT-001', `the row has more fields than the header (${info.columns.length})`, {
            source,
            line: info.lines,
          }),
        };
        continue;
      }
      // The row the bad bytes cut is not read.
      if (notUtf8 !== undefined && info.lines >= notUtf8.line) break;
      yield { entry: csvEntry(record), source, line: info.lines };
    }
  } catch (error) {
    const line = Number((error as CsvError).lines);
    yield {
      problem: diagnostic('INPUT-001', `CSV cannot be read further: ${(error as Error).message}`, {
        source,
        ...(line > 0 ? { line } : {}),
      }),
    };
    return;
  }
  if (notUtf8 !== undefined) {
    yield { problem: diagnostic('INPUT-001', notUtf8.error.message, { source, line: notUtf8.line }) };
    return;
  }
  // A list of one row has a header and no record: a header without loc is still said to be one.
  if (!checkedHeader && header !== undefined) {
    const problem = headerProblem(
      header.map((name) => (name.trim().toLowerCase() === 'url' ? 'loc' : name.trim().toLowerCase())),
      source,
    );
    if (problem !== undefined) yield { problem };
  }
}

function countLineEnds(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** What is wrong with a CSV header (column names, lower case): no loc column (an error), unknown columns. */
function headerProblem(names: string[], source: string): Diagnostic | undefined {
  if (!names.includes('loc')) {
    const message = names.some((name) => looksAbsoluteHttp(name) || name.startsWith('/'))
      ? `the first row holds a URL, not a header: a CSV list starts with a header row naming its columns (${CSV_COLUMNS.join(',')})`
      : `the CSV header must name a "loc" column (found: ${names.join(', ')})`;
    return diagnostic('INPUT-001', message, { source, line: 1 });
  }
  const unknown = names.filter((name) => !CSV_COLUMNS.includes(name));
  if (unknown.length === 0) return undefined;
  return diagnostic('INPUT-001', `CSV columns ignored: ${unknown.join(', ')} (known: ${CSV_COLUMNS.join(', ')})`, {
    source,
    line: 1,
    severity: 'warning',
  });
}

/** A decimal as a priority is written (0.5, .5, 1, 1.0): read as a number, as JSONL gives it. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A CSV row as an entry: empty cells are absent fields; a priority that is a number is one (as in
 * JSON Lines), other values stay text; values are checked by the writer.
 */
function csvEntry(record: Record<string, string>): UrlEntry {
  const entry: Record<string, unknown> = { kind: 'url', loc: record.loc ?? '' };
  for (const column of ['lastmod', 'changefreq', 'priority']) {
    const value = record[column];
    if (value === undefined || value === '') continue;
    entry[column] = column === 'priority' && DECIMAL.test(value) ? Number(value) : value;
  }
  return entry as unknown as UrlEntry;
}
