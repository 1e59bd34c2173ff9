/**
 * `sitemapkit/crawl`: a polite crawler that sees a site as a search engine does and yields the
 * pages that deserve listing, with its state in SQLite so a crawl can be resumed.
 * @packageDocumentation
 */
export {
  crawlSite,
  DEFAULT_CONCURRENCY,
  type CrawlOptions,
  type CrawlProgress,
  type CrawlResult,
} from '../crawl/crawler.js';
export { DEFAULT_MAX_PAGE_BYTES, httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
export { summariseCrawl, type CrawlSummary, type LeftOutSummary } from '../crawl/summary.js';
export { TRACKING_PARAMS } from '../crawl/tracking-params.js';
export { DEFAULT_TRAP_LIMITS, type TrapLimits } from '../crawl/traps.js';
export {
  LEFT_OUT_REASONS,
  type FetchedPage,
  type LeftOutReason,
  type Outcome,
  type PageFetcher,
  type RobotsPolicy,
  type RobotsVerdict,
} from '../crawl/types.js';
export { CrawlStore } from '../store/crawl-store.js';
