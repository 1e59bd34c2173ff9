/**
 * The one runner of the framework integrations: after a framework's build, its output folder is
 * read by generateFromDirectory (what `sitemapkit generate DIR` does), its pages completed with
 * what the framework's config knows (the URL form its host serves, its languages, the dates it
 * has), written with the ledger of earlier builds, and the run summed up as `generate` sums it
 * up. Each integration file only turns its framework's config into BuildFacts.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { formatUtcDateTime, normaliseUrl, type Diagnostic, type UrlEntry } from '../core/index.js';
import type { ReadEntry } from '../input/types.js';
import { formatGenerateSummary } from '../report/generate.js';
import {
  generateFromDirectory,
  type GenerateFromDirectoryOptions,
  type GenerateFromDirectorySummary,
} from '../site/generate-from-directory.js';
import { alternatesByLocale } from './locales.js';
import type { BuildFacts, FailOn, Logger, SitemapkitOptions } from './options.js';

/** The ledger's folder when none is given, below the project: where CI caches keep build caches. */
export const DEFAULT_INTEGRATION_STATE = 'node_modules/.cache/sitemapkit';

/** What one integration run did, for tests and for callers that print it their own way. */
export interface IntegrationResult {
  summary: GenerateFromDirectorySummary;
  problems: Diagnostic[];
  /** Where the sitemaps were written. */
  outDir: string;
}

/** A run failed on its problems (`failOn`): the build that ran it fails with this error. */
export class SitemapkitBuildError extends Error {
  override name = 'SitemapkitBuildError';
}

/** Writes the sitemaps of a finished build; throws only when the run failed or `failOn` says so. */
export async function generateAfterBuild(
  facts: BuildFacts,
  options: SitemapkitOptions = {},
): Promise<IntegrationResult> {
  const log: Logger = facts.log ?? console;
  const baseUrl = siteBaseUrl(facts, options);
  const outDir = resolve(facts.buildDir, options.outDir ?? '.');
  const state =
    options.state === false ? undefined : resolve(facts.projectRoot, options.state ?? DEFAULT_INTEGRATION_STATE);
  if (state !== undefined && isInside(state, facts.buildDir))
    throw new Error(
      `sitemapkit (${facts.framework}): the ledger folder ${state} is inside the build folder ${facts.buildDir}, which each build replaces; give "state" a folder outside it`,
    );
  const problems: Diagnostic[] = [];
  const settings: GenerateFromDirectoryOptions = {
    baseUrl,
    out: outDir,
    ...definedOf(options, ['maxUrls', 'maxBytes', 'gzip', 'format', 'stylesheet', 'exclude']),
    ...(state === undefined ? {} : { state }),
    ...(options.gitDir === undefined ? {} : { gitDir: resolve(facts.projectRoot, options.gitDir) }),
    ...(options.htmlSitemap === undefined ? {} : { htmlSitemap: { file: resolve(outDir, options.htmlSitemap) } }),
    ...(facts.cleanUrls ? { cleanUrls: true } : {}),
    // 'keep' is the folder's own naming here; the reader's 'keep' follows the links.
    ...(facts.trailingSlash === 'always' || facts.trailingSlash === 'never'
      ? { trailingSlash: facts.trailingSlash }
      : {}),
    onProblem: (problem) => problems.push(problem),
    onNote: (note) => (note.level === 'warning' ? log.warn(`sitemapkit: ${note.message}`) : undefined),
    transformPages: (pages) => completePages(pages, facts, baseUrl),
  };
  const summary = await generateFromDirectory(facts.buildDir, settings);
  for (const problem of problems) {
    const text = `sitemapkit: ${problem.severity} ${problem.code}: ${problem.message}${problem.url ? ` (${problem.url})` : ''}`;
    if (problem.severity === 'error') log.error(text);
    else log.warn(text);
  }
  if (!options.quiet) log.info(formatGenerateSummary(summary, summary.leftOut, outDir, summary.changes).trimEnd());
  const html = summary.htmlSitemap;
  if (html?.written === false) throw new SitemapkitBuildError(`sitemapkit: ${html.error}`);
  if (html?.written && !options.quiet) log.info(`sitemapkit: HTML sitemap ${html.files[0]} (${html.urls} URLs)`);
  const failing = failingProblems(problems, options.failOn ?? 'never');
  if (failing > 0)
    throw new SitemapkitBuildError(
      `sitemapkit: ${failing} problem${failing === 1 ? '' : 's'} at or above failOn "${options.failOn}" in the sitemaps of ${facts.buildDir}`,
    );
  return { summary, problems, outDir };
}

/** `path` is `folder` or below it. */
function isInside(path: string, folder: string): boolean {
  const below = relative(folder, path);
  return below === '' || (!below.startsWith('..') && !isAbsolute(below));
}

/** The options among `keys` that are set (the library's options take no explicit undefined). */
function definedOf<T extends object, K extends keyof T>(
  options: T,
  keys: K[],
): { [P in K]?: Exclude<T[P], undefined> } {
  const picked: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const key of keys) if (options[key] !== undefined) picked[key] = options[key] as Exclude<T[K], undefined>;
  return picked;
}

/** The base URL: the option, else the framework's site URL, as a folder URL (ending in `/`). */
function siteBaseUrl(facts: BuildFacts, options: SitemapkitOptions): string {
  const raw = options.baseUrl ?? facts.siteUrl;
  if (raw === undefined)
    throw new Error(
      `sitemapkit (${facts.framework}): give the "baseUrl" option, the public URL of the site (e.g. https://www.example.com/): the ${facts.framework} config names none`,
    );
  const url = normaliseUrl(raw);
  if (!url.ok) throw new Error(`sitemapkit (${facts.framework}): baseUrl: ${url.problem.message}`);
  return url.value.endsWith('/') ? url.value : `${url.value}/`;
}

function failingProblems(problems: readonly Diagnostic[], failOn: FailOn): number {
  if (failOn === 'never') return 0;
  return problems.filter((problem) => failOn === 'warning' || problem.severity === 'error').length;
}

/**
 * The build's pages, each in the URL form its host serves, dated by what the framework knows and
 * never by the build, and with the alternates its languages give. With languages, the pages are
 * held until the folder is read: a page's alternates need its translations, met anywhere in it.
 */
async function* completePages(
  pages: AsyncIterable<ReadEntry>,
  facts: BuildFacts,
  baseUrl: string,
): AsyncGenerator<ReadEntry> {
  const basePath = new URL(baseUrl).pathname;
  const locales = facts.locales && facts.locales.length > 1 ? facts.locales : undefined;
  const held: ReadEntry[] = [];
  for await (const page of pages) {
    const entry = page.entry;
    entry.loc = hostForm(entry.loc, facts);
    const path = sitePath(entry.loc, basePath);
    if (facts.noindex?.(path)) continue;
    // A file's time is the build's, not the page's: never a lastmod.
    if (entry.lastmod !== undefined && entry.lastmod === (await fileTime(page.source))) delete entry.lastmod;
    const known = facts.lastmodOf?.(path);
    if (known !== undefined) entry.lastmod = known;
    if (locales) held.push(page);
    else yield page;
  }
  if (!locales) return;
  alternatesByLocale(
    held.map((page): UrlEntry => page.entry),
    baseUrl,
    locales,
    facts.defaultLocale,
  );
  yield* held;
}

async function fileTime(path: string): Promise<string | undefined> {
  const stats = await stat(path).catch(() => undefined);
  return stats && formatUtcDateTime(stats.mtime);
}

/** The URL of a page in the form its host serves: `.html` dropped with clean URLs, folder slashes as configured. */
function hostForm(loc: string, facts: BuildFacts): string {
  const url = new URL(loc);
  if (facts.cleanUrls && url.pathname.endsWith('.html')) url.pathname = url.pathname.slice(0, -'.html'.length);
  if (facts.trailingSlash === 'never' && url.pathname.length > 1 && url.pathname.endsWith('/'))
    url.pathname = url.pathname.slice(0, -1);
  return url.href;
}

/** The path of a URL below the site's base path, starting with `/`. */
function sitePath(loc: string, basePath: string): string {
  const path = new URL(loc).pathname;
  return path.startsWith(basePath) ? `/${path.slice(basePath.length)}` : path;
}

/** A time in milliseconds (as frameworks keep them) as a lastmod. */
export function lastmodFromMillis(millis: number | undefined): string | undefined {
  return millis === undefined || !Number.isFinite(millis) ? undefined : formatUtcDateTime(new Date(millis));
}

/** The nearest folder at or above `dir` with a package.json: the project the default ledger belongs to. */
export function projectRootOf(dir: string): string {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return resolve(dir);
  }
}
