/**
 * The audit for library users: a run on a queue (a SQLite file, or a PostgreSQL store shared with
 * workers), worked by one worker in this process, its report read from the queue. What the CLI
 * does in one process, without flags and printing; started again on the same store and name, it
 * goes on where it stopped.
 */
import type { AuditReport } from '../audit/report.js';
import type { AuditRow } from '../audit/rows.js';
import { auditJob, planAuditRun, type AuditPlanOptions } from './audit-checks.js';
import { auditReportOf } from './audit-outputs.js';
import { takePart } from './session.js';

/** What {@link runAudit} needs: where its run is kept, the HTTP client, its clock and limits. */
export interface AuditOptions extends AuditPlanOptions {
  /** The run's store: a SQLite file, or a postgres:// URL. A run of the same name there is continued. */
  store: string;
  /** The run's name in the store (default "audit"). */
  name?: string | undefined;
  /** Each row as the report is made, in the order listed (to write them somewhere); awaited. */
  onRow?: ((row: AuditRow) => Promise<void> | void) | undefined;
}

/**
 * Audits `input` (a site, or sitemap URLs): the sitemaps read once, every listed URL (or the
 * sample of `maxUrls`) checked politely, then the report. `complete` is false when `signal`
 * stopped it; started again with the same store and name, it checks only what is left.
 */
export async function runAudit(input: string | readonly string[], options: AuditOptions): Promise<AuditReport> {
  const { http, signal } = options;
  const taken = await takePart(
    { store: options.store, name: options.name ?? auditJob.kind, workerOnly: false },
    { kind: auditJob.kind, make: () => planAuditRun(input, options) },
    (run, store) =>
      Promise.resolve({ kind: auditJob.step(run, { store, http }), pace: { concurrency: run.options.concurrency } }),
    { workerArgs: [], stdout: process.stdout, stderr: process.stderr },
    signal,
  );
  try {
    return await auditReportOf(taken.store, taken.run, { onRow: options.onRow });
  } finally {
    await taken.store.close();
  }
}
