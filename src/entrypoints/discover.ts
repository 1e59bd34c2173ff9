/**
 * `sitemapkit/discover`: the HTTP client sitemapkit fetches with (deadlines, redirects, retries,
 * caps), robots.txt per RFC 9309, the well-known sitemap locations, and a site's whole sitemap
 * tree.
 * @packageDocumentation
 */
export {
  HttpClient,
  HttpError,
  type HttpErrorKind,
  type HttpOptions,
  type HttpResponse,
  type Redirect,
  type RequestOptions,
  type RetryNotice,
  type Transfer,
} from '../http/client.js';
export {
  fetchRobotsTxt,
  parseRobotsTxt,
  RobotsRules,
  type RobotsOutcome,
  type RobotsSitemap,
  type RobotsTxt,
} from '../discover/robots.js';
export { WELL_KNOWN_SITEMAP_PATHS } from '../discover/well-known.js';
export {
  fetchSitemapTree,
  fetchSitemapTreeView,
  walkSitemapTree,
  type ChildrenOf,
  type FoundBy,
  type RobotsSummary,
  type SitemapTree,
  type SitemapTreeView,
  type SitemapTreeWalk,
  type TreeEntry,
  type TreeNode,
  type TreeOptions,
  type TreeProgress,
  type TreeRecordSpill,
  type TreeTotals,
} from '../discover/tree.js';
export { TreeSpill, type SpilledNode } from '../store/tree-spill.js';
