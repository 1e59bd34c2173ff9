/** The site crawler: seeds → judged pages in a store → the entries to list (see crawler.ts). */
export { crawlSite, DEFAULT_CONCURRENCY, type CrawlOptions, type CrawlProgress, type CrawlResult } from './crawler.js';
export { httpPageFetcher, robotsTxtPolicy, DEFAULT_MAX_PAGE_BYTES } from './adapters.js';
export { summariseCrawl, type CrawlSummary, type LeftOutSummary } from './summary.js';
export { normaliseCrawlUrl, paramFilter, type ParamFilter } from './normalise.js';
export {
  LEFT_OUT_REASONS,
  type LeftOutReason,
  type Outcome,
  type FetchedPage,
  type FollowedRedirect,
  type PageFetcher,
  type RobotsPolicy,
  type RobotsVerdict,
} from './types.js';
