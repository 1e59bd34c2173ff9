/** Discovery: the HTTP layer, robots.txt, well-known locations and the sitemap tree walk. */
export { HttpClient, HttpError, isHtmlContentType, parseRetryAfter } from './http.js';
export type { HttpErrorKind, HttpOptions, HttpResponse, Redirect, RequestOptions, Transfer } from './http.js';
export { fetchRobotsTxt, parseRobotsTxt, productToken, robotsUrlFor, RobotsRules } from './robots.js';
export type { RobotsOutcome, RobotsSitemap, RobotsTxt } from './robots.js';
export { probeWellKnown, WELL_KNOWN_SITEMAP_PATHS } from './well-known.js';
export type { Probe, ProbeResult } from './well-known.js';
export { fetchSitemapTree, resolveStart, totalsOf, walkSitemapTree } from './tree.js';
export type {
  FoundBy,
  RobotsSummary,
  SitemapTree,
  SitemapTreeWalk,
  TreeNode,
  TreeOptions,
  TreeProgress,
  TreeTotals,
} from './tree.js';
