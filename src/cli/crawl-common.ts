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
import { UsageError, integerFlag, listFlag, stringFlag, type Io, type ParsedArgs } from './command.js';
import type { NetworkSettings } from './network-options.js';
import type { OutputOptions } from './output-options.js';

/** The crawl retries less than the commands that fetch one document: a failed page was tried once already, in the crawl. */
export const CRAWL_NETWORK_DEFAULTS = { retries: 2 };

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
export function readCrawlRules(args: ParsedArgs, perHost: NetworkSettings['perHost']): CrawlRules {
  return {
    include: listFlag(args, 'include'),
    exclude: listFlag(args, 'exclude'),
    keepParams: listFlag(args, 'keep-param'),
    stripParams: listFlag(args, 'strip-param'),
    maxDepth: optionalInteger(args, 'max-depth', 0),
    trapLimits: {
      maxQueryVariants: optionalInteger(args, 'max-query-variants', 1),
      maxPathSegments: optionalInteger(args, 'max-path-segments', 1),
      maxChain: optionalInteger(args, 'max-chain', 1),
    },
    maxPageBytes: integerFlag(args, 'max-page-bytes', DEFAULT_MAX_PAGE_BYTES),
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
export function readStartUrls(args: ParsedArgs, { several, io }: { several: boolean; io: Io }): StartUrl[] {
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

export function optionalInteger(args: ParsedArgs, name: string, min: number): number | undefined {
  return stringFlag(args, name) === undefined ? undefined : integerFlag(args, name, 0, { min });
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
