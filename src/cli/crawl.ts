/**
 * `sitemapkit crawl URL --out DIR`: crawl a site as a search engine would, and publish the
 * sitemaps of the pages that deserve listing, exactly as `generate` writes them.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import { DEFAULT_MAX_PAGE_BYTES, httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
import { crawlSite, DEFAULT_CONCURRENCY, type CrawlProgress } from '../crawl/crawler.js';
import { summariseCrawl } from '../crawl/summary.js';
import { TRACKING_PARAMS } from '../crawl/tracking-params.js';
import { DEFAULT_TRAP_LIMITS } from '../crawl/traps.js';
import { HttpClient } from '../discover/http.js';
import { walkSitemapTree } from '../discover/tree.js';
import { crawlReport, formatCrawlProgress, formatCrawlReportJson, formatCrawlReportText } from '../report/crawl.js';
import { writeLeftOutFile } from '../report/crawl-left-out.js';
import { CrawlStore } from '../store/crawl-store.js';
import { DEFAULT_STATE_DIR, siteDatabasePath } from '../store/site-database.js';
import { DEFAULT_USER_AGENT } from '../version.js';
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  booleanFlag,
  integerFlag,
  stringFlag,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';
import { judgeCrawl, optionalInteger, publish, readCrawlRules, readStartUrls } from './crawl-common.js';
import { crawlOnWorkers } from './crawl-run.js';
import { listenForInterruption } from './interrupt.js';
import { RUN_OPTIONS, RUN_OPTIONS_HELP, wantsRun } from './run-options.js';
import { OUTPUT_OPTIONS, OUTPUT_OPTIONS_HELP, readOutputOptions } from './output-options.js';

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
  --delay SECONDS        least time between two requests (robots.txt Crawl-delay may raise it)
  --concurrency N        requests in flight at once (default ${DEFAULT_CONCURRENCY})
  --retries N            attempts after the try at the end, following a connection error,
                         429 or 5xx, with backoff (default 2)
  --use-sitemaps         also start from the URLs of the site's existing sitemaps
  --user-agent UA        User-Agent sent, and matched in robots.txt
                         (default ${DEFAULT_USER_AGENT})
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

${RUN_OPTIONS_HELP}
A crawl on workers (--run, --store or --workers; or several start URLs, the hosts of one site)
keeps --concurrency and --delay per host across all its processes. When its work is done, one
process writes the sitemaps (one directory per host under --out when the site has several) and
the report; "sitemapkit run finish NAME" writes them again. A killed worker loses nothing: its
pages are taken over by the others. Not on workers yet: --resume (a run goes on by itself when
started again), --use-sitemaps, --max-pages; --max-query-variants is counted per process.

${OUTPUT_OPTIONS_HELP}

Examples:
  sitemapkit crawl https://www.example.com/ --out public --gzip
  sitemapkit crawl https://www.example.com/ --out public --exclude "/search*" --report left-out.csv
  sitemapkit crawl https://www.example.com/ --out public --resume
  sitemapkit crawl https://www.example.com/ https://shop.example.com/ --out public --workers 4
  sitemapkit crawl https://www.example.com/ --out public --run weekly --store postgres://crawler@db/sitemaps

Exit codes: 0 the crawl finished, the sitemaps were written and every page was read; 1 the
crawl was interrupted, the start URL could not be fetched, nothing could be listed, the
sitemaps could not be written, or some pages could not be read (a server error, no response, a
page cut off: the sitemaps are written without them); 2 bad usage.`;

export const command: Command = {
  spec: {
    name: 'crawl',
    summary: 'crawl a site and write its sitemaps',
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
      delay: { type: 'string' },
      concurrency: { type: 'string' },
      retries: { type: 'string' },
      'use-sitemaps': { type: 'boolean' },
      'user-agent': { type: 'string' },
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
  const [startUrl] = readStartUrls(args, { several: false }) as [string];
  const output = readOutputOptions(args, { baseUrl: new URL('/', startUrl).href });
  const stateDir = resolve(stringFlag(args, 'state') ?? DEFAULT_STATE_DIR);
  refuseStateInsideOut(stateDir, output.outDir);
  const rules = readCrawlRules(args);
  const userAgent = stringFlag(args, 'user-agent') ?? DEFAULT_USER_AGENT;
  const resume = booleanFlag(args, 'resume');
  const reportFile = stringFlag(args, 'report');
  const databaseFile = siteDatabasePath(stateDir, startUrl);
  const store = new CrawlStore(databaseFile, { fresh: !resume });
  if (resume && store.getMeta('start-url') === undefined)
    io.stderr.write(`sitemapkit crawl: no crawl to resume in ${databaseFile}; starting afresh\n`);

  const http = new HttpClient({
    userAgent,
    retries: integerFlag(args, 'retries', 2, { min: 0 }),
  });
  const interruption = listenForInterruption();
  const progress = progressLine(io);
  const started = Date.now();
  try {
    const result = await crawlSite({
      startUrl,
      fetcher: httpPageFetcher(http, { maxBytes: rules.maxPageBytes }),
      robots: robotsTxtPolicy(http, userAgent),
      store,
      seeds: booleanFlag(args, 'use-sitemaps') ? (site) => sitemapSeeds(site, http) : undefined,
      maxPages: optionalInteger(args, 'max-pages', 1),
      ...rules,
      onProgress: progress.update,
      signal: interruption.signal,
    });
    progress.done();
    const summary = summariseCrawl(store, result);
    const verdict = judgeCrawl(result, summary);
    // Unless told otherwise, the sitemaps are published at the root of the site crawled.
    const baseUrl = stringFlag(args, 'base-url') === undefined ? `${result.site}/` : output.baseUrl;
    const published = verdict.publish ? await publish(store.listedEntries(), { ...output, baseUrl }, io) : undefined;
    // The report comes whatever happened: it says why nothing was published.
    const leftOutFile =
      reportFile === undefined
        ? undefined
        : { path: reportFile, urls: await writeLeftOutFile(store.leftOut(), reportFile) };
    const report = crawlReport(summary, Date.now() - started, published?.written, leftOutFile);
    io.stdout.write(booleanFlag(args, 'json') ? formatCrawlReportJson(report) : formatCrawlReportText(report));
    const problems = [...verdict.problems, ...(published?.problem === undefined ? [] : [published.problem])];
    if (!result.finished) problems.push(`interrupted; continue with --resume (state in ${databaseFile})`);
    for (const problem of problems) io.stderr.write(`sitemapkit crawl: ${problem}\n`);
    return problems.length > 0 ? EXIT_FAILED : EXIT_OK;
  } finally {
    interruption.dispose();
    progress.done();
    store.close();
    await http.close();
  }
}

/** The crawl state must not be published with the site: say where else to keep it. */
function refuseStateInsideOut(stateDir: string, outDir: string): void {
  if (!isInside(stateDir, resolve(outDir))) return;
  const elsewhere = relative(process.cwd(), join(resolve(outDir), '..', DEFAULT_STATE_DIR)) || DEFAULT_STATE_DIR;
  throw new UsageError(
    `--state ${stateDir} is inside --out ${outDir}: the crawl state must not be published with the site. ` +
      `Keep it elsewhere with --state (e.g. --state ${elsewhere}), or publish into a directory of its own (e.g. --out public)`,
  );
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

function isInside(path: string, directory: string): boolean {
  const between = relative(directory, path);
  return between === '' || (!between.startsWith('..') && !isAbsolute(between));
}

/** The page URLs of the site's existing sitemaps (robots.txt and well-known locations). */
async function* sitemapSeeds(site: string, http: HttpClient): AsyncIterable<string> {
  for await (const entry of walkSitemapTree(site, { http })) {
    if (entry.kind === 'url') yield entry.loc;
  }
}

/** The progress line on stderr: redrawn in place on a terminal, a plain line every 10 s otherwise. */
function progressLine(io: Io): { update: (progress: CrawlProgress) => void; done: () => void } {
  const started = Date.now();
  const every = io.stderrIsTerminal ? 200 : 10_000;
  let last: CrawlProgress | undefined;
  let drawnAt = started;
  const draw = (progress: CrawlProgress) => {
    const line = formatCrawlProgress(progress, Date.now() - started);
    io.stderr.write(io.stderrIsTerminal ? `\r\x1b[K${line}` : `${line}\n`);
    drawnAt = Date.now();
  };
  return {
    update(progress) {
      last = progress;
      if (Date.now() - drawnAt >= every) draw(progress);
    },
    /** Draws the final state once, and ends the line on a terminal. */
    done() {
      if (last === undefined) return;
      draw(last);
      if (io.stderrIsTerminal) io.stderr.write('\n');
      last = undefined;
    },
  };
}
