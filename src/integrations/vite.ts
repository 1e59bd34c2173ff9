/**
 * `sitemapkit/vite`: a Vite plugin that writes the sitemaps of the built site once the bundle is
 * written (client builds only; an SSR build has no pages), and `vitepress()`, the same for
 * VitePress, whose pages are rendered after Vite's bundle: it goes in VitePress's `buildEnd`.
 *
 * ```ts
 * // vite.config.ts
 * import sitemapkit from 'sitemapkit/vite';
 * export default { plugins: [sitemapkit({ baseUrl: 'https://www.example.com/' })] };
 *
 * // .vitepress/config.ts
 * import { vitepress as sitemapkit } from 'sitemapkit/vite';
 * export default defineConfig({ cleanUrls: true, buildEnd: sitemapkit({ baseUrl: 'https://docs.example.com/' }) });
 * ```
 * @packageDocumentation
 */
import { resolve } from 'node:path';
import type { SitemapkitOptions } from './options.js';
import { generateAfterBuild, projectRootOf } from './run.js';

export type { SitemapkitOptions } from './options.js';
export { SitemapkitBuildError } from './run.js';

/** The part of Vite's resolved config the plugin reads (declared here: Vite is not a dependency). */
interface ViteResolvedConfig {
  root: string;
  build: { outDir: string; ssr?: boolean | string | undefined };
}

/** The Vite plugin object (the hooks it uses). */
export interface SitemapkitVitePlugin {
  name: 'sitemapkit';
  apply: 'build';
  enforce: 'post';
  configResolved(config: ViteResolvedConfig): void;
  closeBundle(): Promise<void>;
}

/** A Vite plugin: after the bundle is written, the sitemaps of the output folder (`build.outDir`). */
export default function sitemapkit(options: SitemapkitOptions = {}): SitemapkitVitePlugin {
  let config: ViteResolvedConfig | undefined;
  return {
    name: 'sitemapkit',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config === undefined || config.build.ssr) return;
      await generateAfterBuild(
        { framework: 'vite', projectRoot: config.root, buildDir: resolve(config.root, config.build.outDir) },
        options,
      );
    },
  };
}

/** The part of VitePress's site config `buildEnd` reads. */
interface VitePressSiteConfig {
  root: string;
  outDir: string;
  cleanUrls?: boolean | undefined;
  site: {
    base: string;
    locales?: Record<string, { lang?: string | undefined; link?: string | undefined }> | undefined;
  };
  sitemap?: { hostname?: string | undefined } | undefined;
}

/**
 * VitePress's `buildEnd`: the sitemaps of the rendered site, with its `cleanUrls`, its base, its
 * locales as hreflang alternates, and `sitemap.hostname` as the default base URL.
 */
export function vitepress(options: SitemapkitOptions = {}): (siteConfig: VitePressSiteConfig) => Promise<void> {
  return async (siteConfig) => {
    const locales = Object.entries(siteConfig.site.locales ?? {}).map(([key, locale]) => ({
      hreflang: locale.lang ?? key,
      prefix: key === 'root' ? '' : `${key}/`,
    }));
    const hostname = siteConfig.sitemap?.hostname;
    await generateAfterBuild(
      {
        framework: 'vitepress',
        projectRoot: projectRootOf(siteConfig.root),
        buildDir: siteConfig.outDir,
        siteUrl: hostname === undefined ? undefined : new URL(siteConfig.site.base, hostname).href,
        cleanUrls: siteConfig.cleanUrls === true,
        trailingSlash: 'keep',
        locales,
        defaultLocale: siteConfig.site.locales?.['root']?.lang,
      },
      options,
    );
  };
}
