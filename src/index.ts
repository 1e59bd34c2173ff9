/**
 * sitemapkit's public API: one stream of entries from sources (parse, URL lists, build
 * directories, the sitemap tree, the crawler) to sinks (writeSitemaps, validation, JSONL).
 */
import { HttpClient } from './discover/http.js';
import { robotsSitemaps } from './discover/robots.js';
import * as validator from './validate/index.js';
import type { ValidateOptions, ValidationResult, ValidationSource } from './validate/index.js';

export * from './core/index.js';
export * from './parse/index.js';
export * from './generate/index.js';
export * from './input/index.js';
export {
  hreflangProblem,
  type FetchedResponse,
  type SitemapFetcher,
  type ValidateOptions,
  type ValidationResult,
  type ValidationSource,
} from './validate/index.js';
export * from './discover/index.js';
export {
  RetryLater,
  WorkPool,
  type HostPoliteness,
  type Settled,
  type TaskContext,
  type WorkPoolOptions,
} from './pool/index.js';
export * from './crawl/index.js';
export { sitemapStream, type SitemapStreamOptions, type UrlInput } from './generate/web-stream.js';
export { serveSitemaps, type PagedSource, type ServeSitemapsOptions } from './serve/serve-sitemaps.js';
export { sitemapHandler, type SitemapHandlerOptions } from './serve/node.js';
export { CrawlStore, type FinishedUrl, type FoundUrl, type QueuedUrl } from './store/crawl-store.js';
export { GenerateLedger } from './store/generate-ledger.js';
export { siteDatabasePath, generateLedgerPath, DEFAULT_STATE_DIR } from './store/site-database.js';
export { ValidationReport, type ValidationReportOptions } from './report/validation.js';
export { renderTree, treeToJson } from './report/tree.js';
export {
  crawlReport,
  formatCrawlReportText,
  formatCrawlReportJson,
  formatCrawlProgress,
  type CrawlReport,
} from './report/crawl.js';
export { entryToJsonLine, entryCsvHeader, entryToCsvRow } from './report/entries.js';
export { VERSION, DEFAULT_USER_AGENT } from './version.js';

/** Validates one document; a URL source is fetched with sitemapkit's HttpClient unless `options.http` is given. */
export function validateSitemap(source: ValidationSource, options: ValidateOptions = {}): Promise<ValidationResult> {
  return withHttp(options, (withClient) => validator.validateSitemap(source, withClient));
}

/** Validates several documents as one set; URL sources are fetched with sitemapkit's HttpClient unless `options.http` is given. */
export function validateSources(
  sources: readonly ValidationSource[],
  options: ValidateOptions = {},
): Promise<ValidationResult[]> {
  return withHttp(options, (withClient) => validator.validateSources(sources, withClient));
}

/**
 * Runs the validator with the caller's HTTP layer, or with an HttpClient made and closed for the
 * run (which also reads robots.txt, once per origin, for the cross-submission proof).
 */
async function withHttp<T>(options: ValidateOptions, run: (options: ValidateOptions) => Promise<T>): Promise<T> {
  if (options.http) return run(options);
  const http = new HttpClient();
  try {
    return await run({ robotsSitemaps: robotsSitemaps(http), ...options, http });
  } finally {
    await http.close();
  }
}
