/**
 * What both ways of running `crawl` share (one process, or the workers of a run): reading the
 * start URLs and the crawl's rules from the flags, judging what the crawl came to, and
 * publishing its sitemaps.
 */
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { diagnostic, formatDiagnostic } from '../core/diagnostics.js';
import { splitUserinfo, userinfoProblem, withoutUserinfo } from '../core/url-userinfo.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../crawl/adapters.js';
import type { CrawlResult } from '../crawl/crawler.js';
import { normaliseCrawlUrl } from '../crawl/normalise.js';
import type { CrawlSummary } from '../crawl/summary.js';
import type { TrapLimits } from '../crawl/traps.js';
import type { UrlEntry } from '../core/entry.js';
import { writeSitemaps } from '../generate/index.js';
import type { WriteSummary } from '../generate/types.js';
import { hasScheme } from '../discover/roots.js';
import { formatFolded } from '../report/format.js';
import { DEFAULT_TRAP_LIMITS } from '../crawl/traps.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import { UsageError, type Io } from './command.js';
import { defineFlags, type FlagValues } from './flags.js';
import { networkFlags, type NetworkSettings } from './network-options.js';
import { OUTPUT_FLAGS, type OutputOptions } from './output-options.js';
import { PROBLEM_FLAGS } from './problem-options.js';
import { RUN_FLAGS } from './run-options.js';

/** The crawl retries less than the commands that fetch one document: a failed page was tried once already, in the crawl. */
export const CRAWL_NETWORK_DEFAULTS = { retries: 2 };

const CRAWL = 'Crawl';
export const TRAPS = 'Spider traps (URL spaces without end) are left out past these limits';
const REPORT = 'Report';

/** The flags of `sitemapkit crawl`, in one process or on workers. */
export const CRAWL_FLAGS = defineFlags({
  'max-pages': {
    type: 'integer',
    value: 'N',
    group: CRAWL,
    help: 'request at most N pages (a redirect followed is a request of its own); on workers, N in all across every process of the run',
  },
  'max-depth': {
    type: 'integer',
    value: 'N',
    min: 0,
    group: CRAWL,
    help: 'follow links at most N hops from the start (0: the start page only)',
  },
  include: {
    type: 'list',
    value: 'GLOB',
    group: CRAWL,
    help: 'crawl only URLs whose path (and query) match; repeatable ("/blog/**"); a glob starting with http matches the whole URL',
  },
  exclude: {
    type: 'list',
    value: 'GLOB',
    group: CRAWL,
    help: 'never crawl URLs that match; repeatable ("/search*", "**/*.pdf")',
  },
  'keep-param': {
    type: 'list',
    value: 'NAME',
    group: CRAWL,
    help: 'keep this query parameter although it is a tracking one; repeatable, globs allowed ("utm_campaign", "*" keeps every one)',
  },
  'strip-param': {
    type: 'list',
    value: 'GLOB',
    group: CRAWL,
    help: 'also drop these query parameters; repeatable ("sessionid")',
  },
  'max-page-bytes': {
    type: 'integer',
    value: 'N',
    default: DEFAULT_MAX_PAGE_BYTES,
    group: CRAWL,
    help: 'read at most N bytes of a page; a larger page is left out as cut off',
  },
  'use-sitemaps': {
    type: 'boolean',
    group: CRAWL,
    help: "also start from the URLs of the site's existing sitemaps; one that cannot be read whole is named, and fails the run",
  },
  state: {
    type: 'string',
    value: 'DIR',
    group: CRAWL,
    defaultText: `${DEFAULT_STATE_DIR}/ in the working directory`,
    help: 'where the crawl state lives (never inside --out)',
  },
  resume: {
    type: 'boolean',
    group: CRAWL,
    help: 'continue the interrupted crawl of this site instead of starting over',
  },
  'max-query-variants': {
    type: 'integer',
    value: 'N',
    defaultText: String(DEFAULT_TRAP_LIMITS.maxQueryVariants),
    group: TRAPS,
    help: 'query variants of one path fetched (/search?q=…)',
  },
  'max-path-segments': {
    type: 'integer',
    value: 'N',
    defaultText: String(DEFAULT_TRAP_LIMITS.maxPathSegments),
    group: TRAPS,
    help: 'segments in a path; a run of segments repeated 3 times in a row (/a/b/a/b/a/b/) is always a trap',
  },
  'max-chain': {
    type: 'integer',
    value: 'N',
    defaultText: String(DEFAULT_TRAP_LIMITS.maxChain),
    group: TRAPS,
    help: 'pages of one URL pattern, each found on the one before (next month, next day: /calendar/2024-05 → /calendar/2024-06 …), where they cannot be content: pages alike but for their numbers, or dated far from the present; chains of distinct pages (pagination) are crawled whole',
  },
  json: { type: 'boolean', group: REPORT, help: 'print the report as JSON' },
  report: {
    type: 'string',
    value: 'FILE',
    group: REPORT,
    help: 'write every URL left out, with its reason and the page it was found on, to FILE: JSON Lines, or CSV when FILE ends in .csv',
  },
  ...PROBLEM_FLAGS,
  ...networkFlags('pool', CRAWL_NETWORK_DEFAULTS),
  ...RUN_FLAGS,
  ...OUTPUT_FLAGS,
});

export type CrawlFlags = FlagValues<typeof CRAWL_FLAGS>;

/** Outcomes of the start URL that mean there was no site to crawl. */
const START_FAILURES = new Set(['fetch-error', 'http-error', 'server-error', 'robots-blocked']);

/** The crawl's rules as the flags give them: the same for one process and for every worker of a run. */
export interface CrawlRules {
  include: string[];
  exclude: string[];
  keepParams: string[];
  stripParams: string[];
  maxDepth?: number | undefined;
  trapLimits: { [Limit in keyof TrapLimits]?: number | undefined };
  maxPageBytes: number;
  delayMs: number;
  concurrency: number;
}

/** The rules from the flags; politeness (--concurrency, --delay) as the network flags read it. */
export function readCrawlRules(flags: CrawlFlags, perHost: NetworkSettings['perHost']): CrawlRules {
  return {
    include: flags.include,
    exclude: flags.exclude,
    keepParams: flags.keepParam,
    stripParams: flags.stripParam,
    maxDepth: flags.maxDepth,
    trapLimits: {
      maxQueryVariants: flags.maxQueryVariants,
      maxPathSegments: flags.maxPathSegments,
      maxChain: flags.maxChain,
    },
    maxPageBytes: flags.maxPageBytes,
    delayMs: perHost.delayMs,
    concurrency: perHost.concurrency,
  };
}

/** A start URL as typed; `schemeGuessed` when it named no scheme (https is tried first). */
export interface StartUrl {
  url: string;
  schemeGuessed: boolean;
}

/**
 * The start URLs, normalised (a host alone is https); one unless `several` are allowed. A user
 * name and password are left out, with a warning naming the host (URL-024): they would be
 * published in every <loc>, and the crawl never sends them.
 */
export function readStartUrls(
  args: { positionals: string[] },
  { several, io }: { several: boolean; io: Io },
): StartUrl[] {
  const inputs = args.positionals;
  if (inputs.length === 0) throw new UsageError('give the URL to start crawling from, e.g. https://www.example.com/');
  if (inputs.length > 1 && !several)
    throw new UsageError(
      `crawl one site at a time; unexpected "${inputs[1]}" (a site of several hosts is crawled as a run: add --run NAME)`,
    );
  return inputs.map((input) => {
    const schemeGuessed = !hasScheme(input);
    const typed = schemeGuessed ? `https://${input}` : input;
    const url = normaliseCrawlUrl(typed);
    if (url === undefined) throw new UsageError(`"${withoutUserinfo(input)}" is not an http(s) URL to crawl`);
    const userinfo = splitUserinfo(typed);
    if (userinfo !== undefined)
      io.stderr.write(`${formatDiagnostic(diagnostic('URL-024', userinfoProblem(userinfo.host).message))}\n`);
    return { url, schemeGuessed };
  });
}

/**
 * Whether the sitemaps are to be written, and what makes the crawl a failure (exit 1): no start
 * page, nothing to list, pages that could not be read.
 */
export function judgeCrawl(result: CrawlResult, summary: CrawlSummary): { publish: boolean; problems: string[] } {
  if (!result.finished) return { publish: false, problems: [] };
  const start = summary.start;
  if (start === undefined || START_FAILURES.has(start.outcome))
    return {
      publish: false,
      problems: [`the start URL ${result.startUrl} could not be fetched: ${start?.detail ?? 'no answer'}`],
    };
  const problems: string[] = [];
  if (summary.listed === 0) {
    const why =
      start.outcome === 'listed' ? '' : `: the start page was left out as ${start.outcome} (${start.detail ?? ''})`;
    problems.push(`no page could be listed, so no sitemap was written${why}`);
  }
  if (summary.unread > 0)
    problems.push(
      `${summary.unread} ${summary.unread === 1 ? 'page' : 'pages'} could not be read (server error, no response or cut off); the report lists them`,
    );
  return { publish: summary.listed > 0, problems };
}

/**
 * Writes the sitemaps of the listed pages, printing the first problems of each code (`tally`
 * counts them all); a failure is reported, not thrown, so the report still comes.
 */
export async function publish(
  entries: Iterable<UrlEntry>,
  options: OutputOptions,
  io: Io,
  tally: DiagnosticTally = new DiagnosticTally(),
): Promise<{ written?: WriteSummary; problem?: string }> {
  try {
    const written = await writeSitemaps(entries, {
      ...options,
      onProblem: (problem) => {
        if (tally.add(problem)) io.stderr.write(`${formatDiagnostic(problem)}\n`);
      },
    });
    const folded = tally.folded().map(formatFolded);
    if (folded.length > 0) io.stderr.write(`${folded.join('\n')}\n`);
    return { written };
  } catch (error) {
    return { problem: `the sitemaps could not be written: ${(error as Error).message}` };
  }
}
