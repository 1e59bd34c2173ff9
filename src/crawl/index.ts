/** The site crawler: seeds → judged pages in a store → the entries to list (see crawler.ts). */
export { crawlSite, DEFAULT_CONCURRENCY, type CrawlOptions, type CrawlProgress, type CrawlResult } from './crawler.js';
export { httpPageFetcher, robotsTxtPolicy, DEFAULT_MAX_PAGE_BYTES } from './adapters.js';
export { summariseCrawl, type CrawlSummary, type LeftOutSummary, type StrippedParamsSummary } from './summary.js';
export { normaliseCrawlUrl, type StrippedUrl } from './normalise.js';
export { TRACKING_PARAMS, paramFilter, type ParamFilter, type ParamRules } from './tracking-params.js';
export { DEFAULT_TRAP_LIMITS, type TrapLimits } from './traps.js';
export {
  LEFT_OUT_REASONS,
  UNREAD_REASONS,
  type LeftOutReason,
  type Outcome,
  type CutOff,
  type FetchedPage,
  type FetchOptions,
  type FollowedRedirect,
  type PageFetcher,
  type RobotsPolicy,
  type RobotsVerdict,
} from './types.js';
