/**
 * `sitemapkit crawl URL… --out DIR`: crawl a site as a search engine would, and publish the
 * sitemaps of the pages that deserve listing, exactly as `generate` writes them.
 *
 * Every crawl is a run (run/crawl-pages.ts): in one process, one worker here on the crawl state
 * file of the site (a queue of its own, which --resume continues); on workers (--run, --store,
 * --workers, or several start URLs), any number of processes on a shared store. Once the run's
 * work is done, its sitemaps and report are written from the queue (run/crawl-outputs.ts).
 */
import { resolve } from 'node:path';
import { diagnostic, formatDiagnostic } from '../core/diagnostics.js';
import { splitUserinfo, userinfoProblem, withoutUserinfo } from '../core/url-userinfo.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../crawl/adapters.js';
import { folderUrl, normaliseCrawlUrl } from '../crawl/normalise.js';
import { TRACKING_PARAMS } from '../crawl/tracking-params.js';
import { DEFAULT_TRAP_LIMITS } from '../crawl/traps.js';
import { DEFAULT_CONCURRENCY } from '../crawl/types.js';
import { hasScheme, withWorkingScheme } from '../discover/roots.js';
import { HttpClient } from '../http/client.js';
import { formatCrawlProgress } from '../report/crawl.js';
import { crawlJob, type CrawlRules } from '../run/crawl-pages.js';
import { writeCrawlOutputs, type StoredCrawl } from '../run/crawl-outputs.js';
import { workCrawlHere } from '../run/crawl-site.js';
import { takePart, type Participation } from '../run/session.js';
import { DEFAULT_STATE_DIR, siteDatabasePath } from '../store/site-database.js';
import { DEFAULT_USER_AGENT } from '../version.js';
import { defineCommand, UsageError, type Io, type ParsedArgs } from './command.js';
import { defineFlags, type FlagValues } from './flags.js';
import { listenForInterruption } from './interrupt.js';
import { openLocalState, type LocalRun, type LocalState } from './local-state.js';
import { NETWORK, networkFlags, readNetworkOptions, type NetworkSettings } from './network-options.js';
import { OUTPUT_FLAGS, readOutputOptions, refuseStateInsideOut } from './output-options.js';
import { PROBLEM_FLAGS, PROBLEMS, exitCode } from './problem-options.js';
import { ProgressLine } from './progress.js';
import {
  endOfPart,
  readParticipation,
  RUN_FLAGS,
  RUN_FLAGS_NOTE,
  WORKERS,
  wantsRun,
  workerCommandLine,
} from './run-options.js';

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
  quiet: { type: 'boolean', short: 'q', group: REPORT, help: 'no progress line and no notice of a retry on stderr' },
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

A page that fails in a way that may pass (no response, 429, 5xx) is tried again, --retries
times, after a backoff (or the server's Retry-After); while it waits, other pages are fetched.`,
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
(hosts are worked side by side). --use-sitemaps reads the sitemaps of each host a start URL
lands on, as a piece of the run's work; --max-query-variants is counted across all workers. Not
on workers: --resume (a run goes on by itself when started again).`,
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

/**
 * The state file of a crawl of one process. The crawl it holds goes on as its run says, so nothing
 * is kept but that it goes on. One that holds no crawl is an error, not a silent fresh start: only
 * a missing file starts afresh.
 */
const LOCAL_CRAWL: LocalRun<true> = {
  command: 'crawl',
  runName: 'crawl',
  former: { table: 'crawl_urls', what: 'the crawl state' },
  keep: () => true,
  noRunRefusal: 'holds no crawl to resume (it is empty or was cut short)',
};

async function run(args: ParsedArgs<typeof CRAWL_FLAGS>, io: Io): Promise<number> {
  const { flags } = args;
  const onWorkers = wantsRun(flags) || args.positionals.length > 1;
  if (onWorkers && flags.resume)
    throw new UsageError('--resume a run resumes by itself: start the same command again with the same --run');
  const problems = { failOn: flags.failOn, maxPerRule: flags.maxPerRule };
  const { quiet } = flags;
  const network = readNetworkOptions(flags, io, { quiet });
  const startUrls = await startUrlsOf(args, onWorkers, network, io);
  const output = readOutputOptions(flags, { baseUrl: new URL('/', startUrls[0]).href });
  const stateDir = resolve(flags.state ?? DEFAULT_STATE_DIR);
  const rules = readCrawlRules(flags, network.perHost);
  const { report, maxPages } = flags;
  const options: StoredCrawl = {
    ...rules,
    ...(maxPages === undefined ? {} : { maxPages }),
    ...(flags.useSitemaps ? { useSitemaps: true } : {}),
    startUrls,
    output: { ...output, outDir: resolve(output.outDir) },
    baseUrlGiven: flags.baseUrl !== undefined,
    ...(report === undefined ? {} : { report: resolve(report) }),
    json: flags.json,
    maxPerRule: problems.maxPerRule,
  };
  let local: LocalState<true> | undefined;
  let who: Participation;
  if (onWorkers) who = readParticipation(flags, `crawl ${new URL(startUrls[0]!).host}`, stateDir);
  else {
    refuseStateInsideOut(stateDir, output.outDir, 'crawl state');
    local = await openLocalState(siteDatabasePath(stateDir, startUrls[0]!), flags.resume, LOCAL_CRAWL, io);
    who = local.who;
  }
  const userAgent = network.http.userAgent ?? DEFAULT_USER_AGENT;
  const seeds = startUrls.map((url) => ({ url, host: new URL(url).origin, depth: 0 }));
  const interruption = listenForInterruption();
  const progress = quiet ? undefined : new ProgressLine(io, { terminalEveryMs: 200 });
  const started = Date.now();
  try {
    const plan = {
      kind: crawlJob.kind,
      options,
      seeds,
      pace: { concurrency: rules.concurrency },
      state: 'starting' as const,
      budget: maxPages,
    };
    // No signal to the client: a page in flight when the crawl is stopped is finished and kept.
    const newHttp = () => new HttpClient({ ...network.http, userAgent });
    const taken =
      local === undefined
        ? await takePart(
            who,
            plan,
            (run, store) => {
              const http = newHttp();
              const kind = crawlJob.step(run, { store, http });
              return Promise.resolve({
                kind,
                pace: { concurrency: run.options.concurrency },
                close: () => http.close(),
              });
            },
            { workerArgs: workerCommandLine(process.argv.slice(2)), stdout: io.stdout, stderr: io.stderr },
            interruption.signal,
          )
        : await workCrawlHere(who, plan, {
            http: newHttp,
            ownsHttp: true,
            onProgress: (counts) => progress?.update(() => formatCrawlProgress(counts, Date.now() - started)),
            signal: interruption.signal,
          });
    const writeOutputs = async () => {
      // A crawl of one process resumed writes where this command says; a run, where its creator said.
      const { output: out, baseUrlGiven, json, maxPerRule } = options;
      const run =
        local === undefined
          ? taken.run
          : {
              ...taken.run,
              options: {
                ...(taken.run.options as StoredCrawl),
                output: out,
                baseUrlGiven,
                json,
                maxPerRule,
                report: options.report,
              },
            };
      const written = await writeCrawlOutputs(taken.store, run, io, { durationMs: Date.now() - started });
      return exitCode(
        { failed: written.failures.length > 0, errors: written.errors, warnings: written.warnings },
        problems.failOn,
      );
    };
    if (local === undefined) return await endOfPart('crawl', who, taken, io, writeOutputs);
    try {
      progress?.end();
      const code = await writeOutputs();
      if (taken.run.state === 'done') return code;
      io.stderr.write(`sitemapkit crawl: interrupted; continue with --resume (state in ${local.file})\n`);
      return exitCode({ failed: true, errors: 0, warnings: 0 }, problems.failOn);
    } finally {
      await taken.store.close();
    }
  } finally {
    interruption.dispose();
    progress?.end();
    await local?.lock.release();
  }
}

/**
 * The start URLs: several on workers (the hosts of one site), one in one process, where a host
 * typed without a scheme is tried over https, then over http when its server speaks no TLS.
 * Workers take the URLs as given: a host alone is https.
 */
async function startUrlsOf(
  args: ParsedArgs<typeof CRAWL_FLAGS>,
  onWorkers: boolean,
  network: NetworkSettings,
  io: Io,
): Promise<string[]> {
  const starts = readStartUrls(args, { several: onWorkers, io });
  if (onWorkers || !starts[0]!.schemeGuessed) return starts.map((start) => start.url);
  const http = new HttpClient(network.http);
  try {
    return [await withWorkingScheme(starts[0]!.url, http)];
  } finally {
    await http.close();
  }
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
    // A folder's index file is crawled as the folder's URL, as its links are (crawl/normalise.ts).
    const normalised = normaliseCrawlUrl(typed);
    const url = normalised === undefined ? undefined : folderUrl(normalised);
    if (url === undefined) throw new UsageError(`"${withoutUserinfo(input)}" is not an http(s) URL to crawl`);
    const userinfo = splitUserinfo(typed);
    if (userinfo !== undefined)
      io.stderr.write(`${formatDiagnostic(diagnostic('URL-024', userinfoProblem(userinfo.host).message))}\n`);
    return { url, schemeGuessed };
  });
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
