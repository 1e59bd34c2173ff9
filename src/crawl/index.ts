/** The site crawler's parts: fetching, judging, scope and traps (a crawl runs as a run: run/crawl-site.ts). */
export { httpPageFetcher, robotsTxtPolicy, DEFAULT_MAX_PAGE_BYTES } from './adapters.js';
export { summariseCrawl, type CrawlSummary, type LeftOutSummary, type StrippedParamsSummary } from './summary.js';
export { normaliseCrawlUrl, type StrippedUrl } from './normalise.js';
export { TRACKING_PARAMS, paramFilter, type ParamFilter, type ParamRules } from './tracking-params.js';
export { DEFAULT_TRAP_LIMITS, type TrapLimits } from './traps.js';
export {
  DEFAULT_CONCURRENCY,
  LEFT_OUT_REASONS,
  type CrawlProgress,
  type CrawlResult,
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
