/**
 * `sitemapkit crawl URL --out DIR`: crawl a site as a search engine would, and publish the
 * sitemaps of the pages that deserve listing, exactly as `generate` writes them.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { formatDiagnostic } from '../core/diagnostics.js';
import { httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
import { crawlSite, DEFAULT_CONCURRENCY, type CrawlProgress } from '../crawl/crawler.js';
import { normaliseCrawlUrl } from '../crawl/normalise.js';
import { summariseCrawl } from '../crawl/summary.js';
import { HttpClient } from '../discover/http.js';
import { walkSitemapTree } from '../discover/tree.js';
import { writeSitemaps } from '../generate/index.js';
import { crawlReport, formatCrawlProgress, formatCrawlReportJson, formatCrawlReportText } from '../report/crawl.js';
import { CrawlStore } from '../store/crawl-store.js';
import { DEFAULT_STATE_DIR, siteDatabasePath } from '../store/site-database.js';
import { DEFAULT_USER_AGENT } from '../version.js';
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  booleanFlag,
  integerFlag,
  listFlag,
  stringFlag,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';
import { OUTPUT_OPTIONS, OUTPUT_OPTIONS_HELP, readOutputOptions } from './output-options.js';

const HELP = `Crawls the site from URL politely (robots.txt and its Crawl-delay, ${DEFAULT_CONCURRENCY} requests at
a time) and lists the pages that answer 200 with HTML, are not noindex and are their own
canonical. Writes the sitemaps into DIR as "generate" does, and reports what was fetched,
listed and left out, by reason, with examples. The crawl state is kept in SQLite under --state,
so an interrupted crawl continues with --resume.

Crawl:
  --max-pages N          request at most N pages
  --max-depth N          follow links at most N hops from the start (0: the start page only)
  --include GLOB         crawl only URLs whose path (and query) match; repeatable ("/blog/**");
                         a glob starting with http matches the whole URL
  --exclude GLOB         never crawl URLs that match; repeatable ("/search*", "**/*.pdf")
  --strip-param GLOB     drop query parameters with these names; repeatable ("utm_*")
  --delay SECONDS        least time between two requests (robots.txt Crawl-delay may raise it)
  --concurrency N        requests in flight at once (default ${DEFAULT_CONCURRENCY})
  --retries N            extra attempts after a connection error, 429 or 5xx (default 2)
  --use-sitemaps         also start from the URLs of the site's existing sitemaps
  --user-agent UA        User-Agent sent, and matched in robots.txt
                         (default ${DEFAULT_USER_AGENT})
  --state DIR            where the crawl state lives (default ${DEFAULT_STATE_DIR}/ in the working
                         directory; never inside --out)
  --resume               continue the interrupted crawl of this site instead of starting over
  --json                 print the report as JSON

${OUTPUT_OPTIONS_HELP}
                         (crawl: defaults to the start URL's origin)

Examples:
  sitemapkit crawl https://www.example.com/ --out public --gzip
  sitemapkit crawl https://www.example.com/ --out public --exclude "/search*" --strip-param "utm_*"
  sitemapkit crawl https://www.example.com/ --out public --resume

Exit codes: 0 the crawl finished and the sitemaps were written, 1 the start URL could not be
fetched (or the crawl was interrupted), 2 bad usage.`;

/** Outcomes of the start URL that mean there was no site to crawl. */
const START_FAILURES = new Set(['fetch-error', 'http-error', 'robots-blocked']);

export const command: Command = {
  spec: {
    name: 'crawl',
    summary: 'crawl a site and write its sitemaps',
    usage: 'sitemapkit crawl URL --out DIR [options]',
    help: HELP,
    options: {
      ...OUTPUT_OPTIONS,
      'max-pages': { type: 'string' },
      'max-depth': { type: 'string' },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      'strip-param': { type: 'string', multiple: true },
      delay: { type: 'string' },
      concurrency: { type: 'string' },
      retries: { type: 'string' },
      'use-sitemaps': { type: 'boolean' },
      'user-agent': { type: 'string' },
      state: { type: 'string' },
      resume: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  },
  run,
};

async function run(args: ParsedArgs, io: Io): Promise<number> {
  const startUrl = readStartUrl(args);
  const output = readOutputOptions(args, { baseUrl: new URL('/', startUrl).href });
  const stateDir = resolve(stringFlag(args, 'state') ?? DEFAULT_STATE_DIR);
  if (isInside(stateDir, resolve(output.outDir))) {
    throw new UsageError(`--state ${stateDir} is inside --out ${output.outDir}: the crawl state must not be published`);
  }
  const concurrency = integerFlag(args, 'concurrency', DEFAULT_CONCURRENCY);
  const userAgent = stringFlag(args, 'user-agent') ?? DEFAULT_USER_AGENT;
  const resume = booleanFlag(args, 'resume');
  const databaseFile = siteDatabasePath(stateDir, startUrl);
  const store = new CrawlStore(databaseFile, { fresh: !resume });
  if (resume && store.getMeta('start-url') === undefined)
    io.stderr.write(`sitemapkit crawl: no crawl to resume in ${databaseFile}; starting afresh\n`);

  const http = new HttpClient({
    userAgent,
    retries: integerFlag(args, 'retries', 2, { min: 0 }),
    perHostConcurrency: concurrency,
  });
  const interrupted = new AbortController();
  const onSignal = () => interrupted.abort();
  process.once('SIGINT', onSignal);
  const progress = progressLine(io);
  const started = Date.now();
  try {
    const result = await crawlSite({
      startUrl,
      fetcher: httpPageFetcher(http),
      robots: robotsTxtPolicy(http, userAgent),
      store,
      seeds: booleanFlag(args, 'use-sitemaps') ? (site) => sitemapSeeds(site, http) : undefined,
      maxPages: optionalInteger(args, 'max-pages', 1),
      maxDepth: optionalInteger(args, 'max-depth', 0),
      include: listFlag(args, 'include'),
      exclude: listFlag(args, 'exclude'),
      stripParams: listFlag(args, 'strip-param'),
      concurrency,
      delayMs: readDelay(args),
      onProgress: progress.update,
      signal: interrupted.signal,
    });
    progress.done();
    const summary = summariseCrawl(store, { startUrl: result.startUrl, finished: result.finished });
    const failed = !result.finished || START_FAILURES.has(result.startOutcome ?? '');
    // Unless told otherwise, the sitemaps are published at the root of the site crawled.
    const baseUrl = stringFlag(args, 'base-url') === undefined ? `${result.site}/` : output.baseUrl;
    const written = failed
      ? undefined
      : await writeSitemaps(store.listedEntries(), {
          ...output,
          baseUrl,
          onProblem: (problem) => io.stderr.write(`${formatDiagnostic(problem)}\n`),
        });
    const report = crawlReport(summary, Date.now() - started, written);
    io.stdout.write(booleanFlag(args, 'json') ? formatCrawlReportJson(report) : formatCrawlReportText(report));
    if (!result.finished)
      io.stderr.write(`sitemapkit crawl: interrupted; continue with --resume (state in ${databaseFile})\n`);
    else if (failed)
      io.stderr.write(
        `sitemapkit crawl: the start URL ${result.startUrl} could not be fetched: ${result.startDetail ?? 'no answer'}\n`,
      );
    return failed ? EXIT_FAILED : EXIT_OK;
  } finally {
    process.removeListener('SIGINT', onSignal);
    progress.done();
    store.close();
    await http.close();
  }
}

function readStartUrl(args: ParsedArgs): string {
  const [input, ...rest] = args.positionals;
  if (input === undefined) throw new UsageError('give the URL to start crawling from, e.g. https://www.example.com/');
  if (rest.length > 0) throw new UsageError(`crawl one site at a time; unexpected "${rest[0]}"`);
  const url = normaliseCrawlUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`);
  if (url === undefined) throw new UsageError(`"${input}" is not an http(s) URL to crawl`);
  return url;
}

function optionalInteger(args: ParsedArgs, name: string, min: number): number | undefined {
  return stringFlag(args, name) === undefined ? undefined : integerFlag(args, name, 0, { min });
}

/** --delay in seconds (fractions allowed), as milliseconds. */
function readDelay(args: ParsedArgs): number {
  const raw = stringFlag(args, 'delay');
  if (raw === undefined) return 0;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || raw.trim() === '')
    throw new UsageError(`--delay must be a number of seconds, not "${raw}"`);
  return Math.round(seconds * 1000);
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
