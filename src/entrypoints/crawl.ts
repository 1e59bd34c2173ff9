/**
 * `sitemapkit/crawl`: a polite crawler that sees a site as a search engine does and yields the
 * pages that deserve listing. A crawl is a run on a work queue (SQLite or PostgreSQL), so it can
 * be resumed, and other processes can work it too.
 * @packageDocumentation
 */
export { crawlSite, type CrawlOptions } from '../run/crawl-site.js';
export { DEFAULT_MAX_PAGE_BYTES, httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
export { summariseCrawl, type CrawlSummary, type LeftOutSummary } from '../crawl/summary.js';
export { TRACKING_PARAMS } from '../crawl/tracking-params.js';
export { DEFAULT_TRAP_LIMITS, type TrapLimits } from '../crawl/traps.js';
export {
  DEFAULT_CONCURRENCY,
  LEFT_OUT_REASONS,
  type CrawlProgress,
  type CrawlResult,
  type LeftOutUrl,
  type FetchedPage,
  type LeftOutReason,
  type Outcome,
  type PageFetcher,
  type RobotsPolicy,
  type RobotsVerdict,
} from '../crawl/types.js';
