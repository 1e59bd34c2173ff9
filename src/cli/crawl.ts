/**
 * `sitemapkit crawl URL --out DIR`: crawl a site as a search engine would, and publish the
 * sitemaps of the pages that deserve listing, exactly as `generate` writes them.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { forTerminal } from '../core/terminal.js';
import { httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
import { crawlSite, DEFAULT_CONCURRENCY, type CrawlProgress } from '../crawl/crawler.js';
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { summariseCrawl } from '../crawl/summary.js';
import { TRACKING_PARAMS } from '../crawl/tracking-params.js';
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
import { defineCommand, type Io, type ParsedArgs } from './command.js';
import { CRAWL_FLAGS, judgeCrawl, publish, readCrawlRules, readStartUrls, type StartUrl } from './crawl-common.js';
import { crawlOnWorkers } from './crawl-run.js';
import { listenForInterruption } from './interrupt.js';
import { ProgressLine } from './progress.js';
import { NETWORK, readNetworkOptions } from './network-options.js';
import { readOutputOptions, refuseStateInsideOut } from './output-options.js';
import { PROBLEMS, exitCode } from './problem-options.js';
import { RUN_FLAGS_NOTE, WORKERS, wantsRun } from './run-options.js';

export const command = defineCommand({
  spec: {
    name: 'crawl',
    summary: 'Crawl a site as a search engine would, and write its sitemaps.',
    usage: 'sitemapkit crawl URL… --out DIR [options]',
    description: `Crawls the site from URL politely (robots.txt and its Crawl-delay, ${DEFAULT_CONCURRENCY} requests at
a time) and lists the pages that answer 200 with HTML, are read whole, are not noindex and are
their own canonical. Writes the sitemaps into DIR as "generate" does (for the root of the site
crawled, unless --base-url says otherwise), and reports what was fetched, listed and left out,
by reason, with examples. The crawl state is kept in SQLite under --state, so an interrupted
crawl (Ctrl-C, SIGTERM, even kill -9) continues with --resume.

A page that fails in a way that may pass (no response, 429, 5xx) is set aside, not waited for:
once the rest of the site is done it is fetched again, with --retries more attempts after that.`,
    flags: CRAWL_FLAGS,
    notes: {
      Crawl: `
Tracking parameters, removed from every URL unless kept with --keep-param:
${wrapList(TRACKING_PARAMS, '  ')}`,
      [PROBLEMS]: '                         The same bound applies to the examples of each reason left out.',
      [NETWORK]: `                         (robots.txt Crawl-delay may raise --delay; --user-agent is also the
                         name matched in robots.txt)`,
      [WORKERS]: `${RUN_FLAGS_NOTE}
A crawl on workers (--run, --store or --workers; or several start URLs, the hosts of one site)
keeps --concurrency and --delay per host across all its processes. When its work is done, one
process writes the sitemaps (one directory per host under --out when the site has several) and
the report; "sitemapkit run finish NAME" writes them again. A killed worker loses nothing: its
pages are taken over by the others. --max-pages is one budget shared by all workers: the run
requests N pages in all, shallowest first on each host, but which N may differ from run to run
and from a crawl of one process (hosts are worked side by side). --use-sitemaps reads the
sitemaps of each host a start URL lands on, as a piece of the run's work; --max-query-variants
is counted across all workers. Not on workers: --resume (a run goes on by itself when started
again).`,
    },
    epilogue: `The run fails (exit 1), whatever --fail-on says, when the crawl was interrupted, the start URL
could not be fetched, nothing could be listed, the sitemaps could not be written, or some pages
could not be read (a server error, no response, a page cut off: the sitemaps are written
without them), or, with --use-sitemaps, a sitemap of the site could not be read whole (each is
named); and with --fail-on error (the default) when writing them found a problem.

Examples:
  sitemapkit crawl https://www.example.com/ --out public --gzip
  sitemapkit crawl https://www.example.com/ --out public --exclude "/search*" --report left-out.csv
  sitemapkit crawl https://www.example.com/ --out public --resume
  sitemapkit crawl https://www.example.com/ https://shop.example.com/ --out public --workers 4
  sitemapkit crawl https://www.example.com/ --out public --run weekly --store postgres://crawler@db/sitemaps`,
  },
  run,
});

async function run(args: ParsedArgs<typeof CRAWL_FLAGS>, io: Io): Promise<number> {
  const { flags } = args;
  if (wantsRun(flags) || args.positionals.length > 1) return crawlOnWorkers(args, io);
  const [typed] = readStartUrls(args, { several: false, io }) as [StartUrl];
  const problems = { failOn: flags.failOn, maxPerRule: flags.maxPerRule };
  const network = readNetworkOptions(flags, io);
  const http = new HttpClient(network.http);
  // A host typed without a scheme is tried over https, then over http when its server speaks no TLS.
  const startUrl = typed.schemeGuessed ? await withWorkingScheme(typed.url, http) : typed.url;
  const output = readOutputOptions(flags, { baseUrl: new URL('/', startUrl).href });
  const stateDir = resolve(flags.state ?? DEFAULT_STATE_DIR);
  refuseStateInsideOut(stateDir, output.outDir, 'crawl state');
  const rules = readCrawlRules(flags, network.perHost);
  const userAgent = http.userAgent;
  const { resume, report: reportFile } = flags;
  const databaseFile = siteDatabasePath(stateDir, startUrl);
  const { store, lock } = await openCrawlState(databaseFile, resume, io);

  const seeds = flags.useSitemaps ? new SitemapSeeds(http) : undefined;
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
      maxPages: flags.maxPages,
      ...rules,
      onProgress: (p: CrawlProgress) => progress.update(() => formatCrawlProgress(p, Date.now() - started)),
      signal: interruption.signal,
    });
    progress.end();
    const summary = summariseCrawl(store, result, { examples: problems.maxPerRule || -1 });
    const verdict = judgeCrawl(result, summary);
    // Unless told otherwise, the sitemaps are published at the root of the site crawled.
    const baseUrl = flags.baseUrl === undefined ? `${result.site}/` : output.baseUrl;
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
    io.stdout.write(flags.json ? formatCrawlReportJson(report) : formatCrawlReportText(report));
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
