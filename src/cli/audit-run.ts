/**
 * `sitemapkit audit SITE… --run NAME [--store URL] [--workers N]`: the checks of an audit as a run
 * shared by workers on any number of machines (run/audit-checks.ts). The process that creates the
 * run reads the sitemaps; once every listed URL is checked, one process writes the outputs from
 * the store, with the same code as an audit of one process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chooseSample, reportAudit } from '../audit/audit.js';
import { discoverListings } from '../audit/discovery.js';
import { HttpClient } from '../http/client.js';
import { formatNumber } from '../report/format.js';
import { auditJob, listingItems, restoreAuditRun, type AuditRunOptions } from '../run/audit-checks.js';
import { runOfJob } from '../run/job.js';
import { takePart, type RunPlan } from '../run/session.js';
import { SqliteAuditStore } from '../store/audit-store.js';
import type { RunRecord, RunStore } from '../store/run-store.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import type { AUDIT_FLAGS } from './audit-common.js';
import { readAuditOutputs, siteOf, writeAuditOutputs, type AuditOutputs } from './audit-common.js';
import { UsageError, type Io, type ParsedArgs } from './command.js';
import { listenForInterruption } from './interrupt.js';
import { readNetworkOptions, type NetworkSettings } from './network-options.js';
import { readNow } from './now-option.js';
import { endOfPart, readParticipation, workerCommandLine } from './run-options.js';
import { readSiteInput } from './site-input.js';

/** An audit run's options as stored: what every worker follows, and where the outputs go. */
export interface StoredAudit extends AuditRunOptions {
  input: string | string[];
  outputs: Omit<AuditOutputs, 'color'>;
}

export async function auditOnWorkers(args: ParsedArgs<typeof AUDIT_FLAGS>, io: Io): Promise<number> {
  const { flags } = args;
  for (const [flag, why] of [
    ['resume', 'a run resumes by itself: start the same command again with the same --run'],
    ['crawl', 'is not available on workers yet: audit with --crawl in one process'],
  ] as const)
    if (flags[flag]) throw new UsageError(`--${flag} ${why}`);
  const input = readSiteInput(args);
  const { quiet } = flags;
  const network = readNetworkOptions(flags, io, { quiet });
  const { color: _color, ...outputs } = readAuditOutputs(flags, io);
  const stateDir = resolve(flags.state ?? DEFAULT_STATE_DIR);
  const who = readParticipation(flags, `audit ${siteOf(input)}`, stateDir);
  const limits = {
    maxUrls: flags.maxUrls,
    maxDepth: flags.maxDepth,
    maxPageBytes: flags.maxPageBytes,
    now: (readNow(flags.now) ?? new Date()).getTime(),
  };
  const stored = {
    input,
    outputs: {
      ...outputs,
      ...(outputs.rowsFile === undefined ? {} : { rowsFile: resolve(outputs.rowsFile) }),
      ...(outputs.htmlFile === undefined ? {} : { htmlFile: resolve(outputs.htmlFile) }),
    },
  };
  const interruption = listenForInterruption();
  try {
    const taken = await takePart(
      who,
      {
        kind: 'audit',
        make: () => planAudit(stored, limits, network, io, quiet, interruption.signal),
      },
      (run, store) => {
        const http = new HttpClient({ ...network.http, signal: interruption.signal });
        return Promise.resolve({
          kind: auditJob.step(run, { store, http }),
          pace: { concurrency: run.options.concurrency },
          close: () => http.close(),
        });
      },
      { workerArgs: workerCommandLine(process.argv.slice(2)), stdout: io.stdout, stderr: io.stderr },
      interruption.signal,
    );
    return await endOfPart('audit', who, taken, io, () => writeAuditRunOutputs(taken.store, taken.run, io));
  } finally {
    interruption.dispose();
  }
}

/** The creator's part: the sitemaps read once, the sample chosen, every listed URL an item. */
async function planAudit(
  stored: Pick<StoredAudit, 'input' | 'outputs'>,
  limits: { maxUrls: number | undefined; maxDepth: number; maxPageBytes: number; now: number },
  network: NetworkSettings,
  io: Io,
  quiet: boolean,
  signal: AbortSignal,
): Promise<RunPlan<StoredAudit>> {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-run-'));
  const state = new SqliteAuditStore(join(dir, 'audit.sqlite'), { fresh: true });
  const http = new HttpClient({ ...network.http, signal });
  try {
    if (!quiet) io.stderr.write('reading the sitemaps…\n');
    const discovery = await discoverListings(stored.input, {
      state,
      http,
      now: limits.now,
      maxDepth: limits.maxDepth,
      concurrency: network.concurrency,
      perHost: network.perHost,
      signal,
    });
    if (!discovery.complete) throw new Error('stopped while reading the sitemaps: nothing was set down; start again');
    const listed = state.listedCount();
    const sample = chooseSample(state, limits.maxUrls, listed);
    const seeds = listingItems(state);
    if (!quiet) io.stderr.write(`${formatNumber(state.sampledCount())} listed URLs to check on workers\n`);
    const options: StoredAudit = {
      ...stored,
      now: limits.now,
      maxPageBytes: limits.maxPageBytes,
      delayMs: network.perHost.delayMs,
      concurrency: network.perHost.concurrency,
      discovery,
      listed,
      ...(sample === undefined ? {} : { sample }),
    };
    return { kind: 'audit', options, seeds, pace: { concurrency: options.concurrency }, state: 'running' };
  } finally {
    state.close();
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes a done audit run's outputs (the summary or --json on stdout, --rows, --html) from the
 * store, through the state of one process rebuilt from it. Used when the run ends, and by `run finish`.
 */
export async function writeAuditRunOutputs(store: RunStore, run: RunRecord, io: Io): Promise<number> {
  const { options } = runOfJob<AuditRunOptions, StoredAudit>(auditJob, run);
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-run-'));
  const state = new SqliteAuditStore(join(dir, 'audit.sqlite'), { fresh: true });
  try {
    await restoreAuditRun(store, run, state);
    const color = io.isTerminal && !process.env.NO_COLOR;
    return await writeAuditOutputs({ ...options.outputs, color }, io, {
      report: (onRow) =>
        reportAudit(
          state,
          {
            discovery: options.discovery,
            listed: options.listed,
            complete: true,
            now: options.now,
            ...(options.sample === undefined ? {} : { sample: options.sample }),
          },
          undefined,
          onRow,
        ),
    });
  } finally {
    state.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
