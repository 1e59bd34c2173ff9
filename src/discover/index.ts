/** Discovery: robots.txt, well-known locations and the sitemap tree walk (with the HTTP layer of src/http/ re-exported). */
export { HttpClient, HttpError, isHtmlContentType, overHttp, parseRetryAfter, RetryState } from '../http/index.js';
export type {
  HttpErrorKind,
  HttpOptions,
  HttpResponse,
  Redirect,
  RequestOptions,
  RetryNotice,
  Transfer,
} from '../http/index.js';
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
