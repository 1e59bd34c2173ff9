/** The validator's public shapes: what it is asked (options) and what it answers (one result per source). */
import type { Diagnostic } from '../core/diagnostics.js';
import type { ReadOutcome } from '../core/outcome.js';
import type { DocumentKind } from '../core/entry.js';
import type { ParseLimits } from '../parse/types.js';
import type { SitemapFetcher } from '../http/sitemap-fetch.js';

/**
 * How the validator checks: where the sitemap is published, scope, recursion, the clock, limits,
 * and the HTTP layer for URL sources.
 */
export interface ValidateOptions {
  /**
   * The URL the sitemap is (or will be) published at. URL sources use the URL they were fetched
   * from. Scope rules (URL-004/005, IDX-004) are checked only when a location is known.
   */
  location?: string;
  /**
   * Cross-submission is ruled out: report scope violations as errors. Without it they are
   * warnings, because robots.txt or Search Console may legitimately widen the scope (SCOPE-EX).
   */
  strictScope?: boolean;
  /** Validate the children of a sitemap index too, the first 50,000 of each (and report nested indexes, IDX-002). */
  recursive?: boolean;
  /** The clock for DATE-005 and NEWS-003 (default: the real clock). */
  now?: Date;
  /** Called for every diagnostic as it is found, across all sources (unbounded). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Called as each document starts being read (children of an index included), for progress. */
  onDocument?: (source: string, number: number) => void;
  /**
   * Diagnostics kept per result and severity (default 10,000 each; past 20,000, only the first
   * of each code, so that memory stays bounded: DiagnosticHold); the counts cover all of them.
   */
  maxDiagnostics?: number;
  /** Diagnostics kept per result and code (default 0: no limit beyond maxDiagnostics); the counts cover all. */
  maxPerRule?: number;
  /**
   * The HTTP layer URL sources are fetched with; validate/ has none of its own. The public API
   * (src/index.ts) uses a shared HttpClient when it is left out; the CLI passes its own.
   */
  http?: SitemapFetcher;
  /**
   * The Sitemap: lines of the robots.txt of a URL's origin, for the cross-submission proof
   * (SCOPE-EX): a fetched sitemap declared there, or listed by an index declared there, may list
   * any URL of that origin. The public API and the CLI fetch each origin's robots.txt once.
   */
  robotsSitemaps?: (url: string) => Promise<readonly string[]>;
  /** Passed to the parser. */
  parseLimits?: Partial<ParseLimits>;
  signal?: AbortSignal;
}

/** One source's verdict, as `validate --json` prints it (one per line). */
export interface ValidationResult {
  /** The path or URL as given (children of an index: their URL). */
  source: string;
  kind: DocumentKind | undefined;
  /** No errors. */
  valid: boolean;
  /** How the document was read (whole, cut-off, not-read), as every command decides it. */
  read: ReadOutcome;
  /** Page URLs read (url entries). */
  urls: number;
  /** Child sitemaps listed, for an index. */
  sitemaps?: number;
  errors: number;
  warnings: number;
  infos: number;
  diagnostics: Diagnostic[];
  /** Diagnostics counted but not kept (past maxDiagnostics or maxPerRule); absent when none were left out. */
  omitted?: number;
}
