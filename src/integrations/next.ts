/**
 * `sitemapkit/next`: sitemaps for Next.js, both ways it serves pages.
 *
 * - A static export (`output: 'export'`): the default export is a post-build step over `out/`,
 *   run after `next build` (`"build": "next build && node sitemap.mjs"`). It reads next.config
 *   for `basePath` and `trailingSlash`.
 * - The app router: `sitemapRoute()` makes the GET and HEAD handlers of a route that serves an
 *   index and its shards from a paged source (a database query), which `generateSitemaps` does
 *   not do: `app/sitemaps/[file]/route.ts` answers `/sitemaps/sitemap.xml` and every
 *   `/sitemaps/sitemap-N.xml`.
 *
 * ```js
 * // sitemap.mjs, after `next build`
 * import sitemapkit from 'sitemapkit/next';
 * await sitemapkit({ baseUrl: 'https://www.example.com/' });
 *
 * // app/sitemaps/[file]/route.ts
 * import { sitemapRoute } from 'sitemapkit/next';
 * // robots.txt names https://www.example.com/sitemaps/sitemap.xml, so it may list the whole site:
 * export const { GET, HEAD } = sitemapRoute(products, { baseUrl: 'https://www.example.com/sitemaps/', allowOtherHosts: true });
 * ```
 * @packageDocumentation
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveSitemaps, type PagedSource, type ServeSitemapsOptions } from '../serve/serve-sitemaps.js';
import type { SitemapkitOptions } from './options.js';
import { generateAfterBuild, type IntegrationResult } from './run.js';

export type { SitemapkitOptions } from './options.js';
export type { PagedSource, ServeSitemapsOptions } from '../serve/serve-sitemaps.js';
export { SitemapkitBuildError } from './run.js';

/** Options of the post-build step: the integration's, and where the project and its export are. */
export interface NextExportOptions extends SitemapkitOptions {
  /** The Next.js project; default the current folder. */
  projectDir?: string | undefined;
  /** The folder of the static export, relative to the project; default `out`. */
  exportDir?: string | undefined;
}

/** The part of next.config the step reads. */
interface NextConfig {
  output?: string | undefined;
  basePath?: string | undefined;
  trailingSlash?: boolean | undefined;
}

const CONFIG_FILES = ['next.config.mjs', 'next.config.js', 'next.config.cjs'];

/** After `next build` with `output: 'export'`: the sitemaps of the exported site. */
export default async function sitemapkitNext(options: NextExportOptions = {}): Promise<IntegrationResult> {
  const projectDir = resolve(options.projectDir ?? '.');
  const config = await readNextConfig(projectDir);
  if (config.output !== undefined && config.output !== 'export')
    throw new Error(
      `sitemapkit (next): next.config has output "${config.output}", not "export": there is no folder of pages to read; serve the sitemaps from a route with sitemapRoute() instead`,
    );
  const buildDir = resolve(projectDir, options.exportDir ?? 'out');
  const { projectDir: _project, exportDir: _export, ...rest } = options;
  // The export has no site URL of its own: the base path goes after the given base URL.
  const baseUrl =
    rest.baseUrl !== undefined && config.basePath
      ? new URL(
          `${config.basePath.replace(/^\/|\/$/g, '')}/`,
          rest.baseUrl.endsWith('/') ? rest.baseUrl : `${rest.baseUrl}/`,
        ).href
      : rest.baseUrl;
  return generateAfterBuild(
    {
      framework: 'next',
      projectRoot: projectDir,
      buildDir,
      // Next exports /about as about.html, or as about/index.html with trailingSlash.
      cleanUrls: true,
      trailingSlash: config.trailingSlash ? 'always' : 'never',
    },
    { ...rest, baseUrl },
  );
}

async function readNextConfig(projectDir: string): Promise<NextConfig> {
  const file = CONFIG_FILES.map((name) => join(projectDir, name)).find((path) => existsSync(path));
  if (file === undefined) return {};
  const loaded = ((await import(pathToFileURL(file).href)) as { default?: unknown }).default;
  const config =
    typeof loaded === 'function'
      ? await (loaded as (phase: string, context: object) => unknown)('phase-production-build', { defaultConfig: {} })
      : loaded;
  return config ?? {};
}

/** Route handlers for the app router, over {@link serveSitemaps}. */
export interface SitemapRouteHandlers {
  GET: (request: Request) => Promise<Response>;
  HEAD: (request: Request) => Promise<Response>;
}

/**
 * The GET and HEAD handlers of an app-router route serving a paged source's sitemaps: the index
 * at `<baseUrl>sitemap.xml`, the shards at `<baseUrl>sitemap-N.xml` (and `.xml.gz`).
 */
export function sitemapRoute(source: PagedSource, options: ServeSitemapsOptions): SitemapRouteHandlers {
  const handle = (request: Request): Promise<Response> => serveSitemaps(request, source, options);
  return { GET: handle, HEAD: handle };
}
