/**
 * URL lists → entries: text (one URL per line), JSON Lines (one entry object per line, the
 * shape of docs/architecture.md), CSV (a header row; columns loc, lastmod, changefreq, priority), from a
 * file or standard input. Lines that cannot be read become problems with their line number;
 * the entries themselves are checked later, by the writer.
 */
import { Readable } from 'node:stream';
import type { CsvError } from 'csv-parse';
import { diagnostic, type UrlEntry } from '../core/index.js';
import { readFileText } from './file-text.js';
import { readJsonLineBatches } from './json-lines.js';
import { readLineBatches } from './lines.js';
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
  const stream: AsyncIterable<Buffer | string> = fromStdin ? (options.stdin ?? process.stdin) : readFileText(path);
  const chunks = stream[Symbol.asyncIterator]();
  // The first chunk is read ahead to sniff the format, then handed on with the rest.
  const first = await chunks.next();
  const head = first.done ? '' : typeof first.value === 'string' ? first.value : first.value.toString('utf8');
  const format = options.format ?? (fromStdin ? undefined : formatFromPath(path)) ?? formatFromContent(head);
  const all = (async function* () {
    if (!first.done) yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  })();
  if (format === 'csv') yield* inBatches(readCsv(all, source));
  else if (format === 'jsonl') yield* readJsonLineBatches(all, source);
  else yield* readTextLines(all, source);
}

async function* readTextLines(chunks: AsyncIterable<Buffer | string>, source: string): AsyncGenerator<ReadItem[]> {
  for await (const lines of readLineBatches(chunks)) {
    const items: ReadItem[] = [];
    for (const { text, line } of lines) {
      const loc = text.trim();
      if (loc === '' || loc.startsWith('#')) continue;
      items.push({ entry: { kind: 'url', loc }, source, line });
    }
    if (items.length > 0) yield items;
  }
}

/** Items gathered into batches of up to 1,024. */
async function* inBatches(items: AsyncIterable<ReadItem>): AsyncGenerator<ReadItem[]> {
  let batch: ReadItem[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === 1024) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

const CSV_COLUMNS = ['loc', 'lastmod', 'changefreq', 'priority'];

interface CsvRecord {
  record: Record<string, string>;
  info: { lines: number; columns: { name: string }[]; error?: { record?: unknown[] } };
}

async function* readCsv(chunks: AsyncIterable<Buffer | string>, source: string): AsyncGenerator<ReadItem> {
  // Loaded when a CSV is read: JSONL and text lists start without it.
  const { parse: parseCsv } = await import('csv-parse');
  const parser = Readable.from(chunks).pipe(
    parseCsv({
      bom: true,
      columns: (header: string[]) =>
        header.map((name) => {
          const column = name.trim().toLowerCase();
          return column === 'url' ? 'loc' : column;
        }),
      info: true,
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
        if (!names.includes('loc')) {
          yield {
            problem: diagnostic('INPUT-001', `the CSV header must name a "loc" column (found: ${names.join(', ')})`, {
              source,
              line: 1,
            }),
          };
          return;
        }
        const unknown = names.filter((name) => !CSV_COLUMNS.includes(name));
        if (unknown.length > 0) {
          yield {
            problem: diagnostic(
              'INPUT-001',
              `CSV columns ignored: ${unknown.join(', ')} (known: ${CSV_COLUMNS.join(', ')})`,
              { source, line: 1, severity: 'warning' },
            ),
          };
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
  }
}

/** A CSV row as an entry: empty cells are absent fields; values are checked by the writer. */
function csvEntry(record: Record<string, string>): UrlEntry {
  const entry: Record<string, unknown> = { kind: 'url', loc: record.loc ?? '' };
  for (const column of ['lastmod', 'changefreq', 'priority']) {
    const value = record[column];
    if (value !== undefined && value !== '') entry[column] = value;
  }
  return entry as unknown as UrlEntry;
}
