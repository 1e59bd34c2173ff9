/** The public shapes of the generator: what writeSitemaps accepts, and what it reports back. */
import type { Diagnostic, UrlEntry } from '../core/index.js';
import type { Placed, PlacedProblem } from '../core/placed.js';
import type { RunChanges, SitemapLedger } from './ledger.js';
import type { LockHolder } from './run-lock.js';

/** XML sitemaps, or text sitemaps of one URL per line. */
export type OutputFormat = 'xml' | 'txt';

/** An extension whose namespace a urlset may declare on its root element. */
export type ExtensionName = 'image' | 'video' | 'news' | 'xhtml';
/** The sitemap extensions sitemapkit writes. */
export const EXTENSION_NAMES: readonly ExtensionName[] = ['image', 'video', 'news', 'xhtml'];

/**
 * What writeSitemaps reads: plain entries (library use), entries with the place they were read
 * from (so problems name file and line), or problems a reader found before there was an entry.
 */
export type GeneratorInput = UrlEntry | PlacedEntry | PlacedProblem;
/**
 * An entry with the file and line it came from, so a problem with it names the place: the core
 * {@link Placed} shape of a URL entry.
 */
export interface PlacedEntry extends Placed<UrlEntry> {
  /** For a page of a build directory: the digest of its content, by which a ledger dates the page. */
  contentDigest?: string;
}
export type { PlacedProblem };

/** Where and how {@link writeSitemaps} publishes: the directory, the base URL, limits, gzip, format. */
export interface WriteSitemapsOptions {
  /** Directory the sitemaps are published into (created when missing). */
  outDir: string;
  /** Public URL of outDir: relative entry URLs resolve against it and the index lists shards under it. */
  baseUrl: string;
  /** URLs per file; default and maximum 50,000. */
  maxUrls?: number;
  /** Uncompressed bytes per file, closing tag included; default and maximum 52,428,800. */
  maxBytes?: number;
  /** Write `.gz` shards, listed by an index (`<name>.xml`) even when there is only one. */
  gzip?: boolean;
  /** Gzip the index too: the entry point is then `<name>.xml.gz` (it stays plain XML by default, as most engines and tools expect). */
  gzipIndex?: boolean;
  /** Refuse runs that need more files than this; default and maximum 50,000, what one index may list. */
  maxFiles?: number;
  /** 'xml' (urlset) or 'txt' (one URL per line); default 'xml'. */
  format?: OutputFormat;
  /** URL of an XSLT/CSS stylesheet, written as an xml-stylesheet processing instruction. */
  stylesheet?: string;
  /** Accept URLs on another host or outside baseUrl's directory (cross-submission through robots.txt). */
  allowOtherHosts?: boolean;
  /**
   * Replace an entry point (`<name>.xml`) that no run of sitemapkit wrote, such as a hand-written
   * sitemap.xml; without it such a file is left as it is and the run fails before writing.
   */
  overwrite?: boolean;
  /**
   * The present, for the rules that compare with it (a lastmod in the future, a news article's
   * age), and with a ledger the run's time (the lastmod of pages whose content changed, the time of
   * the ledger's records); default: the clock.
   */
  now?: Date;
  /** Stop at the first problem: nothing is published and the previous output stays as it was. */
  strict?: boolean;
  /** Skip repeated URLs (first wins); default true. Costs 8 bytes of memory per distinct URL. */
  dedupe?: boolean;
  /**
   * Extension namespaces declared on every urlset root. Default: each shard's root declares the
   * extensions its entries use (decided when its first 64 Ki characters are written; with
   * a `ledger`, all four). Entries using another extension declare it on their own `<url>`.
   */
  namespaces?: readonly ExtensionName[];
  /**
   * Name of the files: the entry point is `<name>.xml` whatever the number of URLs (the only file,
   * or the index); shards are `<name>-0-<digest>.xml`, `<name>-1-<digest>.xml`…, named after their content.
   */
  fileBaseName?: string;
  /**
   * Aborting stops the run: nothing is published and the output directory stays as it was. (A
   * run killed outright leaves the published set as it was too; the next run clears up after it.)
   */
  signal?: AbortSignal;
  /**
   * The ledger of earlier runs (`GenerateLedger` from the store; `generate --state`): the run is
   * then incremental. A URL stays in the shard it was first written to, new URLs fill the last
   * shard or a new one, a shard whose URLs did not change is left as it is on disk; pages of
   * build directories (entries with a `contentDigest`) are dated by when their content last
   * changed; and what was added, changed and removed is recorded and returned (`changes`).
   * Duplicates are found through the ledger: no memory is spent on them.
   */
  ledger?: SitemapLedger;
  /** Called for each problem: an error in `loc` skips the entry, in another field leaves that field out; warnings are only reported. */
  onProblem?: (problem: Diagnostic) => void;
  /** Called after each finished file. */
  onProgress?: (progress: WriteProgress) => void;
}

/** Counts of a running {@link writeSitemaps}, for a progress line. */
export interface WriteProgress {
  urls: number;
  files: number;
  skipped: number;
}

/** One sitemap file written: its name, URL, entries and bytes. */
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

/**
 * What {@link writeSitemaps} published: the files, the index, the robots.txt lines, and the counts
 * of what was skipped.
 */
export interface WriteSummary {
  /** The sitemap files (urlsets or text files), in order. */
  files: WrittenFile[];
  /** The index, unless the only file is a plain XML sitemap (then it is the entry point itself). */
  index?: WrittenFile;
  urls: number;
  duplicates: number;
  /** Entries skipped because of errors. */
  skipped: number;
  problems: { errors: number; warnings: number };
  /** Files of earlier runs (as their manifest records them) that the new set replaces, removed. */
  removed: string[];
  /** Shards already in place with the same content: left untouched (same bytes, same modification time). */
  unchanged: string[];
  /** Temporary folders of runs that died (killed, crashed), removed when this run began. */
  leftovers: string[];
  /** The run that was writing into outDir when it died, when this run found its lock. */
  interrupted?: LockHolder;
  /** The line(s) to add to robots.txt: they name the entry point, which depends on the options alone. */
  robotsTxt: string[];
  /** With a ledger: the run's number in it, and how many URLs were added, changed and removed since the last run. */
  changes?: RunChanges;
}
