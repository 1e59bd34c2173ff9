/**
 * `sitemapkit audit SITE_OR_SITEMAP_URL`: does what the site declares match what it serves? Flags
 * and printing only; the work is src/audit/ and the audit's run (run/audit-checks.ts).
 *
 * Every audit is a run: in one process, one worker here on the audit state file of the site (a
 * queue of its own, which --resume continues); on workers (--run, --store, --workers), any number
 * of processes on a shared store. The process that creates the run reads the sitemaps and sets
 * down every listed URL; once every one is checked, the outputs are written from the queue
 * (run/audit-outputs.ts), by the same code as `run finish`.
 */
import { resolve } from 'node:path';
import type { CrawlProgress } from '../crawl/types.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../crawl/adapters.js';
import { resolveStart, type TreeProgress } from '../discover/tree.js';
import { HttpClient } from '../http/client.js';
import { formatCrawlProgress } from '../report/crawl.js';
import { formatNumber } from '../report/format.js';
import { formatDuration } from '../report/tree.js';
import { crawlForAudit } from '../run/audit-crawl.js';
import { auditJob, FLAGGED, NOT_SAMPLED, planAuditRun } from '../run/audit-checks.js';
import { writeAuditOutputs, type AuditOutputs, type StoredAudit } from '../run/audit-outputs.js';
import { runOfJob } from '../run/job.js';
import { takePart, type Participation, type RunPlan } from '../run/session.js';
import type { WorkKind } from '../run/worker.js';
import type { RunRecord, WorkQueue } from '../store/run-store.js';
import { auditDatabasePaths, DEFAULT_STATE_DIR } from '../store/site-database.js';
import { keepOrDiscardStateFile } from '../store/state-file.js';
import { UsageError, defineCommand, type Io, type ParsedArgs } from './command.js';
import { defineFlags, type FlagValues } from './flags.js';
import { listenForInterruption } from './interrupt.js';
import { openLocalState, type LocalRun, type LocalState } from './local-state.js';
import { networkFlags, readNetworkOptions, type NetworkSettings } from './network-options.js';
import { nowFlag, readNow } from './now-option.js';
import { budgetExitCode, PROBLEM_FLAGS } from './problem-options.js';
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
import { readSiteInput } from './site-input.js';

const OUTPUT = 'Output';
const CHECKS = 'Checks';
export const EXIT_STATUS = 'Exit status (an audit stopped before the end always exits 1; continue it with --resume)';
const STATE = 'State';

/** The flags of `sitemapkit audit`, in one process or on workers. */
export const AUDIT_FLAGS = defineFlags({
  json: {
    type: 'boolean',
    group: OUTPUT,
    help: "the report as one JSON object: site, complete, sitemaps, urls, summary, checks (per finding: code, severity, title, count, the first 100 examples), siteChecks (the sitemaps' problems), charts",
  },
  rows: {
    type: 'string',
    value: 'FILE',
    group: OUTPUT,
    help: 'every row to FILE: JSON Lines, or CSV when FILE ends in .csv',
  },
  html: {
    type: 'string',
    value: 'FILE',
    group: OUTPUT,
    help: 'the report as one self-contained HTML file (charts, a table per finding with a filter box; no request leaves it; prints well)',
  },
  quiet: { type: 'boolean', short: 'q', group: OUTPUT, help: 'no progress line on stderr' },
  ...nowFlag(CHECKS, "the audit's clock, for reproducible reports (a resumed audit keeps its first run's)"),
  'max-urls': {
    type: 'integer',
    value: 'N',
    group: CHECKS,
    help: 'check a deterministic sample of N listed URLs (the same ones every run), stated in the report',
  },
  'max-depth': {
    type: 'integer',
    value: 'N',
    min: 0,
    default: 5,
    group: CHECKS,
    help: 'sitemap index levels followed below a root',
  },
  'max-page-bytes': {
    type: 'integer',
    value: 'N',
    default: DEFAULT_MAX_PAGE_BYTES,
    group: CHECKS,
    help: 'read at most N bytes of a page',
  },
  crawl: { type: 'boolean', group: CHECKS, help: 'also crawl the site from its home page, as "crawl" does' },
  'max-pages': { type: 'integer', value: 'N', group: CHECKS, help: 'with --crawl: request at most N pages' },
  'fail-on': {
    ...PROBLEM_FLAGS['fail-on'],
    group: EXIT_STATUS,
    help: 'error, warning, or never: the least severe finding that fails the audit (never: only an audit that could not finish exits 1)',
  },
  'max-errors': {
    type: 'integer',
    value: 'N',
    min: 0,
    default: 0,
    group: EXIT_STATUS,
    help: 'tolerate up to N findings at or above --fail-on: a budget for CI',
  },
  state: {
    type: 'string',
    value: 'DIR',
    group: STATE,
    defaultText: `${DEFAULT_STATE_DIR}/`,
    help: "where the audit's state lives (the queue of its run): each URL is committed as its check ends",
  },
  resume: {
    type: 'boolean',
    group: STATE,
    help: 'continue an interrupted audit of this site (Ctrl-C, SIGTERM, even kill -9) without checking a URL twice',
  },
  ...networkFlags('pool'),
  ...RUN_FLAGS,
});

export type AuditFlags = FlagValues<typeof AUDIT_FLAGS>;

/** Where the outputs go and what fails the audit, from the flags. */
function readAuditOutputs(flags: AuditFlags): AuditOutputs {
  const { rows: rowsFile, html: htmlFile } = flags;
  return {
    ...(rowsFile === undefined ? {} : { rowsFile }),
    ...(htmlFile === undefined ? {} : { htmlFile }),
    json: flags.json,
    failOn: flags.failOn,
    maxErrors: flags.maxErrors,
  };
}

export const command = defineCommand({
  spec: {
    name: 'audit',
    summary: 'Check a live site against its sitemaps: every listed URL fetched and judged.',
    usage: 'sitemapkit audit SITE_OR_SITEMAP_URL… [options]',
    description: `Walks the site's sitemap tree (robots.txt Sitemap: lines, else the well-known locations; each
sitemap fetched once and checked against every rule of the validator), then fetches every listed
URL politely and checks that what the sitemaps declare is what the site serves. A sitemap URL
(or several) starts the tree there instead.

Each listed URL gets one row, with its findings:
  http-4xx, http-5xx, unreachable  the page answers an error, or nothing
  robots-blocked        robots.txt disallows it for Googlebot (or *, or us): not fetched
  noindex               robots or googlebot <meta>, or X-Robots-Tag
  redirect              3xx (finalUrl says where, targetListed whether the target is listed)
  canonical-elsewhere   the page's canonical is another URL
  http-on-https         an http URL listed for a site that answers over https
  duplicate-listing     listed twice, or beside its http/https or www twin
  cut-off               the page went past --max-page-bytes
  lastmod-future        lastmod later than the audit's clock
  lastmod-stale         the page says it changed more than a day after its lastmod (Last-Modified,
                        article:modified_time, JSON-LD or microdata dateModified; a Last-Modified
                        that is one build's time on most pages of a host is not believed)
  hreflang-mismatch     the sitemap's alternates differ from the live page's hreflang links
  hreflang-no-return    the sitemap names B as an alternate, and B's live links do not name it back
  not-html              listed as a page, served as something else (info)
  with --crawl: orphan (listed, but no crawled page leads to it), and a row for each indexable
  page the crawl found that no sitemap lists (not-listed)
Each finding is a rule of the catalog (sitemapkit rules URL-011); the sitemaps' own problems
(the validator's, sitemaps that could not be read, robots.txt Sitemap: lines missing or pointing
at nothing) are reported beside them.

Without --json, it prints a one-screen summary: counts per finding with two examples each.`,
    flags: AUDIT_FLAGS,
    notes: {
      [WORKERS]: `${RUN_FLAGS_NOTE}
On workers, the first process reads the sitemaps and sets down every listed URL; the workers
check them host by host (--concurrency and --delay per host across all of them), and the
outputs (summary or --json, --rows, --html) are written once, when every URL is checked, by the
process that sees it (or again by sitemapkit run finish). Not with --crawl or --resume.`,
    },
    epilogue: `Examples:
  sitemapkit audit example.com --html audit.html
  sitemapkit audit https://www.example.com/sitemap_index.xml --rows rows.csv --max-urls 10000
  sitemapkit audit example.com --crawl --json > audit.json
  sitemapkit audit example.com --fail-on warning --max-errors 20   # in CI
  sitemapkit audit example.com --rows rows.csv --run weekly --store postgres://db/sitemapkit --workers 4`,
  },
  run,
});

/** The state file of an audit of one process: it goes on from the audit of the same input. */
function localAudit(input: string | string[]): LocalRun<StoredAudit> {
  return {
    command: 'audit',
    runName: 'audit',
    former: { table: 'audit_urls', what: 'the audit state' },
    keep: (run, file) => {
      const kept = runOfJob<StoredAudit>(auditJob, run).options;
      if (inputText(kept.input) !== inputText(input))
        throw new UsageError(
          `the audit state in ${file} is of "${inputText(kept.input)}", not "${inputText(input)}": audit again without --resume, or give --state another folder`,
        );
      return kept;
    },
  };
}
/**
 * URLs leased at a time by the one worker of an audit of one process: no other worker waits for
 * them, and each claim is a transaction (bench:audit).
 */
const LOCAL_BATCH = 64;

async function run(args: ParsedArgs<typeof AUDIT_FLAGS>, io: Io): Promise<number> {
  const { flags } = args;
  const onWorkers = wantsRun(flags);
  if (onWorkers)
    for (const [flag, why] of [
      ['resume', 'a run resumes by itself: start the same command again with the same --run'],
      ['crawl', 'is not available on workers yet: audit with --crawl in one process'],
    ] as const)
      if (flags[flag]) throw new UsageError(`--${flag} ${why}`);
  const input = readSiteInput(args);
  const outputs = readAuditOutputs(flags);
  const { maxPages, quiet, resume } = flags;
  if (maxPages !== undefined && !flags.crawl) throw new UsageError('--max-pages goes with --crawl');
  const network = readNetworkOptions(flags, io, { quiet });
  const stateDir = resolve(flags.state ?? DEFAULT_STATE_DIR);
  const paths = auditDatabasePaths(stateDir, siteOf(input));
  let local: LocalState<StoredAudit> | undefined;
  let who: Participation;
  if (onWorkers) who = readParticipation(flags, `audit ${siteOf(input)}`, stateDir);
  else {
    local = await openLocalState(paths.audit, resume, localAudit(input), io);
    who = local.who;
  }
  const interruption = listenForInterruption();
  const http = new HttpClient({ ...network.http, signal: interruption.signal });
  const progress = quiet ? undefined : new ProgressLine(io);
  const crawlFile =
    local && flags.crawl
      ? keepOrDiscardStateFile(paths.crawl, {
          fresh: !resume,
          former: { table: 'crawl_urls', what: 'the crawl state' },
          advice: 'audit again without --resume',
        })
      : undefined;
  const started = Date.now();
  try {
    const now = local ? settleClock(local, readNow(flags.now), io) : (readNow(flags.now) ?? new Date()).getTime();
    // A run on workers writes where its creator says, whoever writes it: the paths made absolute.
    const stored = {
      input,
      outputs: onWorkers
        ? {
            ...outputs,
            ...(outputs.rowsFile === undefined ? {} : { rowsFile: resolve(outputs.rowsFile) }),
            ...(outputs.htmlFile === undefined ? {} : { htmlFile: resolve(outputs.htmlFile) }),
          }
        : outputs,
    };
    const plan = async (): Promise<RunPlan<StoredAudit>> => {
      if (!quiet && onWorkers) io.stderr.write('reading the sitemaps…\n');
      const planned = await planAuditRun(input, {
        http,
        now,
        maxUrls: flags.maxUrls,
        maxDepth: flags.maxDepth,
        maxPageBytes: flags.maxPageBytes,
        concurrency: network.concurrency,
        perHost: network.perHost,
        signal: interruption.signal,
        onProgress: (p: TreeProgress) =>
          progress?.update(
            () => `reading sitemaps ${p.nodesDone}/${p.nodesKnown} · ${formatNumber(p.urls)} URLs listed`,
          ),
      });
      progress?.clear();
      if (!quiet && onWorkers) io.stderr.write(`${formatNumber(planned.toCheck)} listed URLs to check on workers\n`);
      return { ...planned, options: { ...planned.options, ...stored } };
    };
    const taken = await takePart(
      who,
      { kind: auditJob.kind, make: plan },
      async (run, store) => {
        const kind = auditJob.step(run, { store, http });
        const pace = { concurrency: run.options.concurrency };
        if (local === undefined) return { kind, pace };
        const counts = await CheckCounts.of(store, run.name);
        // Each URL is committed as its check ends: kill -9 loses only those in flight or checked
        // in the last few ms (see WorkerOptions.commitEach).
        return {
          kind: counts.counting(kind, () => progress?.update(() => counts.line())),
          commitEach: true,
          batch: LOCAL_BATCH,
          pace,
        };
      },
      { workerArgs: workerCommandLine(process.argv.slice(2)), stdout: io.stdout, stderr: io.stderr },
      interruption.signal,
    );
    if (local === undefined)
      return await endOfPart('audit', who, taken, io, async () => {
        const written = await writeAuditOutputs(taken.store, taken.run, io, { durationMs: Date.now() - started });
        return budgetExitCode('audit', written, written.budget, io.stderr);
      });
    try {
      progress?.clear();
      // An audit of one process resumed writes where this command says.
      const run = { ...taken.run, options: { ...(taken.run.options as StoredAudit), outputs } };
      const crawl =
        crawlFile !== undefined && taken.run.state === 'done'
          ? await crawlTheSite(taken.store, run, {
              http,
              network,
              crawlFile,
              maxPages,
              progress,
              signal: interruption.signal,
            })
          : undefined;
      const written = await writeAuditOutputs(taken.store, run, io, {
        durationMs: Date.now() - started,
        crawl,
        stateFile: local.file,
        beforeOutputs: () => progress?.clear(),
      });
      return budgetExitCode('audit', written, written.budget, io.stderr);
    } finally {
      await taken.store.close();
    }
  } finally {
    progress?.clear();
    interruption.dispose();
    await http.close();
    await local?.lock.release();
  }
}

/** The origin the state is named after: the site's, or the first sitemap URL's. */
function siteOf(input: string | string[]): string {
  const start = resolveStart(typeof input === 'string' ? input : input[0]!);
  return start.mode === 'site' ? start.site : new URL(start.url).origin;
}

function inputText(input: string | string[]): string {
  return typeof input === 'string' ? input : input.join(' ');
}

/**
 * The audit's clock: --now, else the real one; a resumed audit keeps its first run's, so that it
 * judges its URLs by the clock the others were judged by.
 */
function settleClock(local: LocalState<StoredAudit>, asked: Date | undefined, io: Io): number {
  if (local.kept === undefined) return (asked ?? new Date()).getTime();
  const kept = local.kept.now;
  if (asked !== undefined && asked.getTime() !== kept)
    io.stderr.write(
      `sitemapkit audit: resuming with the first run's clock ${new Date(kept).toISOString()}, not --now\n`,
    );
  return kept;
}

/** --crawl: the site crawled from its home page, as "crawl" does, once every listed URL is checked. */
async function crawlTheSite(
  store: WorkQueue,
  run: RunRecord,
  how: {
    http: HttpClient;
    network: NetworkSettings;
    crawlFile: string;
    maxPages: number | undefined;
    progress: ProgressLine | undefined;
    signal: AbortSignal;
  },
): ReturnType<typeof crawlForAudit> {
  const { options } = runOfJob<StoredAudit>(auditJob, run);
  const crawlStarted = Date.now();
  return crawlForAudit(options.discovery, {
    file: how.crawlFile,
    listedUrls: async function* () {
      for await (const item of store.items(run.id)) yield item.url;
    },
    http: how.http,
    maxPageBytes: options.maxPageBytes,
    maxPages: how.maxPages,
    perHost: how.network.perHost,
    signal: how.signal,
    onProgress: (p: CrawlProgress) =>
      how.progress?.update(() => `crawling: ${formatCrawlProgress(p, Date.now() - crawlStarted)}`),
  });
}

/**
 * The counts of the progress line of an audit of one process: read from the queue when the work
 * starts (a resumed audit's earlier checks included), and counted from each check after.
 */
class CheckCounts {
  private readonly started = Date.now();
  private checkedNow = 0;

  private constructor(
    private checked: number,
    private readonly total: number,
    private flagged: number,
  ) {}

  static async of(store: WorkQueue, name: string): Promise<CheckCounts> {
    const status = await store.status(name);
    const outcomes = status?.outcomes ?? {};
    let checked = 0;
    for (const [outcome, n] of Object.entries(outcomes)) if (outcome !== NOT_SAMPLED) checked += n;
    return new CheckCounts(checked, checked + (status?.todo ?? 0), outcomes[FLAGGED] ?? 0);
  }

  /** `kind`, its checks counted here; `draw` told after each. */
  counting<Result>(kind: WorkKind<Result>, draw: () => void): WorkKind<Result> {
    return {
      ...kind,
      hostDelay: (host, signal) => kind.hostDelay(host, signal),
      visit: async (item, lease, signal) => {
        const visit = await kind.visit(item, lease, signal);
        if (visit.outcome !== undefined) {
          this.checked += 1;
          this.checkedNow += 1;
          if (visit.outcome === FLAGGED) this.flagged += 1;
          draw();
        }
        return visit;
      },
    };
  }

  /** "checked 12,345/1,000,000 · 850 URLs/s · 37 with findings · ETA 19 min 22 s" */
  line(): string {
    const elapsedMs = Date.now() - this.started;
    const rate = elapsedMs > 0 ? (this.checkedNow * 1000) / elapsedMs : 0;
    const left = this.total - this.checked;
    const eta = rate > 0 ? ` · ETA ${formatDuration((left / rate) * 1000)}` : '';
    return `checked ${formatNumber(this.checked)}/${formatNumber(this.total)} · ${formatNumber(Math.round(rate))} URLs/s · ${formatNumber(this.flagged)} with findings${eta}`;
  }
}
