/** What the input readers yield: an entry with where it was read, or a problem with a line. */
import type { UrlEntry } from '../core/index.js';
import type { Placed, PlacedProblem } from '../core/placed.js';

/** An entry read from an input, with the file and line it came from. */
export interface ReadEntry extends Placed<UrlEntry> {
  /** The file path, or "-" for standard input. */
  source: string;
  /** 1-based line of the entry in the source; absent when the entry is the whole file (a page of a site directory). */
  line?: number;
  /** Digest of the page's content, build noise left out (pages of a site directory, when asked). */
  contentDigest?: string;
  /** The page's title: its `<title>`, else its first `<h1>` (pages of a site directory, for an HTML sitemap page). */
  title?: string;
}

/** A line an input reader could not read, as a diagnostic (the core {@link PlacedProblem}). */
export type ReadProblem = PlacedProblem;

/** What an input reader yields: an entry, or a problem with a line. */
export type ReadItem = ReadEntry | ReadProblem;

/** A URL list format: one URL per line, one JSON entry per line, or CSV with a header. */
export type UrlListFormat = 'txt' | 'jsonl' | 'csv';
/** The URL list formats {@link readUrlList} reads. */
export const URL_LIST_FORMATS: readonly UrlListFormat[] = ['txt', 'jsonl', 'csv'];
