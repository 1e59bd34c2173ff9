/**
 * Taking part in a run, as every command that runs on workers does: open the shared store, create
 * the run or join it, work (in this process, or in `--workers N` local processes), and, once the
 * run's work is done, take the writing of its outputs if no other process has.
 */
import { hostname } from 'node:os';
import {
  RunStore,
  type HostPace,
  type NewItem,
  type RunRecord,
  type RunState,
  type WorkQueue,
} from '../store/run-store.js';
import type { Durability } from '../store/sqlite-file.js';
import { runOfKind, type JobRun } from './job.js';
import { runLocalWorkers } from './local-workers.js';
import { runWorker, type WorkKind, type WorkerProgress } from './worker.js';

/** The environment variable that names the store when --store does not. */
export const STORE_ENV = 'SITEMAPKIT_STORE';

export interface Participation {
  /** The store's location: a postgres:// URL or a SQLite file. */
  store: string;
  /** The run's name: every process given it (and the store) works the same run. */
  name: string;
  /** Start this many local worker processes and only coordinate them (undefined: work here). */
  workers?: number | undefined;
  /** This process was started by --workers: it works, and leaves the outputs to its parent. */
  workerOnly: boolean;
  /** How long a lease lasts unless renewed (default DEFAULT_LEASE_MS). */
  leaseMs?: number | undefined;
  /** How a SQLite store keeps its commits (default NORMAL, see store/sqlite-file.ts). */
  durability?: Durability | undefined;
}

/** What the creator of a run sets down for everyone: the options, the first items and their hosts' pace. */
export interface RunPlan<Options = unknown> {
  kind: string;
  options: Options;
  /** Read as the run is created, maybe more than once (see WorkQueue.createOrJoin). */
  seeds: Iterable<NewItem>;
  pace: HostPace;
  /** Frees what the seeds were read from, once the run is created (or its creation failed). */
  release?: (() => void) | undefined;
  /** 'starting' when the seeds are to be done before anything they lead to. */
  state: Exclude<RunState, 'done'>;
  /** Requests the run may make across all its workers (undefined: no limit). */
  budget?: number | undefined;
}

/**
 * A plan made only by the process that creates the run (an audit's plan walks the sitemaps
 * first): a process joining a run that exists does not make it.
 */
export interface LazyRunPlan<Options = unknown> {
  kind: string;
  make: () => Promise<RunPlan<Options>>;
}

export interface WorkSetup {
  kind: WorkKind;
  /** The pace of hosts met for the first time (the run's, as its creator set it). */
  pace: HostPace;
  slots?: number | undefined;
  batch?: number | undefined;
  /** Commit each item as it ends (see WorkerOptions.commitEach). */
  commitEach?: boolean | undefined;
  leaseMs?: number | undefined;
  onBatch?: (progress: WorkerProgress) => void;
  /** Called when the work ends, to close what the kind opened. */
  close?: () => Promise<void>;
}

/** How a command starts its local workers: the command line of one, without the run's own flags, and where they print. */
export interface LocalWorkersLaunch {
  workerArgs: readonly string[];
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface Taken {
  store: RunStore;
  /** The run as it stands once this process stopped working. */
  run: RunRecord;
  created: boolean;
  /** True when this process is to write the run's outputs (the run is done, and no one else took them). */
  writeOutputs: boolean;
  /** Exit codes of local workers that failed. */
  failedWorkers: number;
}

/** Who a process is, in `run status` and in `outputs_by`. */
export function processLabel(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * Takes part in the run. `setup` makes the work of this process from the run as stored (a joiner
 * follows the creator's options); `local` says how to start local workers (`who.workers`). The store stays open for the caller, who closes it.
 */
export async function takePart<Options>(
  who: Participation,
  plan: RunPlan<Options> | LazyRunPlan<Options>,
  setup: (run: JobRun<Options>, store: WorkQueue) => Promise<WorkSetup>,
  local: LocalWorkersLaunch | undefined,
  signal?: AbortSignal,
): Promise<Taken> {
  const store = await RunStore.open(who.store, { durability: who.durability });
  try {
    const { run, created } = who.workerOnly
      ? { run: await existingRun(store, who.name), created: false }
      : await createOrJoin(store, who.name, plan);
    let failedWorkers = 0;
    if (who.workers !== undefined) {
      if (local === undefined) throw new Error(`the run "${who.name}" cannot start local workers from here`);
      const codes = await runLocalWorkers({
        count: who.workers,
        args: [...local.workerArgs, '--run', who.name, '--worker'],
        env: { [STORE_ENV]: who.store },
        stdout: local.stdout,
        stderr: local.stderr,
        signal,
      });
      failedWorkers = codes.filter((code) => code !== 0).length;
    } else {
      const work = await setup(runOfKind<Options>(plan.kind, run), store);
      try {
        await runWorker({
          store,
          run,
          kind: work.kind,
          label: processLabel(),
          slots: work.slots,
          batch: work.batch,
          commitEach: work.commitEach,
          leaseMs: who.leaseMs ?? work.leaseMs,
          pace: work.pace,
          signal,
          onBatch: work.onBatch,
        });
      } finally {
        await work.close?.();
      }
    }
    const now = await existingRun(store, who.name);
    const writeOutputs =
      !who.workerOnly && now.state === 'done' && !signal?.aborted && (await store.claimOutputs(now.id, processLabel()));
    return {
      store,
      run: writeOutputs ? await existingRun(store, who.name) : now,
      created,
      writeOutputs,
      failedWorkers,
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function createOrJoin(
  store: WorkQueue,
  name: string,
  planned: RunPlan<unknown> | LazyRunPlan<unknown>,
): Promise<{ run: RunRecord; created: boolean }> {
  let plan: RunPlan<unknown>;
  if ('make' in planned) {
    // A run that exists is joined as it is: the plan, never used, is not made.
    const joining = (await store.run(name)) !== undefined;
    plan = joining
      ? { kind: planned.kind, options: null, seeds: [], pace: { concurrency: 1 }, state: 'running' }
      : await planned.make();
  } else plan = planned;
  try {
    return await store.createOrJoin(
      { name, kind: plan.kind, options: plan.options, state: plan.state, budget: plan.budget },
      plan.seeds,
      plan.pace,
    );
  } finally {
    plan.release?.();
  }
}

async function existingRun(store: WorkQueue, name: string): Promise<RunRecord> {
  const run = await store.run(name);
  if (run === undefined) throw new Error(`no run "${name}" in the store at ${store.location}`);
  return run;
}
