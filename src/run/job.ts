/**
 * A kind of work on a run (a crawl, an audit, `tree --sites`) as a typed job: the options its
 * creator sets down for every worker, the result each item keeps, and the step a worker takes on
 * one item. A stored run's options are JSON of unknown shape; {@link runOfJob} is the one place
 * they become the job's type, after the run's kind is checked.
 */
import type { HttpClient } from '../http/client.js';
import type { RunRecord, WorkQueue } from '../store/run-store.js';
import type { WorkKind } from './worker.js';

/** A run as its job reads it: its options typed. */
export interface JobRun<Options> extends Omit<RunRecord, 'options'> {
  options: Options;
}

/** What every step is given: the run's store and the worker's HTTP client (its user-agent too). */
export interface StepTools {
  store: WorkQueue;
  http: HttpClient;
}

/**
 * A job: `Options` are what its creator stores with the run, `Result` what an item done keeps in
 * the store, `Tools` what a worker hands its step beyond {@link StepTools}.
 */
export interface Job<Options, Result, Tools = object> {
  /** The run's kind in the store. */
  readonly kind: string;
  /** The work of one worker on a run of this job: what to do with each item it leases. */
  step(run: JobRun<Options>, tools: StepTools & Tools): WorkKind<Result>;
}

/**
 * The run read as a run of `job`: an error when it is a run of another kind. Options a caller
 * stores beyond the job's own (where outputs go) are typed by `Stored`.
 */
export function runOfJob<Options, Stored extends Options = Options>(
  job: Job<Options, unknown>,
  run: RunRecord,
): JobRun<Stored> {
  return runOfKind<Stored>(job.kind, run);
}

/** The run read as a run of the kind `kind`, whose options are `Options`: an error when it is of another kind. */
export function runOfKind<Options>(kind: string, run: RunRecord): JobRun<Options> {
  if (run.kind !== kind) throw new Error(`the run "${run.name}" is of the kind ${run.kind}, not ${kind}`);
  return run as JobRun<Options>;
}
