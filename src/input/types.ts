/** What the input readers yield: an entry with where it was read, or a problem with a line. */
import type { Diagnostic, UrlEntry } from '../core/index.js';

export interface ReadEntry {
  entry: UrlEntry;
  /** The file path, or "-" for standard input. */
  source: string;
  /** 1-based line of the entry in the source; absent when the entry is the whole file (a page of a site directory). */
  line?: number;
  /** Digest of the page's content, build noise left out (pages of a site directory, when asked). */
  contentDigest?: string;
}

export interface ReadProblem {
  problem: Diagnostic;
}

export type ReadItem = ReadEntry | ReadProblem;

export type UrlListFormat = 'txt' | 'jsonl' | 'csv';
export const URL_LIST_FORMATS: readonly UrlListFormat[] = ['txt', 'jsonl', 'csv'];
