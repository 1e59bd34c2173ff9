/**
 * The parser, the same on every runtime: any sitemap a crawler meets (XML urlset or index with every extension, RSS, Atom,
 * plain text; plain or gzip) as a stream of entries, in constant memory, with diagnostics for all
 * that was repaired or dropped. The byte and text stages are async generators that run once per
 * chunk, entries go out one by one from each chunk's batch; breaking out of the consumer's loop
 * returns through every stage and closes the source. What it needs of its runtime (gzip, a UTF-8
 * decoder, files) comes through an InputEdge: index.ts binds Node's, web.ts the web's.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { DocumentKind, Entry } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import { DiagnosticSink, type Report } from './diagnostics.js';
import { EntryQueue, type EmittedEntry } from './emitted.js';
import { TextSitemapReader } from './formats/text.js';
import { XmlDocument } from './formats/xml-document.js';
import { decodeText } from './input/decode.js';
import { documentBytes } from './input/decompress.js';
import type { InputEdge } from './input/edge.js';
import { openSource } from './input/source.js';
import {
  ParseError,
  type EntryLocation,
  type LocatedEntry,
  type ParseLimits,
  type ParseOptions,
  type ParseStats,
  type ParsedSitemap,
  type Position,
  type SitemapSource,
} from './types.js';
import { Flatten, type FlattenHandler } from './flatten.js';
import { startsLikeHtml } from '../core/html.js';

/** The parser's limits when none are given: decompressed bytes, entries and value length. */
export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = {
  maxBytes: 200 * 1024 * 1024,
  maxEntries: 10_000_000,
  maxValueLength: 65_536,
  maxDiagnostics: 1_000,
};

/** A parser on the runtime `edge` gives it: `parseSitemap` of whichever entry point the caller uses. */
export function parserOn(edge: InputEdge): (source: SitemapSource, options?: ParseOptions) => ParsedSitemap {
  return (source, options = {}) => new SitemapParser(source, options, edge);
}

/**
 * The entries of a parsed sitemap a chunk's worth at a time, instead of one by one: the fastest
 * way to read them, for a reader that counts every microsecond (an await per entry costs about a
 * sixth of a parse; the tree walk, `parse` and `validate` read so). Read it, the entries or
 * located(), once; leaving the loop early closes the source.
 *
 * @example
 * for await (const batch of entryBatches(parseSitemap('sitemap.xml.gz')))
 *   for (const entry of batch) console.log(entry.loc);
 */
export function entryBatches(parsed: ParsedSitemap): AsyncIterable<readonly Entry[]> {
  if (parsed instanceof SitemapParser) return parsed.entryBatches(false) as AsyncIterable<Entry[]>;
  return oneByOne(parsed);
}

/** entryBatches() of located entries, as located() hands them out. */
export function locatedEntryBatches(parsed: ParsedSitemap): AsyncIterable<readonly LocatedEntry[]> {
  if (parsed instanceof SitemapParser) return parsed.entryBatches(true) as AsyncIterable<LocatedEntry[]>;
  return oneByOne(parsed.located());
}

async function* oneByOne<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const item of items) yield [item];
}

/** What reads the decoded text of one document. */
interface DocumentReader {
  readonly kind: DocumentKind | undefined;
  write(text: string): void;
  end(): void;
  /** True once nothing more can come out of the document (HTML, an unknown root). */
  readonly finished: boolean;
  /** Where a document offset is, for entries emitted with an offset (valid while their chunk is being handed out). */
  locate?(offset: number): Position;
  /** Reads the entries complete in what it holds, as if more were to come: the input broke off. */
  flush?(): void;
}

class SitemapParser implements ParsedSitemap {
  readonly stats: ParseStats = { bytesIn: 0, bytesDecoded: 0, gzip: false, entries: 0, urls: 0, sitemaps: 0 };
  private readonly limits: ParseLimits;
  private readonly sink: DiagnosticSink;
  private reader: DocumentReader | undefined;
  private started = false;
  /** Places where the document's structure was repaired (see ParsedSitemap.repairs). */
  private readonly repaired = { repairs: 0 };

  constructor(
    private readonly source: SitemapSource,
    private readonly options: ParseOptions,
    private readonly edge: InputEdge,
  ) {
    this.limits = { ...DEFAULT_PARSE_LIMITS, ...options.limits };
    this.sink = new DiagnosticSink({
      strict: options.strict ?? false,
      source: options.source,
      maxDiagnostics: this.limits.maxDiagnostics,
      onDiagnostic: options.onDiagnostic,
    });
  }

  get kind(): DocumentKind | undefined {
    return this.reader?.kind;
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.sink.kept;
  }

  get diagnosticCount(): number {
    return this.sink.count;
  }

  get repairs(): number {
    return this.repaired.repairs;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Entry> {
    return this.iterate(false) as AsyncIterableIterator<Entry>;
  }

  located(): AsyncIterableIterator<LocatedEntry> {
    return this.iterate(true) as AsyncIterableIterator<LocatedEntry>;
  }

  /** See entryBatches(). */
  async *entryBatches(positions: boolean): AsyncGenerator<(Entry | LocatedEntry)[]> {
    const gate = this.gate(positions);
    for await (const batch of this.start(positions)) {
      // The queue's batch is ours: each emitted entry is replaced in it by what goes out.
      const entries = batch as unknown as (Entry | LocatedEntry)[];
      for (let i = 0; i < batch.length; i++) {
        const emitted = batch[i]!;
        if (!gate.admit(emitted)) {
          entries.length = i;
          if (i > 0) yield entries;
          return;
        }
        entries[i] = gate.output(emitted);
      }
      yield entries;
    }
  }

  private iterate(positions: boolean): AsyncIterableIterator<Entry | LocatedEntry> {
    return new Flatten(this.start(positions), this.gate(positions));
  }

  /** The batches, once. */
  private start(positions: boolean): AsyncGenerator<EmittedEntry[]> {
    if (this.started) throw new Error('a parsed sitemap can be read once; call parseSitemap again to read it again');
    this.started = true;
    return this.batches(positions);
  }

  private gate(positions: boolean): OutgoingEntries {
    const locate = (offset: number) => this.reader?.locate?.(offset);
    return new OutgoingEntries(this.stats, this.limits.maxEntries, this.sink.report, locate, positions);
  }

  /**
   * The entries, a batch per chunk of text read: the stages below run once per chunk, not per
   * entry. `positions`: whether every entry must carry its location (otherwise the fast path
   * leaves them out).
   */
  private async *batches(positions: boolean): AsyncGenerator<EmittedEntry[]> {
    const report = this.sink.report;
    const { signal } = this.options;
    signal?.throwIfAborted();
    let stopped: 'limit' | 'refused' | undefined;
    const { edge } = this;
    const bytes = documentBytes(
      openSource(this.source, edge, signal, this.options.source),
      this.stats,
      this.limits.maxBytes,
      report,
      (reason) => {
        stopped = reason;
      },
      edge.gunzip,
    );
    const queue = new EntryQueue();
    // Set when the input breaks off (a connection reset, a file that failed), not the reading.
    let brokeOff = false;
    const texts = withWholeHead(decodeText(bytes, report, edge.utf8Decoder), () => (brokeOff = true));
    try {
      for await (const text of texts) {
        signal?.throwIfAborted();
        const reader = (this.reader ??= this.chooseReader(text, positions, queue));
        yield* this.step(queue, () => reader.write(text));
        if (reader.finished) return;
      }
    } catch (error) {
      // The entries complete in the text in hand are the reader's to keep, though it waited for
      // more to read them.
      const reader = this.reader;
      if (brokeOff && reader?.flush !== undefined) yield* this.step(queue, () => reader.flush!());
      throw error;
    }
    if (stopped === 'limit') return;
    if (this.reader === undefined) {
      this.reader = stopped === 'refused' ? unreadableDocument() : emptyDocument(report);
      return;
    }
    const reader = this.reader;
    yield* this.step(queue, () => reader.end());
  }

  /**
   * One reading step, then the entries it read. A strict-mode stop is thrown after them, so that
   * the entries before the first error still go out.
   */
  private *step(queue: EntryQueue, read: () => void): Generator<EmittedEntry[]> {
    let stop: ParseError | undefined;
    try {
      read();
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      stop = error;
    }
    if (queue.size > 0) yield queue.take();
    if (stop) throw stop;
  }

  private chooseReader(head: string, positions: boolean, out: EntryQueue): DocumentReader {
    const report = this.sink.report;
    if (startsLikeHtml(head)) return htmlDocument(report);
    if (head.trimStart().startsWith('<') || /<\?xml|<urlset|<sitemapindex|<rss|<feed/i.test(head)) {
      return new XmlDocument(
        report,
        { maxValueLength: this.limits.maxValueLength, positions, baseUrl: this.options.baseUrl },
        out,
        this.repaired,
      );
    }
    return textDocument(report, this.limits.maxValueLength, out);
  }
}

/**
 * The gate entries go out through (see Flatten): counts each one, stops at the entry limit, says
 * when a document lists more than the protocol allows, and hands the entry out plain or located.
 */
class OutgoingEntries implements FlattenHandler<EmittedEntry, Entry | LocatedEntry> {
  constructor(
    private readonly stats: ParseStats,
    private readonly maxEntries: number,
    private readonly report: Report,
    /** Places an entry emitted with only its offset (while its chunk is being handed out). */
    private readonly locate: (offset: number) => Position | undefined,
    /** Whether entries go out located (`located()`): then every one carries its location. */
    private readonly positions: boolean,
  ) {}

  /** Counts an entry on its way out; false when the entry limit stops the document. */
  admit(emitted: EmittedEntry): boolean {
    const stats = this.stats;
    if (stats.entries >= this.maxEntries) {
      this.report('LIMIT-002', `more than ${this.maxEntries} entries; reading stopped`, this.locationOf(emitted));
      return false;
    }
    stats.entries++;
    if (emitted.entry.kind === 'url') stats.urls++;
    else stats.sitemaps++;
    if (stats.entries === LIMITS.maxUrlsPerSitemap + 1) {
      const index = emitted.entry.kind === 'sitemap';
      this.report(
        index ? 'IDX-001' : 'URL-009',
        `more than ${LIMITS.maxUrlsPerSitemap} ${index ? 'sitemaps in one index' : 'URLs in one sitemap'}; split it (every entry is still read)`,
        this.locationOf(emitted),
      );
    }
    return true;
  }

  output(emitted: EmittedEntry): Entry | LocatedEntry {
    return this.positions ? (emitted as LocatedEntry) : emitted.entry;
  }

  /** Where an entry starts (entries are admitted while their chunk is still at hand). */
  private locationOf(emitted: EmittedEntry): EntryLocation | Position | undefined {
    return emitted.location ?? this.locate(emitted.offset);
  }
}

/** Characters looked at to tell XML, HTML and text apart. */
const SNIFF_CHARS = 512;

/**
 * The text as it comes, but its head (the first SNIFF_CHARS characters, or all of a shorter text)
 * in one piece, for choosing the reader; a short text of whitespace alone is no document at all.
 * When the texts fail, what was held is handed on before the error, and `onBreak` is told.
 */
async function* withWholeHead(texts: AsyncIterable<string>, onBreak: () => void): AsyncGenerator<string> {
  let head: string | undefined = '';
  let failure: { error: unknown } | undefined;
  try {
    for await (const text of texts) {
      if (head === undefined) yield text;
      else if ((head += text).length >= SNIFF_CHARS) {
        yield head;
        head = undefined;
      }
    }
  } catch (error) {
    // A document that broke off: what came is still read, and then the error is the reader's.
    onBreak();
    failure = { error };
  }
  if (head !== undefined && head.trim() !== '') yield head;
  if (failure !== undefined) throw failure.error;
}

function textDocument(report: Report, maxLineLength: number, out: EntryQueue): DocumentReader {
  const reader = new TextSitemapReader(report, out, maxLineLength);
  return { kind: 'text', finished: false, write: (text) => reader.write(text), end: () => reader.end() };
}

function htmlDocument(report: Report): DocumentReader {
  report('FETCH-007', 'this is an HTML page, not a sitemap', { line: 1, column: 1 });
  return { kind: 'html', finished: true, write: () => undefined, end: () => undefined };
}

/** Bytes that were refused (zip, corrupt gzip): already reported. */
function unreadableDocument(): DocumentReader {
  return { kind: 'unknown', finished: true, write: () => undefined, end: () => undefined };
}

function emptyDocument(report: Report): DocumentReader {
  report('FETCH-001', 'the document is empty');
  return { kind: 'unknown', finished: true, write: () => undefined, end: () => undefined };
}
