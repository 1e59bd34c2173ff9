/**
 * The one runner of the framework integrations: after a framework's build, its pages are read
 * from the output folder as `sitemapkit generate DIR` reads them, completed with what the
 * framework's config knows (the site URL, the URL form its host serves, its languages, the dates
 * it has), written with the ledger of earlier builds, and summed up as `generate` sums up a run.
 * Each integration file only turns its framework's config into BuildFacts.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { formatUtcDateTime, normaliseUrl, type Diagnostic, type UrlEntry } from '../core/index.js';
import { writeSitemaps, type WriteSummary } from '../generate/index.js';
import type { ReadEntry } from '../input/index.js';
import { LeftOutPages } from '../input/left-out.js';
import { readSiteDirectory } from '../input/site-directory.js';
import { formatGenerateSummary } from '../report/generate.js';
import { GenerateLedger } from '../store/generate-ledger.js';
import { generateLedgerPath } from '../store/site-database.js';
import { alternatesByLocale } from './locales.js';
import type { BuildFacts, FailOn, Logger, SitemapkitOptions } from './options.js';

/** The ledger's folder when none is given, below the project: where CI caches keep build caches. */
export const DEFAULT_INTEGRATION_STATE = 'node_modules/.cache/sitemapkit';

/** What one integration run did, for tests and for callers that print it their own way. */
export interface IntegrationResult {
  summary: WriteSummary;
  problems: Diagnostic[];
  leftOut: LeftOutPages;
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
  const stateDir =
    options.state === false ? undefined : resolve(facts.projectRoot, options.state ?? DEFAULT_INTEGRATION_STATE);
  if (stateDir !== undefined && !relative(outDir, stateDir).startsWith('..') && !isAbsolute(relative(outDir, stateDir)))
    throw new Error(
      `sitemapkit (${facts.framework}): the ledger folder ${stateDir} is inside the output folder ${outDir}, which each build replaces; give "state" a folder outside it`,
    );
  if (stateDir !== undefined) await mkdir(stateDir, { recursive: true });
  const ledger = stateDir === undefined ? undefined : new GenerateLedger(generateLedgerPath(stateDir));
  const problems: Diagnostic[] = [];
  const leftOut = new LeftOutPages();
  let summary: WriteSummary;
  try {
    const pages = await readPages(facts, baseUrl, options, leftOut, ledger !== undefined);
    summary = await writeSitemaps(pages, {
      outDir,
      baseUrl,
      ...(options.maxUrls === undefined ? {} : { maxUrls: options.maxUrls }),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(options.gzip === undefined ? {} : { gzip: options.gzip }),
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.stylesheet === undefined ? {} : { stylesheet: options.stylesheet }),
      ...(ledger === undefined ? {} : { ledger }),
      onProblem: (problem) => problems.push(problem),
    });
  } finally {
    ledger?.close();
  }
  for (const problem of problems) {
    const text = `sitemapkit: ${problem.severity} ${problem.code}: ${problem.message}${problem.url ? ` (${problem.url})` : ''}`;
    if (problem.severity === 'error') log.error(text);
    else log.warn(text);
  }
  if (!options.quiet) log.info(formatGenerateSummary(summary, leftOut.byReason(), outDir).trimEnd());
  const failing = failingProblems(problems, options.failOn ?? 'never');
  if (failing > 0)
    throw new SitemapkitBuildError(
      `sitemapkit: ${failing} problem${failing === 1 ? '' : 's'} at or above failOn "${options.failOn}" in the sitemaps of ${facts.buildDir}`,
    );
  return { summary, problems, leftOut, outDir };
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
 * The build's pages, each in the URL form its host serves, dated by what the framework knows, and
 * with the alternates its languages give. Read whole: the alternates of a page need its
 * translations, met anywhere in the folder.
 */
async function readPages(
  facts: BuildFacts,
  baseUrl: string,
  options: SitemapkitOptions,
  leftOut: LeftOutPages,
  contentDigests: boolean,
): Promise<ReadEntry[]> {
  const pages: ReadEntry[] = [];
  const basePath = new URL(baseUrl).pathname;
  for await (const page of readSiteDirectory(facts.buildDir, {
    baseUrl,
    exclude: options.exclude ?? [],
    contentDigests,
    onLeftOut: leftOut.add,
  })) {
    const entry = page.entry;
    entry.loc = hostForm(entry.loc, facts);
    const path = sitePath(entry.loc, basePath);
    if (facts.noindex?.(path)) {
      leftOut.add({ path: page.source ?? path, reason: 'noindex', detail: `noindex in the ${facts.framework} route` });
      continue;
    }
    // A file's time is the build's, not the page's: never a lastmod.
    delete entry.lastmod;
    const known = facts.lastmodOf?.(path);
    if (known !== undefined) entry.lastmod = known;
    pages.push(page);
  }
  if (facts.locales && facts.locales.length > 1) {
    const entries: UrlEntry[] = pages.map((page) => page.entry);
    alternatesByLocale(entries, baseUrl, facts.locales, facts.defaultLocale);
  }
  return pages;
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
