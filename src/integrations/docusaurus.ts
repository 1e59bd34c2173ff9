/**
 * `sitemapkit/docusaurus`: a Docusaurus plugin that writes the sitemaps after the build
 * (`postBuild`), in place of the classic preset's sitemap plugin (`sitemap: false`). The site URL
 * is `url` + `baseUrl`; the URL form follows `trailingSlash`; routes Docusaurus marks noindex
 * (and a whole site with `noIndex`) are left out, as are the meta-refresh stubs of
 * @docusaurus/plugin-client-redirects; a page is dated by its last commit where Docusaurus has it
 * (`showLastUpdateTime`).
 *
 * ```js
 * // docusaurus.config.js
 * import sitemapkit from 'sitemapkit/docusaurus';
 * export default { presets: [['classic', { sitemap: false }]], plugins: [[sitemapkit, {}]] };
 * ```
 * @packageDocumentation
 */
import type { SitemapkitOptions } from './options.js';
import { generateAfterBuild, lastmodFromMillis } from './run.js';

export type { SitemapkitOptions } from './options.js';
export { SitemapkitBuildError } from './run.js';

/** The part of Docusaurus's site config the plugin reads (declared here: Docusaurus is not a dependency). */
interface DocusaurusSiteConfig {
  url: string;
  baseUrl: string;
  trailingSlash?: boolean | undefined;
  noIndex?: boolean | undefined;
}

/** What Docusaurus knows of a route after the build (3.6 and later). */
interface RouteBuildMetadata {
  noIndex?: boolean | undefined;
}

/** A route of the site, with what its plugin knows of it (the docs plugin: the last commit's time). */
interface DocusaurusRoute {
  path: string;
  metadata?: { lastUpdatedAt?: number | null | undefined } | undefined;
  routes?: readonly DocusaurusRoute[] | undefined;
}

interface PostBuildProps {
  siteConfig: DocusaurusSiteConfig;
  outDir: string;
  routes?: readonly DocusaurusRoute[] | undefined;
  routesBuildMetadata?: Record<string, RouteBuildMetadata> | undefined;
}

/** The plugin's context (the part it reads). */
interface DocusaurusContext {
  siteDir: string;
  siteConfig: DocusaurusSiteConfig;
}

/** The Docusaurus plugin object (the hook it uses). */
export interface SitemapkitDocusaurusPlugin {
  name: 'sitemapkit';
  postBuild(props: PostBuildProps): Promise<void>;
}

export default function sitemapkitPlugin(
  context: DocusaurusContext,
  options: SitemapkitOptions = {},
): SitemapkitDocusaurusPlugin {
  return {
    name: 'sitemapkit',
    async postBuild({ siteConfig, outDir, routes = [], routesBuildMetadata = {} }) {
      if (siteConfig.noIndex) {
        console.info('sitemapkit: the site says noIndex: no sitemap written');
        return;
      }
      const basePath = siteConfig.baseUrl.endsWith('/') ? siteConfig.baseUrl : `${siteConfig.baseUrl}/`;
      // Routes are keyed by their full path (base path included), with or without a trailing slash.
      const keyed = <T>(table: Record<string, T>, path: string): T | undefined => {
        const full = `${basePath}${path.slice(1)}`;
        return table[full] ?? table[full.endsWith('/') ? full.slice(0, -1) : `${full}/`];
      };
      const updatedAt = lastUpdates(routes);
      await generateAfterBuild(
        {
          framework: 'docusaurus',
          projectRoot: context.siteDir,
          buildDir: outDir,
          siteUrl: new URL(basePath, siteConfig.url).href,
          // trailingSlash false writes about.html for /about; true about/index.html for /about/.
          cleanUrls: siteConfig.trailingSlash === false,
          trailingSlash:
            siteConfig.trailingSlash === true ? 'always' : siteConfig.trailingSlash === false ? 'never' : 'keep',
          lastmodOf: (path) => lastmodFromMillis(keyed(updatedAt, path)),
          noindex: (path) => keyed(routesBuildMetadata, path)?.noIndex === true,
        },
        options,
      );
    },
  };
}

/** The time of each route's last commit, where its plugin read one (the docs with showLastUpdateTime). */
function lastUpdates(routes: readonly DocusaurusRoute[], into: Record<string, number> = {}): Record<string, number> {
  for (const route of routes) {
    const at = route.metadata?.lastUpdatedAt;
    if (typeof at === 'number') into[route.path] = at;
    if (route.routes) lastUpdates(route.routes, into);
  }
  return into;
}
