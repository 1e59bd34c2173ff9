/**
 * `sitemapkit crawl URL --out DIR`: crawl a site as a search engine would, and publish the
 * sitemaps of the pages that deserve listing, exactly as `generate` writes them.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { forTerminal } from '../core/terminal.js';
import { DEFAULT_MAX_PAGE_BYTES, httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
import { crawlSite, DEFAULT_CONCURRENCY, type CrawlProgress } from '../crawl/crawler.js';
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { summariseCrawl } from '../crawl/summary.js';
import { TRACKING_PARAMS } from '../crawl/tracking-params.js';
import { DEFAULT_TRAP_LIMITS } from '../crawl/traps.js';
import { HttpClient } from '../http/client.js';
import { withWorkingScheme } from '../discover/roots.js';
import { SitemapSeeds } from '../crawl/sitemap-seeds.js';
import {
  crawlReport,
  formatCrawlProgress,
  formatCrawlReportJson,
  formatCrawlReportText,
  unreadSitemapsProblem,
} from '../report/crawl.js';
import { writeLeftOutFile } from '../report/crawl-left-out.js';
import { RunLock } from '../generate/run-lock.js';
import { CrawlStore } from '../store/crawl-store.js';
import { DEFAULT_STATE_DIR, siteDatabasePath } from '../store/site-database.js';
import { booleanFlag, stringFlag, type Command, type Io, type ParsedArgs } from './command.js';
import {
  CRAWL_NETWORK_DEFAULTS,
  judgeCrawl,
  optionalInteger,
  publish,
  readCrawlRules,
  readStartUrls,
  type StartUrl,
} from './crawl-common.js';
import { crawlOnWorkers } from './crawl-run.js';
import { listenForInterruption } from './interrupt.js';
import { ProgressLine } from './progress.js';
import { networkHelp, networkOptions, readNetworkOptions } from './network-options.js';
import { OUTPUT_OPTIONS, OUTPUT_OPTIONS_HELP, readOutputOptions, refuseStateInsideOut } from './output-options.js';
import { PROBLEM_OPTIONS, PROBLEM_OPTIONS_HELP, exitCode, readProblemOptions } from './problem-options.js';
import { RUN_OPTIONS, RUN_OPTIONS_HELP, wantsRun } from './run-options.js';

const NETWORK_DEFAULTS = CRAWL_NETWORK_DEFAULTS;

const HELP = `Crawls the site from URL politely (robots.txt and its Crawl-delay, ${DEFAULT_CONCURRENCY} requests at
a time) and lists the pages that answer 200 with HTML, are read whole, are not noindex and are
their own canonical. Writes the sitemaps into DIR as "generate" does (for the root of the site
crawled, unless --base-url says otherwise), and reports what was fetched, listed and left out,
by reason, with examples. The crawl state is kept in SQLite under --state, so an interrupted
crawl (Ctrl-C, SIGTERM, even kill -9) continues with --resume.

A page that fails in a way that may pass (no response, 429, 5xx) is set aside, not waited for:
once the rest of the site is done it is fetched again, with --retries more attempts after that.

Crawl:
  --max-pages N          request at most N pages (a redirect followed is a request of its own);
                         on workers, N in all across every process of the run
  --max-depth N          follow links at most N hops from the start (0: the start page only)
  --include GLOB         crawl only URLs whose path (and query) match; repeatable ("/blog/**");
                         a glob starting with http matches the whole URL
  --exclude GLOB         never crawl URLs that match; repeatable ("/search*", "**/*.pdf")
  --keep-param NAME      keep this query parameter although it is a tracking one; repeatable,
                         globs allowed ("utm_campaign", "*" keeps every one)
  --strip-param GLOB     also drop these query parameters; repeatable ("sessionid")
  --max-page-bytes N     read at most N bytes of a page (default ${DEFAULT_MAX_PAGE_BYTES.toLocaleString('en-US')}); a larger
                         page is left out as cut off
  --use-sitemaps         also start from the URLs of the site's existing sitemaps; one that
                         cannot be read whole is named, and fails the run
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
                         next day: /calendar/2024-05 → /calendar/2024-06 …; default ${DEFAULT_TRAP_LIMITS.maxChain}),
                         where they cannot be content: pages alike but for their numbers, or dated
                         far from the present; chains of distinct pages (pagination) are crawled whole

Report:
  --json                 print the report as JSON
  --report FILE          write every URL left out, with its reason and the page it was found
                         on, to FILE: JSON Lines, or CSV when FILE ends in .csv

${PROBLEM_OPTIONS_HELP}
                         The same bound applies to the examples of each reason left out.

${networkHelp('pool', NETWORK_DEFAULTS)}
                       (robots.txt Crawl-delay may raise --delay; --user-agent is also the
                       name matched in robots.txt)

${RUN_OPTIONS_HELP}
A crawl on workers (--run, --store or --workers; or several start URLs, the hosts of one site)
keeps --concurrency and --delay per host across all its processes. When its work is done, one
process writes the sitemaps (one directory per host under --out when the site has several) and
the report; "sitemapkit run finish NAME" writes them again. A killed worker loses nothing: its
pages are taken over by the others. --max-pages is one budget shared by all workers: the run
requests N pages in all, shallowest first on each host, but which N may differ from run to run
and from a crawl of one process (hosts are worked side by side). --use-sitemaps reads the
sitemaps of each host a start URL lands on, as a piece of the run's work; --max-query-variants
is counted across all workers. Not on workers: --resume (a run goes on by itself when started
again).

${OUTPUT_OPTIONS_HELP}

The run fails (exit 1), whatever --fail-on says, when the crawl was interrupted, the start URL
could not be fetched, nothing could be listed, the sitemaps could not be written, or some pages
could not be read (a server error, no response, a page cut off: the sitemaps are written
without them), or, with --use-sitemaps, a sitemap of the site could not be read whole (each is
named); and with --fail-on error (the default) when writing them found a problem.

Examples:
  sitemapkit crawl https://www.example.com/ --out public --gzip
  sitemapkit crawl https://www.example.com/ --out public --exclude "/search*" --report left-out.csv
  sitemapkit crawl https://www.example.com/ --out public --resume
  sitemapkit crawl https://www.example.com/ https://shop.example.com/ --out public --workers 4
  sitemapkit crawl https://www.example.com/ --out public --run weekly --store postgres://crawler@db/sitemaps`;

export const command: Command = {
  spec: {
    name: 'crawl',
    summary: 'Crawl a site as a search engine would, and write its sitemaps.',
    usage: 'sitemapkit crawl URL… --out DIR [options]',
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
      ...RUN_OPTIONS,
    },
  },
  run,
};

async function run(args: ParsedArgs, io: Io): Promise<number> {
  if (wantsRun(args) || args.positionals.length > 1) return crawlOnWorkers(args, io);
  const [typed] = readStartUrls(args, { several: false, io }) as [StartUrl];
  const problems = readProblemOptions(args);
  const network = readNetworkOptions(args, io, { overrides: NETWORK_DEFAULTS });
  const http = new HttpClient(network.http);
  // A host typed without a scheme is tried over https, then over http when its server speaks no TLS.
  const startUrl = typed.schemeGuessed ? await withWorkingScheme(typed.url, http) : typed.url;
  const output = readOutputOptions(args, { baseUrl: new URL('/', startUrl).href });
  const stateDir = resolve(stringFlag(args, 'state') ?? DEFAULT_STATE_DIR);
  refuseStateInsideOut(stateDir, output.outDir, 'crawl state');
  const rules = readCrawlRules(args, network.perHost);
  const userAgent = http.userAgent;
  const resume = booleanFlag(args, 'resume');
  const reportFile = stringFlag(args, 'report');
  const databaseFile = siteDatabasePath(stateDir, startUrl);
  const { store, lock } = await openCrawlState(databaseFile, resume, io);

  const seeds = booleanFlag(args, 'use-sitemaps') ? new SitemapSeeds(http) : undefined;
  const interruption = listenForInterruption();
  const progress = new ProgressLine(io, { terminalEveryMs: 200 });
  const started = Date.now();
  try {
    const result = await crawlSite({
      startUrl,
      fetcher: httpPageFetcher(http, { maxBytes: rules.maxPageBytes }),
      robots: robotsTxtPolicy(http, userAgent),
      store,
      seeds: seeds ? (site) => seeds.urls(site) : undefined,
      maxPages: optionalInteger(args, 'max-pages', 1),
      ...rules,
      onProgress: (p: CrawlProgress) => progress.update(() => formatCrawlProgress(p, Date.now() - started)),
      signal: interruption.signal,
    });
    progress.end();
    const summary = summariseCrawl(store, result, { examples: problems.maxPerRule || -1 });
    const verdict = judgeCrawl(result, summary);
    // Unless told otherwise, the sitemaps are published at the root of the site crawled.
    const baseUrl = stringFlag(args, 'base-url') === undefined ? `${result.site}/` : output.baseUrl;
    const tally = new DiagnosticTally(problems.maxPerRule);
    const published = verdict.publish
      ? await publish(store.listedEntries(), { ...output, baseUrl }, io, tally)
      : undefined;
    // The report comes whatever happened: it says why nothing was published.
    const leftOutFile =
      reportFile === undefined
        ? undefined
        : { path: reportFile, urls: await writeLeftOutFile(store.leftOut(), reportFile) };
    const report = crawlReport(summary, Date.now() - started, published?.written, leftOutFile);
    io.stdout.write(booleanFlag(args, 'json') ? formatCrawlReportJson(report) : formatCrawlReportText(report));
    const seedProblem = seeds === undefined ? undefined : unreadSitemapsProblem(await seeds.unread());
    const failures = [
      ...verdict.problems,
      ...(published?.problem === undefined ? [] : [published.problem]),
      ...(seedProblem === undefined ? [] : [seedProblem]),
    ];
    if (!result.finished) failures.push(`interrupted; continue with --resume (state in ${databaseFile})`);
    for (const problem of failures) io.stderr.write(`sitemapkit crawl: ${forTerminal(problem)}\n`);
    return exitCode({ failed: failures.length > 0, errors: tally.errors, warnings: tally.warnings }, problems.failOn);
  } finally {
    interruption.dispose();
    progress.end();
    store.close();
    await lock.release();
    await http.close();
  }
}

/**
 * The crawl state of a site, held by this crawl alone: a second crawl on the same file is refused
 * (it would delete or repeat the first one's work). A state file that holds no crawl is an error
 * for --resume, not a silent fresh start: only a missing file starts afresh.
 */
async function openCrawlState(file: string, resume: boolean, io: Io): Promise<{ store: CrawlStore; lock: RunLock }> {
  mkdirSync(dirname(file), { recursive: true });
  const { lock } = await RunLock.acquire(`${file}.lock`, file);
  try {
    const existed = existsSync(file);
    const store = new CrawlStore(file, { fresh: !resume });
    if (resume && store.getMeta('start-url') === undefined) {
      if (existed) {
        store.close();
        throw new Error(
          `the crawl state ${file} holds no crawl to resume (it is empty or was cut short); crawl again without --resume to start afresh`,
        );
      }
      io.stderr.write(`sitemapkit crawl: no crawl to resume in ${file}; starting afresh\n`);
    }
    return { store, lock };
  } catch (error) {
    await lock.release();
    throw error;
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
