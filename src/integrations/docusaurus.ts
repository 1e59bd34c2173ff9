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
  lastUpdatedAt?: number | undefined;
}

interface PostBuildProps {
  siteConfig: DocusaurusSiteConfig;
  outDir: string;
  siteDir?: string | undefined;
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
    async postBuild({ siteConfig, outDir, routesBuildMetadata = {} }) {
      if (siteConfig.noIndex) {
        console.info('sitemapkit: the site says noIndex: no sitemap written');
        return;
      }
      const basePath = siteConfig.baseUrl.endsWith('/') ? siteConfig.baseUrl : `${siteConfig.baseUrl}/`;
      // Routes are keyed by their full path (base path included), with or without a trailing slash.
      const route = (path: string): RouteBuildMetadata | undefined => {
        const full = `${basePath}${path.slice(1)}`;
        return routesBuildMetadata[full] ?? routesBuildMetadata[full.endsWith('/') ? full.slice(0, -1) : `${full}/`];
      };
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
          lastmodOf: (path) => lastmodFromMillis(route(path)?.lastUpdatedAt),
          noindex: (path) => route(path)?.noIndex === true,
        },
        options,
      );
    },
  };
}
