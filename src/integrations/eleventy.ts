/**
 * `sitemapkit/eleventy`: an Eleventy plugin that writes the sitemaps after each build
 * (`eleventy.after`), from the output folder. Eleventy's `page.date` is a file's creation time
 * unless the front matter says otherwise, not the page's last change: it is never used as a
 * lastmod. A page is dated by its own head (`article:modified_time`, JSON-LD `dateModified`) or
 * by the ledger of earlier builds.
 *
 * ```js
 * // eleventy.config.js
 * import sitemapkit from 'sitemapkit/eleventy';
 * export default (eleventyConfig) => eleventyConfig.addPlugin(sitemapkit, { baseUrl: 'https://www.example.com/' });
 * ```
 * @packageDocumentation
 */
import { resolve } from 'node:path';
import type { SitemapkitOptions } from './options.js';
import { generateAfterBuild } from './run.js';

export type { SitemapkitOptions } from './options.js';
export { SitemapkitBuildError } from './run.js';

/** What `eleventy.after` hands its listeners (the part the plugin reads). */
interface EleventyAfterEvent {
  dir: { output: string };
  runMode?: 'build' | 'watch' | 'serve' | undefined;
}

/** The part of Eleventy's config API the plugin uses (declared here: Eleventy is not a dependency). */
export interface EleventyConfigApi {
  on(event: 'eleventy.after', listener: (event: EleventyAfterEvent) => Promise<void>): unknown;
  pathPrefix?: string | undefined;
}

/** Eleventy plugin: `eleventyConfig.addPlugin(sitemapkit, options)`. */
export default function sitemapkit(eleventyConfig: EleventyConfigApi, options: SitemapkitOptions = {}): void {
  eleventyConfig.on('eleventy.after', async ({ dir, runMode }) => {
    // A development server rebuilds on every save: sitemaps are for the build that is published.
    if (runMode !== undefined && runMode !== 'build') return;
    await generateAfterBuild(
      {
        framework: 'eleventy',
        projectRoot: process.cwd(),
        buildDir: resolve(dir.output),
        trailingSlash: 'keep',
      },
      options,
    );
  });
}
