/** The public shapes of the generator: what writeSitemaps accepts, and what it reports back. */
import type { Diagnostic, UrlEntry } from '../core/index.js';

export type OutputFormat = 'xml' | 'txt';

/** An extension whose namespace a urlset may declare on its root element. */
export type ExtensionName = 'image' | 'video' | 'news' | 'xhtml';
export const EXTENSION_NAMES: readonly ExtensionName[] = ['image', 'video', 'news', 'xhtml'];

/**
 * What writeSitemaps reads: plain entries (library use), entries with the place they were read
 * from (so problems name file and line), or problems a reader found before there was an entry.
 */
export type GeneratorInput = UrlEntry | PlacedEntry | PlacedProblem;
export interface PlacedEntry {
  entry: UrlEntry;
  source?: string;
  line?: number;
}
export interface PlacedProblem {
  problem: Diagnostic;
}

export interface WriteSitemapsOptions {
  /** Directory the sitemaps are published into (created when missing). */
  outDir: string;
  /** Public URL of outDir: relative entry URLs resolve against it and the index lists shards under it. */
  baseUrl: string;
  /** URLs per file; default and maximum 50,000. */
  maxUrls?: number;
  /** Uncompressed bytes per file, closing tag included; default and maximum 52,428,800. */
  maxBytes?: number;
  /** Write `.gz` shards. */
  gzip?: boolean;
  /** Gzip the index too (it stays plain XML by default, as most engines and tools expect). */
  gzipIndex?: boolean;
  /** Refuse runs that need more files than this; default and maximum 50,000, what one index may list. */
  maxFiles?: number;
  /** 'xml' (urlset) or 'txt' (one URL per line); default 'xml'. */
  format?: OutputFormat;
  /** URL of an XSLT/CSS stylesheet, written as an xml-stylesheet processing instruction. */
  stylesheet?: string;
  /** Accept URLs on another host or outside baseUrl's directory (cross-submission through robots.txt). */
  allowOtherHosts?: boolean;
  /** The present, for the rules that compare with it (a lastmod in the future, a news article's age); default: the clock. */
  now?: Date;
  /** Stop at the first problem: nothing is published and the previous output stays as it was. */
  strict?: boolean;
  /** Skip repeated URLs (first wins); default true. Costs 8 bytes of memory per distinct URL. */
  dedupe?: boolean;
  /** Extension namespaces declared on every urlset root; default all four. Entries using another extension declare it on their own `<url>`. */
  namespaces?: readonly ExtensionName[];
  /** Name of the files: `<name>.xml` (single file or index), `<name>-0.xml`, `<name>-1.xml`… (shards). */
  fileBaseName?: string;
  /** Aborting stops the run: nothing is published and the output directory stays as it was. */
  signal?: AbortSignal;
  /** Called for each problem: an error in `loc` skips the entry, in another field leaves that field out; warnings are only reported. */
  onProblem?: (problem: Diagnostic) => void;
  /** Called after each finished file. */
  onProgress?: (progress: WriteProgress) => void;
}

export interface WriteProgress {
  urls: number;
  files: number;
  skipped: number;
}

export interface WrittenFile {
  /** File name inside outDir. */
  name: string;
  /** Public URL (baseUrl + name). */
  url: string;
  urls: number;
  /** Uncompressed size. */
  bytes: number;
  /** Size on disk when gzipped. */
  gzipBytes?: number;
  /** Newest lastmod among the file's URLs, as written; absent when none has one. */
  lastmod?: string;
}

export interface WriteSummary {
  /** The sitemap files (urlsets or text files), in order. */
  files: WrittenFile[];
  /** The index, when more than one file was written. */
  index?: WrittenFile;
  urls: number;
  duplicates: number;
  /** Entries skipped because of errors. */
  skipped: number;
  problems: { errors: number; warnings: number };
  /** Stale files of a previous run that were removed. */
  removed: string[];
  /** The line(s) to add to robots.txt. */
  robotsTxt: string[];
}
