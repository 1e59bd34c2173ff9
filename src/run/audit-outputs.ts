/**
 * What an audit run leaves: its rows (--rows), its HTML report (--html) and its summary (or
 * --json), read straight from the run's queue, the same for an audit of one process and for a
 * run on workers (at its end, or by `run finish`). Nothing is copied: the rows are one pass over
 * the run's items in the order listed (two when the sitemaps name hreflang alternates, whose
 * return links are looked up among the checked pages).
 */
import { writeFile } from 'node:fs/promises';
import { reportAudit } from '../audit/audit.js';
import type { StoredCheck } from '../audit/listings.js';
import type { AuditReport } from '../audit/report.js';
import type { AuditRow, AuditRowSource, CheckedListing, CrawlFacts } from '../audit/rows.js';
import { auditHtml } from '../report/audit-html.js';
import { openRowsFile } from '../report/audit-rows.js';
import { formatAuditText } from '../report/audit-text.js';
import type { RunRecord, WorkQueue } from '../store/run-store.js';
import { auditJob, type AuditRunOptions, type ListingInput } from './audit-checks.js';
import type { OutputStreams, OutputsWritten } from './crawl-outputs.js';
import { runOfJob } from './job.js';

/** Where an audit's outputs go, and what fails it. */
export interface AuditOutputs {
  rowsFile?: string | undefined;
  htmlFile?: string | undefined;
  json: boolean;
  /** The least severe finding that fails the audit, and how many of those are tolerated. */
  failOn: 'error' | 'warning' | 'never';
  maxErrors: number;
}

/** An audit run's options as stored: what every worker follows, and where the outputs go. */
export interface StoredAudit extends AuditRunOptions {
  input: string | string[];
  outputs: AuditOutputs;
}

/** What writing an audit's outputs came to: its findings against its budget (--fail-on, --max-errors). */
export interface AuditOutputsWritten extends OutputsWritten {
  budget: { failOn: AuditOutputs['failOn']; allowed: number };
}

/** The streams an audit writes to; on a terminal, the summary is in colour (unless NO_COLOR). */
export interface AuditStreams extends OutputStreams {
  isTerminal?: boolean | undefined;
}

/** What an audit of one process adds: its crawl (--crawl), its state file, and what to do before printing. */
export interface AuditOutputExtras {
  durationMs: number;
  crawl?: { facts: CrawlFacts; summary: NonNullable<AuditReport['crawl']> } | undefined;
  stateFile?: string | undefined;
  beforeOutputs?: (() => void) | undefined;
}

/**
 * Writes an audit run's outputs from its queue: the rows streamed to --rows as the report is
 * made, then --html, then the summary (or --json) on stdout. The audit fails (`failures`) when it
 * stopped before the end or a sitemap could not be read whole, whatever its findings.
 */
export async function writeAuditOutputs(
  store: WorkQueue,
  run: RunRecord,
  streams: AuditStreams,
  extras: AuditOutputExtras,
): Promise<AuditOutputsWritten> {
  const { outputs } = runOfJob<AuditRunOptions, StoredAudit>(auditJob, run).options;
  const rows = outputs.rowsFile === undefined ? undefined : openRowsFile(outputs.rowsFile);
  try {
    const report = await auditReportOf(store, run, {
      crawl: extras.crawl,
      onRow: rows ? (row) => rows.write(row) : undefined,
    });
    extras.beforeOutputs?.();
    await rows?.close();
    if (outputs.htmlFile !== undefined) await writeFile(outputs.htmlFile, auditHtml(report));
    streams.stdout.write(
      outputs.json
        ? `${JSON.stringify(report)}\n`
        : formatAuditText(report, {
            color: streams.isTerminal === true && !process.env.NO_COLOR,
            htmlFile: outputs.htmlFile,
            rowsFile: outputs.rowsFile,
            stateFile: extras.stateFile,
          }),
    );
    const { sitemaps, summary } = report;
    const failures = [
      ...(report.complete ? [] : ['the audit stopped before the end']),
      ...(sitemaps.read === 0 || sitemaps.failed > 0 ? ['a sitemap could not be read whole'] : []),
    ];
    return {
      failures,
      errors: summary.errors,
      warnings: summary.warnings,
      budget: { failOn: outputs.failOn, allowed: outputs.maxErrors },
    };
  } finally {
    await rows?.close().catch(() => 0);
  }
}

/**
 * The report of an audit run, from its queue: one pass over its rows, each handed to `onRow` on
 * the way. Complete when the run is done (and its crawl, with `crawl`, finished).
 */
export async function auditReportOf(
  store: WorkQueue,
  run: RunRecord,
  {
    crawl,
    onRow,
  }: {
    crawl?: { facts: CrawlFacts; summary: NonNullable<AuditReport['crawl']> } | undefined;
    onRow?: ((row: AuditRow) => Promise<void> | void) | undefined;
  } = {},
): Promise<AuditReport> {
  const { options } = runOfJob(auditJob, run);
  return reportAudit(
    await AuditRunRows.read(store, run),
    {
      discovery: options.discovery,
      listed: options.listed,
      complete: run.state === 'done' && (crawl?.summary.finished ?? true),
      now: options.now,
      ...(options.sample === undefined ? {} : { sample: options.sample }),
      ...(crawl === undefined ? {} : { crawl: crawl.summary }),
    },
    crawl?.facts,
    onRow,
  );
}

/** The rows of an audit run, from its queue: its sampled listings in the order listed, with their checks. */
class AuditRunRows implements AuditRowSource {
  private constructor(
    private readonly store: WorkQueue,
    private readonly run: RunRecord,
    /** The live hreflang links of the checked pages that a sitemap names as an alternate. */
    private readonly live: ReadonlyMap<string, string | null>,
  ) {}

  static async read(store: WorkQueue, run: RunRecord): Promise<AuditRunRows> {
    const targets = new Set<string>();
    // A run set down by an earlier release does not say: its items are read for alternates.
    if (runOfJob(auditJob, run).options.alternates !== false)
      for await (const item of store.items(run.id))
        for (const { href } of (item.input as ListingInput | undefined)?.alternates ?? []) targets.add(href);
    const live = new Map<string, string | null>();
    if (targets.size > 0)
      for await (const item of store.items(run.id))
        if (item.result !== undefined && targets.has(item.url))
          live.set(item.url, (item.result as StoredCheck).liveHreflang ?? null);
    return new AuditRunRows(store, run, live);
  }

  async *listings(): AsyncIterable<CheckedListing> {
    for await (const item of this.store.items(this.run.id)) {
      if (item.input === undefined) continue;
      const { repeats: _repeats, ...input } = item.input as ListingInput;
      yield { url: item.url, ...input, check: item.result as StoredCheck | undefined };
    }
  }

  liveHreflangOf(url: string): string | null | undefined {
    return this.live.get(url);
  }
}
