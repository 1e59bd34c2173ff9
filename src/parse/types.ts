/**
 * The parser's public contract. The validator and the tree walker build on exactly this; the
 * implementation lives beside it in parse/.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { DocumentKind, Entry } from '../core/entry.js';
import type { Position } from '../core/position.js';

// Part of the parser's contract (EntryLocation extends it); it lives in core/, beside the diagnostics that name it.
export type { Position };

/** Anything parseSitemap reads: bytes in memory, a Node or Web byte stream, or a file path. */
export type SitemapSource =
  | Uint8Array
  | string // a file path (use { text } to parse a string of XML or text)
  | { text: string }
  | { path: string }
  | AsyncIterable<Uint8Array>
  | ReadableStream<Uint8Array>;

/** Where the parser stops, so that hostile input cannot exhaust memory or time. */
export interface ParseLimits {
  /** Decompressed bytes read before stopping with FETCH-006 (default 200 MiB). */
  maxBytes: number;
  /** Entries read before stopping with LIMIT-002 (default 10,000,000). Past 50,000, URL-009 is reported once. */
  maxEntries: number;
  /** Characters of one text value before it is cut with LIMIT-001 (default 65,536). */
  maxValueLength: number;
  /** Diagnostics kept in `diagnostics` (default 1,000); all are still counted and passed to onDiagnostic. */
  maxDiagnostics: number;
}

/**
 * How {@link parseSitemap} reads: lenient or strict, the base URL for relative locs, limits, a
 * signal.
 */
export interface ParseOptions {
  /** Stop at the first protocol violation (throws a ParseError carrying that diagnostic). */
  strict?: boolean | undefined;
  /** Where the document was fetched from: relative locs resolve against it. */
  baseUrl?: string | undefined;
  /** Named in every diagnostic's `source`. */
  source?: string | undefined;
  limits?: Partial<ParseLimits> | undefined;
  /** Called for every diagnostic as it is found (the stream of problems, unbounded). */
  onDiagnostic?: ((diagnostic: Diagnostic) => void) | undefined;
  /** Aborting stops the read (and cancels the underlying stream). */
  signal?: AbortSignal | undefined;
}

/** Where an entry starts in the document, and where the value of each of its fields is. */
export interface EntryLocation extends Position {
  /**
   * Positions of the value of each field, by path: 'loc', 'lastmod', 'changefreq', 'priority',
   * 'images.0.loc', 'videos.1.duration', 'news.publicationDate', 'alternates.2' …
   * (element start tags for structured fields).
   */
  fields: Record<string, Position>;
}

/** An entry with the line and column of the entry and of each of its fields. */
export interface LocatedEntry {
  entry: Entry;
  location: EntryLocation;
}

/** Counts of what the parser read. */
export interface ParseStats {
  /** Bytes read from the source (compressed, when it was gzip). */
  bytesIn: number;
  /** Bytes after decompression. */
  bytesDecoded: number;
  gzip: boolean;
  entries: number;
  urls: number;
  sitemaps: number;
}

/**
 * A sitemap being read: iterate it for entries (or `located()` for entries with positions); `kind`,
 * `stats` and `diagnostics` fill in as it is read.
 */
export interface ParsedSitemap extends AsyncIterable<Entry> {
  /** The document's kind; known once the first bytes are read (undefined before). */
  readonly kind: DocumentKind | undefined;
  /** The first `maxDiagnostics` diagnostics met so far. */
  readonly diagnostics: readonly Diagnostic[];
  readonly diagnosticCount: number;
  readonly stats: ParseStats;
  /**
   * Places where the document's structure was repaired: end tags missing (supplied where the
   * next element shows them missing) or the document cut off. Entries there may be incomplete.
   */
  readonly repairs: number;
  /** The same entries with their positions (iterate one or the other, once). */
  located(): AsyncIterable<LocatedEntry>;
}

/** Thrown in strict mode, and when a source cannot be read at all. */
export class ParseError extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.name = 'ParseError';
  }
}
