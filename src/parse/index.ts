/**
 * parseSitemap: any sitemap a crawler meets (XML urlset or index with every extension, RSS, Atom,
 * plain text; plain or gzip) as a stream of entries, in constant memory, with diagnostics for all
 * that was repaired or dropped. The byte and text stages are async generators that run once per
 * chunk, entries go out one by one from each chunk's batch; breaking out of the consumer's loop
 * returns through every stage and closes the source.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { DocumentKind, Entry } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import { DiagnosticSink, type Report } from './diagnostics.js';
import { EntryQueue, type EmittedEntry } from './emitted.js';
import { XmlDocumentReader } from './formats/document.js';
import { TextSitemapReader } from './formats/text.js';
import { decodeText } from './input/decode.js';
import { documentBytes } from './input/decompress.js';
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
import { XmlTokenizer } from './xml/tokenizer.js';
import { Flatten, type FlattenHandler } from './flatten.js';

export * from './types.js';
export { rfc822ToW3c } from './formats/rfc822.js';

export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = {
  maxBytes: 200 * 1024 * 1024,
  maxEntries: 10_000_000,
  maxValueLength: 65_536,
  maxDiagnostics: 1_000,
};

/** Characters looked at to tell XML, HTML and text apart. */
const SNIFF_CHARS = 512;

/** Reads a sitemap lazily: nothing is read until the result is iterated (once, as entries or located()). */
export function parseSitemap(source: SitemapSource, options: ParseOptions = {}): ParsedSitemap {
  return new SitemapParser(source, options);
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
}

class SitemapParser implements ParsedSitemap {
  readonly stats: ParseStats = { bytesIn: 0, bytesDecoded: 0, gzip: false, entries: 0, urls: 0, sitemaps: 0 };
  private readonly limits: ParseLimits;
  private readonly sink: DiagnosticSink;
  private reader: DocumentReader | undefined;
  private started = false;

  constructor(
    private readonly source: SitemapSource,
    private readonly options: ParseOptions,
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

  [Symbol.asyncIterator](): AsyncIterableIterator<Entry> {
    return this.iterate(false) as AsyncIterableIterator<Entry>;
  }

  located(): AsyncIterableIterator<LocatedEntry> {
    return this.iterate(true) as AsyncIterableIterator<LocatedEntry>;
  }

  private iterate(positions: boolean): AsyncIterableIterator<Entry | LocatedEntry> {
    if (this.started) throw new Error('a parsed sitemap can be read once; call parseSitemap again to read it again');
    this.started = true;
    const locate = (offset: number) => this.reader?.locate?.(offset);
    return new Flatten(
      this.batches(positions),
      new OutgoingEntries(this.stats, this.limits.maxEntries, this.sink.report, locate, positions),
    );
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
    const bytes = documentBytes(
      openSource(this.source, signal, this.options.source),
      this.stats,
      this.limits.maxBytes,
      report,
      (reason) => {
        stopped = reason;
      },
    );
    const queue = new EntryQueue();
    let head = '';
    for await (const text of decodeText(bytes, report)) {
      signal?.throwIfAborted();
      let chunk = text;
      if (this.reader === undefined) {
        head += text;
        if (head.length < SNIFF_CHARS) continue;
        this.reader = this.chooseReader(head, positions, queue);
        chunk = head;
      }
      const failure = this.guard(() => this.reader!.write(chunk));
      if (queue.size > 0) yield queue.take();
      if (failure) throw failure.error;
      if (this.reader.finished) return;
    }
    if (stopped === 'limit') return;
    if (this.reader === undefined) {
      if (head.trim() === '') {
        this.reader = stopped === 'refused' ? unreadableDocument() : emptyDocument(report);
        return;
      }
      this.reader = this.chooseReader(head, positions, queue);
      const failure = this.guard(() => this.reader!.write(head));
      if (failure) {
        if (queue.size > 0) yield queue.take();
        throw failure.error;
      }
    }
    const failure = this.guard(() => this.reader!.end());
    if (queue.size > 0) yield queue.take();
    if (failure) throw failure.error;
  }

  /** Runs a reading step; a strict-mode stop is returned so that the entries before it still go out first. */
  private guard(step: () => void): { error: ParseError } | undefined {
    try {
      step();
      return undefined;
    } catch (error) {
      if (error instanceof ParseError) return { error };
      throw error;
    }
  }

  private chooseReader(head: string, positions: boolean, out: EntryQueue): DocumentReader {
    const report = this.sink.report;
    const start = head.trimStart().slice(0, 64).toLowerCase();
    if (start.startsWith('<!doctype html') || start.startsWith('<html')) return htmlDocument(report);
    if (start.startsWith('<') || /<\?xml|<urlset|<sitemapindex|<rss|<feed/i.test(head)) {
      return xmlDocument(
        report,
        this.options.baseUrl,
        { maxValueLength: this.limits.maxValueLength, positions, strict: this.options.strict ?? false },
        out,
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

function xmlDocument(
  report: Report,
  baseUrl: string | undefined,
  reading: { maxValueLength: number; positions: boolean; strict: boolean },
  out: EntryQueue,
): DocumentReader {
  const reader = new XmlDocumentReader(
    { report, baseUrl },
    {
      ...reading,
      position: () => tokenizer.position(),
      namespaceOf: (prefix) => tokenizer.namespaceOf(prefix),
      stop: () => tokenizer.stop(),
      out,
    },
  );
  const tokenizer: XmlTokenizer = new XmlTokenizer(reader, (code, message, at) =>
    reader.markupProblem(code, message, at),
  );
  return {
    get kind() {
      return reader.kind;
    },
    get finished() {
      return reader.kind === 'html' || reader.kind === 'unknown';
    },
    write: (text) => tokenizer.write(text),
    end: () => {
      tokenizer.end();
      reader.releaseProblems();
    },
    locate: (offset) => tokenizer.positionOf(offset),
  };
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
