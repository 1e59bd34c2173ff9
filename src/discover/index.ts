/** Discovery: the HTTP layer, robots.txt, well-known locations and the sitemap tree walk. */
export { HttpClient, HttpError, isHtmlContentType, overHttp, parseRetryAfter, RetryState } from './http.js';
export type {
  HttpErrorKind,
  HttpOptions,
  HttpResponse,
  Redirect,
  RequestOptions,
  RetryNotice,
  Transfer,
} from './http.js';
export {
  fetchRobotsTxt,
  parseRobotsTxt,
  productToken,
  robotsSitemaps,
  robotsUrlFor,
  RobotsRules,
  RobotsTxtCache,
} from './robots.js';
export type { RobotsOutcome, RobotsSitemap, RobotsTxt } from './robots.js';
export { looksLikeSitemap, probeWellKnown, WELL_KNOWN_SITEMAP_PATHS } from './well-known.js';
export type { Probe, ProbeResult } from './well-known.js';
export { fetchSitemapTree, resolveStart, totalsOf, walkSitemapTree } from './tree.js';
export type {
  FoundBy,
  RobotsSummary,
  SitemapTree,
  SitemapTreeWalk,
  Start,
  TreeEntry,
  TreeNode,
  TreeOptions,
  TreeProgress,
  TreeTotals,
} from './tree.js';
