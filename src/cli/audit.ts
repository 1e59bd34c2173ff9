/**
 * `sitemapkit audit SITE_OR_SITEMAP_URL`: does what the site declares match what it serves? Flags
 * and printing only; the work is src/audit/.
 */
import { resolve } from 'node:path';
import { runAudit, type AuditPhase } from '../audit/audit.js';
import type { CheckProgress } from '../audit/checker.js';
import type { CrawlProgress } from '../crawl/types.js';
import type { TreeProgress } from '../discover/tree.js';
import { HttpClient } from '../http/client.js';
import { formatCrawlProgress } from '../report/crawl.js';
import { formatDuration } from '../report/tree.js';
import { formatNumber } from '../report/format.js';
import { SqliteAuditStore } from '../store/audit-store.js';
import { CrawlStore } from '../store/crawl-store.js';
import { auditDatabasePaths, DEFAULT_STATE_DIR } from '../store/site-database.js';
import { UsageError, defineCommand, type Io, type ParsedArgs } from './command.js';
import { listenForInterruption } from './interrupt.js';
import { readNetworkOptions } from './network-options.js';
import { readNow } from './now-option.js';
import { AUDIT_FLAGS, readAuditOutputs, siteOf, writeAuditOutputs } from './audit-common.js';
import { auditOnWorkers } from './audit-run.js';
import { RUN_FLAGS_NOTE, WORKERS, wantsRun } from './run-options.js';
import { ProgressLine } from './progress.js';
import { readSiteInput } from './site-input.js';

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
                        article:modified_time, JSON-LD dateModified)
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

async function run(args: ParsedArgs<typeof AUDIT_FLAGS>, io: Io): Promise<number> {
  const { flags } = args;
  if (wantsRun(flags)) return auditOnWorkers(args, io);
  const input = readSiteInput(args);
  const outputs = readAuditOutputs(flags, io);
  const { maxUrls, maxPages } = flags;
  if (maxPages !== undefined && !flags.crawl) throw new UsageError('--max-pages goes with --crawl');
  const { quiet } = flags;
  const network = readNetworkOptions(flags, io, { quiet });
  const paths = auditDatabasePaths(resolve(flags.state ?? DEFAULT_STATE_DIR), siteOf(input));
  const { resume } = flags;
  const state = new SqliteAuditStore(paths.audit, { fresh: !resume });
  const crawlStore = flags.crawl ? new CrawlStore(paths.crawl, { fresh: !resume }) : undefined;
  const http = new HttpClient(network.http);
  const interruption = listenForInterruption();
  const progress = quiet ? undefined : auditProgress(io);
  try {
    const now = settleClock(state, readNow(flags.now), resume, input, io);
    return await writeAuditOutputs(outputs, io, {
      stateFile: paths.audit,
      beforeOutputs: () => progress?.clear(),
      report: (onRow) =>
        runAudit(input, {
          state,
          http,
          now,
          maxUrls,
          maxDepth: flags.maxDepth,
          maxPageBytes: flags.maxPageBytes,
          concurrency: network.concurrency,
          perHost: network.perHost,
          crawl: crawlStore ? { store: crawlStore, maxPages } : undefined,
          signal: interruption.signal,
          ...(progress ? progress.callbacks : {}),
          onRow,
        }),
    });
  } finally {
    progress?.clear();
    interruption.dispose();
    state.close();
    crawlStore?.close();
    await http.close();
  }
}

/**
 * The audit's clock: --now, else the real one; kept in the state, so that a resumed audit judges
 * its URLs by the clock its first run judged the others by.
 */
function settleClock(
  state: SqliteAuditStore,
  asked: Date | undefined,
  resume: boolean,
  input: string | string[],
  io: Io,
): number {
  const inputText = typeof input === 'string' ? input : input.join(' ');
  const kept = state.getMeta('now');
  if (resume && kept !== undefined) {
    const keptInput = state.getMeta('input');
    if (keptInput !== undefined && keptInput !== inputText)
      throw new UsageError(
        `the audit state in ${state.file} is of "${keptInput}", not "${inputText}": audit again without --resume, or give --state another folder`,
      );
    if (asked !== undefined && asked.getTime() !== Number(kept))
      io.stderr.write(
        `sitemapkit audit: resuming with the first run's clock ${new Date(Number(kept)).toISOString()}, not --now\n`,
      );
    return Number(kept);
  }
  if (resume) io.stderr.write(`sitemapkit audit: no audit to resume in ${state.file}; starting afresh\n`);
  const now = (asked ?? new Date()).getTime();
  state.setMeta('now', String(now));
  state.setMeta('input', inputText);
  return now;
}

/** The progress line of each part of the audit. */
function auditProgress(io: Io): {
  callbacks: {
    onPhase: (phase: AuditPhase) => void;
    onDiscoveryProgress: (progress: TreeProgress) => void;
    onCheckProgress: (progress: CheckProgress) => void;
    onCrawlProgress: (progress: CrawlProgress) => void;
  };
  clear: () => void;
} {
  const line = new ProgressLine(io);
  let phaseStarted = Date.now();
  return {
    callbacks: {
      onPhase: () => {
        line.clear();
        phaseStarted = Date.now();
      },
      onDiscoveryProgress: (p) =>
        line.update(() => `reading sitemaps ${p.nodesDone}/${p.nodesKnown} · ${formatNumber(p.urls)} URLs listed`),
      onCheckProgress: (p) => line.update(() => checkLine(p)),
      onCrawlProgress: (p) => line.update(() => `crawling: ${formatCrawlProgress(p, Date.now() - phaseStarted)}`),
    },
    clear: () => line.clear(),
  };
}

/** "checked 12,345/1,000,000 · 850 URLs/s · 37 with findings · ETA 19 min 22 s" */
function checkLine(p: CheckProgress): string {
  const rate = p.elapsedMs > 0 ? (p.checkedNow * 1000) / p.elapsedMs : 0;
  const left = p.total - p.checked;
  const eta = rate > 0 ? ` · ETA ${formatDuration((left / rate) * 1000)}` : '';
  return `checked ${formatNumber(p.checked)}/${formatNumber(p.total)} · ${formatNumber(Math.round(rate))} URLs/s · ${formatNumber(p.flagged)} with findings${eta}`;
}
