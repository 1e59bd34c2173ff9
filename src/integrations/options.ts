/**
 * The options every framework integration takes: those of `sitemapkit generate`, as one typed
 * object, with the framework's own config filling in what it already knows (the site URL, the
 * output folder, the trailing slash, the locales).
 */
import type { OutputFormat } from '../generate/types.js';

/** Options of every framework integration (`sitemapkit/vite`, `/astro`, `/next`, `/docusaurus`, `/eleventy`). */
export interface SitemapkitOptions {
  /**
   * The public URL of the built site's root (`--base-url`), e.g. `https://www.example.com/`.
   * Default: the framework's own site URL where it has one (Astro's `site`, Docusaurus's `url` +
   * `baseUrl`, VitePress's `sitemap.hostname`).
   */
  baseUrl?: string | undefined;
  /** Where the sitemaps are written (`--out`); default: the build's output folder, beside the pages. */
  outDir?: string | undefined;
  /**
   * The folder of the ledger of earlier builds (`--state`), by which a page is dated by the last
   * change of its content rather than by the build. Default: `node_modules/.cache/sitemapkit` of
   * the project, which the usual CI caches (Netlify, Vercel, actions/cache of node_modules) keep
   * between builds; `false` keeps no ledger (pages are then dated by their own head, or by git).
   */
  state?: string | false | undefined;
  /**
   * The folder of the site's sources in the git checkout (`--git-dir`), relative to the project:
   * a page the build wrote is dated by the last commit of its source there (`about/index.html` by
   * `about/index.EXT` or `about.EXT`), e.g. `src/pages` or `docs`.
   */
  gitDir?: string | undefined;
  /** Globs of pages to leave out, relative to the output folder (`--exclude`), e.g. `drafts/**`. */
  exclude?: readonly string[] | undefined;
  /** Write gzipped shards listed by an index (`--gzip`). */
  gzip?: boolean | undefined;
  /** URLs per file (`--max-urls`); default and maximum 50,000. */
  maxUrls?: number | undefined;
  /** Uncompressed bytes per file (`--max-bytes`); default and maximum 52,428,800. */
  maxBytes?: number | undefined;
  /** `xml` (default) or `txt` (`--format`). */
  format?: OutputFormat | undefined;
  /** URL of an XSLT or CSS stylesheet for the sitemaps (`--stylesheet`). */
  stylesheet?: string | undefined;
  /**
   * The least severe problem that fails the build (`--fail-on`): `error`, `warning`, or `never`.
   * Default `never`: problems are printed, and the build goes on.
   */
  failOn?: FailOn | undefined;
  /**
   * Also write an HTML sitemap page for people (`--html-sitemap FILE`), relative to the output
   * folder, e.g. `sitemap.html`: the listed pages under headings that follow the site's sections,
   * each link's text the page's title. A page that cannot be written fails the build.
   */
  htmlSitemap?: string | undefined;
  /** Print only problems, not the summary (`--quiet`). */
  quiet?: boolean | undefined;
}

/** The least severe problem that fails the build. */
export type FailOn = 'error' | 'warning' | 'never';

/** What a framework's config says about the built site, handed to the one runner of the integrations. */
export interface BuildFacts {
  /** The framework, for messages: `astro`, `docusaurus`… */
  framework: string;
  /** The project's root folder (the default ledger is kept below it). */
  projectRoot: string;
  /** The folder the build wrote. */
  buildDir: string;
  /** The site URL the framework's config gives, when it has one. */
  siteUrl?: string | undefined;
  /** `always` (folder URLs end in `/`), `never`, or `keep` (as the files are named). */
  trailingSlash?: 'always' | 'never' | 'keep' | undefined;
  /** The host serves `page.html` at `/page`. */
  cleanUrls?: boolean | undefined;
  /** The site's languages, by their path prefix (`''` for the default one), for hreflang alternates. */
  locales?: readonly LocalePrefix[] | undefined;
  /** The x-default language's hreflang, when the site has one. */
  defaultLocale?: string | undefined;
  /** A page's modification time the framework knows (Docusaurus's from git), by URL path. */
  lastmodOf?: ((path: string) => string | undefined) | undefined;
  /** Paths the framework says are not to be indexed. */
  noindex?: ((path: string) => boolean) | undefined;
  /** Where messages go; default the console. */
  log?: Logger | undefined;
}

/** A language of the site: its hreflang code and the path prefix of its pages (`fr/`, or `''`). */
export interface LocalePrefix {
  hreflang: string;
  prefix: string;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
