/**
 * `sitemapkit crawl URL --out DIR`: crawl a site as a search engine would, and publish the
 * sitemaps of the pages that deserve listing, exactly as `generate` writes them.
 */
import { resolve } from 'node:path';
import { formatDiagnostic } from '../core/diagnostics.js';
import { DEFAULT_MAX_PAGE_BYTES, httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
import { crawlSite, DEFAULT_CONCURRENCY, type CrawlProgress, type CrawlResult } from '../crawl/crawler.js';
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { normaliseCrawlUrl } from '../crawl/normalise.js';
import { summariseCrawl, type CrawlSummary } from '../crawl/summary.js';
import { TRACKING_PARAMS } from '../crawl/tracking-params.js';
import { DEFAULT_TRAP_LIMITS } from '../crawl/traps.js';
import { HttpClient } from '../discover/http.js';
import { hasScheme, withWorkingScheme } from '../discover/roots.js';
import { walkSitemapTree } from '../discover/tree.js';
import { writeSitemaps } from '../generate/index.js';
import type { WriteSummary } from '../generate/types.js';
import { crawlReport, formatCrawlProgress, formatCrawlReportJson, formatCrawlReportText } from '../report/crawl.js';
import { formatFolded } from '../report/format.js';
import { writeLeftOutFile } from '../report/crawl-left-out.js';
import { CrawlStore } from '../store/crawl-store.js';
import { DEFAULT_STATE_DIR, siteDatabasePath } from '../store/site-database.js';
import {
  UsageError,
  booleanFlag,
  integerFlag,
  listFlag,
  stringFlag,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';
import { listenForInterruption } from './interrupt.js';
import { ProgressLine } from './progress.js';
import { networkHelp, networkOptions, readNetworkOptions } from './network-options.js';
import {
  OUTPUT_OPTIONS,
  OUTPUT_OPTIONS_HELP,
  readOutputOptions,
  refuseStateInsideOut,
  type OutputOptions,
} from './output-options.js';
import { PROBLEM_OPTIONS, PROBLEM_OPTIONS_HELP, exitCode, readProblemOptions } from './problem-options.js';

/** The crawl retries less than the commands that fetch one document: a failed page was tried once already, in the crawl. */
const NETWORK_DEFAULTS = { retries: 2 };

const HELP = `Crawls the site from URL politely (robots.txt and its Crawl-delay, ${DEFAULT_CONCURRENCY} requests at
a time) and lists the pages that answer 200 with HTML, are read whole, are not noindex and are
their own canonical. Writes the sitemaps into DIR as "generate" does (for the root of the site
crawled, unless --base-url says otherwise), and reports what was fetched, listed and left out,
by reason, with examples. The crawl state is kept in SQLite under --state, so an interrupted
crawl (Ctrl-C, SIGTERM, even kill -9) continues with --resume.

A page that fails in a way that may pass (no response, 429, 5xx) is set aside, not waited for:
once the rest of the site is done it is fetched again, with --retries more attempts after that.

Crawl:
  --max-pages N          request at most N pages
  --max-depth N          follow links at most N hops from the start (0: the start page only)
  --include GLOB         crawl only URLs whose path (and query) match; repeatable ("/blog/**");
                         a glob starting with http matches the whole URL
  --exclude GLOB         never crawl URLs that match; repeatable ("/search*", "**/*.pdf")
  --keep-param NAME      keep this query parameter although it is a tracking one; repeatable,
                         globs allowed ("utm_campaign", "*" keeps every one)
  --strip-param GLOB     also drop these query parameters; repeatable ("sessionid")
  --max-page-bytes N     read at most N bytes of a page (default ${DEFAULT_MAX_PAGE_BYTES.toLocaleString('en-US')}); a larger
                         page is left out as cut off
  --use-sitemaps         also start from the URLs of the site's existing sitemaps
  --state DIR            where the crawl state lives (default ${DEFAULT_STATE_DIR}/ in the working
                         directory; never inside --out)
  --resume               continue the interrupted crawl of this site instead of starting over

Tracking parameters, removed from every URL unless kept with --keep-param:
${wrapList(TRACKING_PARAMS, '  ')}

Spider traps (URL spaces without end) are left out past these limits:
  --max-query-variants N
                         query variants of one path fetched (/search?q=…; default ${DEFAULT_TRAP_LIMITS.maxQueryVariants})
  --max-path-segments N  segments in a path (default ${DEFAULT_TRAP_LIMITS.maxPathSegments}); a run of segments repeated
                         3 times in a row (/a/b/a/b/a/b/) is always a trap
  --max-chain N          pages of one URL pattern, each found on the one before (next month,
                         next day: /calendar/2024-05 → /calendar/2024-06 …; default ${DEFAULT_TRAP_LIMITS.maxChain})

Report:
  --json                 print the report as JSON
  --report FILE          write every URL left out, with its reason and the page it was found
                         on, to FILE: JSON Lines, or CSV when FILE ends in .csv

${PROBLEM_OPTIONS_HELP}
                         The same bound applies to the examples of each reason left out.

${networkHelp('pool', NETWORK_DEFAULTS)}
                       (robots.txt Crawl-delay may raise --delay; --user-agent is also the
                       name matched in robots.txt)

${OUTPUT_OPTIONS_HELP}

The run fails (exit 1), whatever --fail-on says, when the crawl was interrupted, the start URL
could not be fetched, nothing could be listed, the sitemaps could not be written, or some pages
could not be read (a server error, no response, a page cut off: the sitemaps are written
without them); and with --fail-on error (the default) when writing them found a problem.

Examples:
  sitemapkit crawl https://www.example.com/ --out public --gzip
  sitemapkit crawl https://www.example.com/ --out public --exclude "/search*" --report left-out.csv
  sitemapkit crawl https://www.example.com/ --out public --resume`;

/** Outcomes of the start URL that mean there was no site to crawl. */
const START_FAILURES = new Set(['fetch-error', 'http-error', 'server-error', 'robots-blocked']);

export const command: Command = {
  spec: {
    name: 'crawl',
    summary: 'Crawl a site as a search engine would, and write its sitemaps.',
    usage: 'sitemapkit crawl URL --out DIR [options]',
    help: HELP,
    options: {
      ...OUTPUT_OPTIONS,
      'max-pages': { type: 'string' },
      'max-depth': { type: 'string' },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      'keep-param': { type: 'string', multiple: true },
      'strip-param': { type: 'string', multiple: true },
      'max-page-bytes': { type: 'string' },
      'max-query-variants': { type: 'string' },
      'max-path-segments': { type: 'string' },
      'max-chain': { type: 'string' },
      ...networkOptions('pool'),
      ...PROBLEM_OPTIONS,
      'use-sitemaps': { type: 'boolean' },
      state: { type: 'string' },
      resume: { type: 'boolean' },
      json: { type: 'boolean' },
      report: { type: 'string' },
    },
  },
  run,
};

async function run(args: ParsedArgs, io: Io): Promise<number> {
  const typed = readStartUrl(args);
  const problems = readProblemOptions(args);
  const network = readNetworkOptions(args, io, { overrides: NETWORK_DEFAULTS });
  const http = new HttpClient(network.http);
  // A host typed without a scheme is tried over https, then over http when its server speaks no TLS.
  const startUrl = typed.schemeGuessed ? await withWorkingScheme(typed.url, http) : typed.url;
  const output = readOutputOptions(args, { baseUrl: new URL('/', startUrl).href });
  const stateDir = resolve(stringFlag(args, 'state') ?? DEFAULT_STATE_DIR);
  refuseStateInsideOut(stateDir, output.outDir, 'crawl state');
  const userAgent = http.userAgent;
  const resume = booleanFlag(args, 'resume');
  const reportFile = stringFlag(args, 'report');
  const databaseFile = siteDatabasePath(stateDir, startUrl);
  const store = new CrawlStore(databaseFile, { fresh: !resume });
  if (resume && store.getMeta('start-url') === undefined)
    io.stderr.write(`sitemapkit crawl: no crawl to resume in ${databaseFile}; starting afresh\n`);

  const interruption = listenForInterruption();
  const progress = new ProgressLine(io, { terminalEveryMs: 200 });
  const started = Date.now();
  try {
    const result = await crawlSite({
      startUrl,
      fetcher: httpPageFetcher(http, { maxBytes: integerFlag(args, 'max-page-bytes', DEFAULT_MAX_PAGE_BYTES) }),
      robots: robotsTxtPolicy(http, userAgent),
      store,
      seeds: booleanFlag(args, 'use-sitemaps') ? (site) => sitemapSeeds(site, http) : undefined,
      maxPages: optionalInteger(args, 'max-pages', 1),
      maxDepth: optionalInteger(args, 'max-depth', 0),
      trapLimits: {
        maxQueryVariants: optionalInteger(args, 'max-query-variants', 1),
        maxPathSegments: optionalInteger(args, 'max-path-segments', 1),
        maxChain: optionalInteger(args, 'max-chain', 1),
      },
      include: listFlag(args, 'include'),
      exclude: listFlag(args, 'exclude'),
      keepParams: listFlag(args, 'keep-param'),
      stripParams: listFlag(args, 'strip-param'),
      concurrency: network.perHost.concurrency,
      delayMs: network.perHost.delayMs,
      onProgress: (p: CrawlProgress) => progress.update(() => formatCrawlProgress(p, Date.now() - started)),
      signal: interruption.signal,
    });
    progress.end();
    const summary = summariseCrawl(store, result, { examples: problems.maxPerRule || -1 });
    const verdict = judgeCrawl(result, summary);
    // Unless told otherwise, the sitemaps are published at the root of the site crawled.
    const baseUrl = stringFlag(args, 'base-url') === undefined ? `${result.site}/` : output.baseUrl;
    const tally = new DiagnosticTally(problems.maxPerRule);
    const published = verdict.publish ? await publish(store, { ...output, baseUrl }, io, tally) : undefined;
    // The report comes whatever happened: it says why nothing was published.
    const leftOutFile =
      reportFile === undefined
        ? undefined
        : { path: reportFile, urls: await writeLeftOutFile(store.leftOut(), reportFile) };
    const report = crawlReport(summary, Date.now() - started, published?.written, leftOutFile);
    io.stdout.write(booleanFlag(args, 'json') ? formatCrawlReportJson(report) : formatCrawlReportText(report));
    const failures = [...verdict.problems, ...(published?.problem === undefined ? [] : [published.problem])];
    if (!result.finished) failures.push(`interrupted; continue with --resume (state in ${databaseFile})`);
    for (const problem of failures) io.stderr.write(`sitemapkit crawl: ${problem}\n`);
    return exitCode({ failed: failures.length > 0, errors: tally.errors, warnings: tally.warnings }, problems.failOn);
  } finally {
    interruption.dispose();
    progress.end();
    store.close();
    await http.close();
  }
}

/**
 * Whether the sitemaps are to be written, and what makes the crawl a failure (exit 1): no start
 * page, nothing to list, pages that could not be read.
 */
function judgeCrawl(result: CrawlResult, summary: CrawlSummary): { publish: boolean; problems: string[] } {
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
async function publish(
  store: CrawlStore,
  options: OutputOptions,
  io: Io,
  tally: DiagnosticTally,
): Promise<{ written?: WriteSummary; problem?: string }> {
  try {
    const written = await writeSitemaps(store.listedEntries(), {
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

/** The names, comma-separated, in lines of at most 96 characters after `indent`. */
function wrapList(names: readonly string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const name of names) {
    const next = line === '' ? name : `${line}, ${name}`;
    if (indent.length + next.length > 96 && line !== '') {
      lines.push(`${indent}${line},`);
      line = name;
    } else line = next;
  }
  lines.push(`${indent}${line}`);
  return lines.join('\n');
}

/** The start URL as typed; `schemeGuessed` when it named no scheme (https is tried first). */
function readStartUrl(args: ParsedArgs): { url: string; schemeGuessed: boolean } {
  const [input, ...rest] = args.positionals;
  if (input === undefined) throw new UsageError('give the URL to start crawling from, e.g. https://www.example.com/');
  if (rest.length > 0) throw new UsageError(`crawl one site at a time; unexpected "${rest[0]}"`);
  const schemeGuessed = !hasScheme(input);
  const url = normaliseCrawlUrl(schemeGuessed ? `https://${input}` : input);
  if (url === undefined) throw new UsageError(`"${input}" is not an http(s) URL to crawl`);
  return { url, schemeGuessed };
}

function optionalInteger(args: ParsedArgs, name: string, min: number): number | undefined {
  return stringFlag(args, name) === undefined ? undefined : integerFlag(args, name, 0, { min });
}

/** The page URLs of the site's existing sitemaps (robots.txt and well-known locations). */
async function* sitemapSeeds(site: string, http: HttpClient): AsyncIterable<string> {
  for await (const entry of walkSitemapTree(site, { http })) {
    if (entry.kind === 'url') yield entry.loc;
  }
}
