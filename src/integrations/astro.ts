/**
 * `sitemapkit/astro`: an Astro integration that writes the sitemaps once the build is done
 * (`astro:build:done`), from the built pages, in the URL form the config gives (`trailingSlash`,
 * `build.format`), with the `i18n` locales as hreflang alternates and `site` as the base URL.
 *
 * ```js
 * // astro.config.mjs
 * import sitemapkit from 'sitemapkit/astro';
 * export default defineConfig({ site: 'https://www.example.com', integrations: [sitemapkit()] });
 * ```
 * @packageDocumentation
 */
import { fileURLToPath } from 'node:url';
import type { LocalePrefix, SitemapkitOptions } from './options.js';
import { generateAfterBuild } from './run.js';

export type { SitemapkitOptions } from './options.js';
export { SitemapkitBuildError } from './run.js';

/** An Astro locale: a code, or a path with the codes it stands for. */
type AstroLocale = string | { path: string; codes: readonly string[] };

/** The part of Astro's config the integration reads (declared here: Astro is not a dependency). */
interface AstroConfig {
  root: URL;
  site?: string | undefined;
  base: string;
  trailingSlash: 'always' | 'never' | 'ignore';
  build: { format: 'file' | 'directory' | 'preserve' };
  i18n?:
    | {
        defaultLocale: string;
        locales: readonly AstroLocale[];
        routing?: { prefixDefaultLocale?: boolean | undefined } | 'manual' | undefined;
      }
    | undefined;
}

interface AstroLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The Astro integration object (the hooks it uses). */
export interface SitemapkitAstroIntegration {
  name: 'sitemapkit';
  hooks: {
    'astro:config:done': (params: { config: AstroConfig }) => void;
    'astro:build:done': (params: { dir: URL; logger: AstroLogger }) => Promise<void>;
  };
}

export default function sitemapkit(options: SitemapkitOptions = {}): SitemapkitAstroIntegration {
  let config: AstroConfig | undefined;
  return {
    name: 'sitemapkit',
    hooks: {
      'astro:config:done': (params) => {
        config = params.config;
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (config === undefined) throw new Error('sitemapkit: astro:build:done came before astro:config:done');
        const { trailingSlash, build, i18n } = config;
        await generateAfterBuild(
          {
            framework: 'astro',
            projectRoot: fileURLToPath(config.root),
            buildDir: fileURLToPath(dir),
            siteUrl: config.site === undefined ? undefined : new URL(config.base, config.site).href,
            // `file` writes about.html for /about; `directory` writes about/index.html for /about/.
            cleanUrls: build.format !== 'preserve',
            trailingSlash:
              trailingSlash === 'never' || (trailingSlash === 'ignore' && build.format === 'file')
                ? 'never'
                : trailingSlash === 'always'
                  ? 'always'
                  : 'keep',
            ...(i18n ? astroLocales(i18n) : {}),
            log: logger,
          },
          options,
        );
      },
    },
  };
}

/** Each locale's hreflang and path prefix (the default one has none unless `prefixDefaultLocale`), and the default's hreflang. */
function astroLocales(i18n: NonNullable<AstroConfig['i18n']>): { locales: LocalePrefix[]; defaultLocale?: string } {
  const prefixDefault = typeof i18n.routing === 'object' && i18n.routing.prefixDefaultLocale === true;
  let defaultLocale: string | undefined;
  const locales = i18n.locales.map((locale) => {
    const path = typeof locale === 'string' ? locale : locale.path;
    const hreflang = typeof locale === 'string' ? locale : (locale.codes[0] ?? locale.path);
    if (path === i18n.defaultLocale) defaultLocale = hreflang;
    return { hreflang, prefix: path === i18n.defaultLocale && !prefixDefault ? '' : `${path}/` };
  });
  return defaultLocale === undefined ? { locales } : { locales, defaultLocale };
}
