/**
 * A worker of a run: claims host batches from the shared store, does each item at the host's pace,
 * and commits each batch whole. Any number of workers, on any number of machines, work one run
 * together; none of them is special. The kind of work (crawl a page, walk a site's sitemap tree,
 * audit a URL) is a WorkKind: what to do with one item of a leased batch.
 *
 * A worker holds up to `slots` leases at once; each lease is one request in flight at a time, so
 * a host's concurrency (the leases it allows at once) bounds its requests across all workers.
 * Within a lease the requests are spaced by the host's delay, in the time slots its claim
 * reserved; an item that made no request (robots.txt kept it out) takes no slot's wait. Leases are renewed while the worker lives; killed, its leases expire and another
 * worker takes their items. The run is done when no item is left to do: the worker returns.
 *
 * In a run with a budget of requests, a lease carries its share, and the worker stops its batch
 * when that is spent (the items left go back to the queue); once the run's budget is spent, the
 * items still to do are settled as the kind says (`beyondBudget`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  BatchResult,
  HostPace,
  Lease,
  LeaseCommit,
  LeasedItem,
  NewItem,
  RunRecord,
  WorkQueue,
} from '../store/run-store.js';

/** What one item came to; `Result` is the job's record of an item done. */
export interface ItemVisit<Result = unknown> {
  /** Settled with this outcome; undefined to try the item again later (`againAfterMs`). */
  outcome?: string;
  detail?: string | undefined;
  /** True when a request was made for it. */
  fetched: boolean;
  /** Requests made for it, when more than one (redirects followed); default 1 when fetched, else 0. */
  requests?: number;
  /** The kind's record of it (JSON-serialisable). */
  result?: Result;
  found?: NewItem[];
  /** A failure that may pass: tried again, by any worker, after this long. */
  againAfterMs?: number;
  stripped?: BatchResult['stripped'];
  facts?: Record<string, string>;
}

export interface WorkKind<Result = unknown> {
  /**
   * The host's least time between two requests, in ms (robots.txt Crawl-delay, --delay): asked
   * when a lease comes with the pace unknown, before its one item is visited.
   */
  hostDelay(host: string, signal: AbortSignal): Promise<number>;
  /** Does one item of a leased batch. Should not throw: a thrown error fails the worker. */
  visit(item: LeasedItem, lease: Lease, signal: AbortSignal): Promise<ItemVisit<Result>>;
  /** How items left to do when the run's budget is spent are settled (a run with a budget needs it). */
  beyondBudget?: { outcome: string; detail: string } | undefined;
  /**
   * True when the kind's visits are not cut short by the worker's signal: a visit in flight when
   * the worker is stopped ends as usual, and what it came to is kept (a crawl's page in flight).
   */
  finishesInFlight?: boolean | undefined;
  /**
   * Items per lease at most (default: the worker's `batch`, no growth): a full claim that leaves
   * every slot of its host busy doubles the next one's size, so a big frontier is worked in fewer
   * claims, each a transaction, while a small one stays spread over the host's slots.
   */
  maxBatch?: number | undefined;
}

export interface WorkerOptions {
  store: WorkQueue;
  run: RunRecord;
  kind: WorkKind;
  /** Who the worker is, in `run status`: host name and process id. */
  label: string;
  /** Leases held at once: requests in flight from this worker (default 16). */
  slots?: number | undefined;
  /** Items per lease (default 10). */
  batch?: number | undefined;
  /**
   * Commit each item as it ends, not the lease's batch at its end: a worker killed loses only the
   * items in flight and those of the last PARTIAL_EVERY_MS (a crawl of one process, which
   * --resume continues). Default false.
   */
  commitEach?: boolean | undefined;
  /** How long a lease lives without renewal; a killed worker's work is taken over after it (default 30 s). */
  leaseMs?: number | undefined;
  /** The pace of hosts met for the first time. */
  pace: HostPace;
  signal?: AbortSignal | undefined;
  onBatch?: ((progress: WorkerProgress) => void) | undefined;
}

export interface WorkerProgress {
  workerId: number;
  batches: number;
  items: number;
  fetched: number;
  inFlight: number;
}

export const DEFAULT_WORKER_SLOTS = 16;
export const DEFAULT_BATCH = 10;
export const DEFAULT_LEASE_MS = 30_000;
/** The longest sleep while no host is due: another worker's commit may add work any moment. */
const MAX_IDLE_MS = 500;

export async function runWorker(options: WorkerOptions): Promise<WorkerProgress> {
  return new Worker(options).work();
}

class Worker {
  private readonly store: WorkQueue;
  private readonly slots: number;
  private readonly batch: number;
  private readonly maxBatch: number;
  /** The size of the next claim: `batch`, grown while claims come back full. */
  private claimSize: number;
  private readonly leaseMs: number;
  private readonly controller = new AbortController();
  private readonly active = new Set<Promise<void>>();
  private progress: WorkerProgress = { workerId: 0, batches: 0, items: 0, fetched: 0, inFlight: 0 };
  private failure: { error: unknown } | undefined;
  /** Leases this worker holds, by host. */
  private readonly held = new Map<string, number>();
  private readonly wakeUp = new WakeUp();
  private commits!: Committer;

  constructor(private readonly options: WorkerOptions) {
    this.store = options.store;
    this.slots = options.slots ?? DEFAULT_WORKER_SLOTS;
    this.batch = options.batch ?? DEFAULT_BATCH;
    this.maxBatch = Math.max(this.batch, options.kind.maxBatch ?? this.batch);
    this.claimSize = this.batch;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const stop = () => this.controller.abort(options.signal?.reason);
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
  }

  async work(): Promise<WorkerProgress> {
    const { run } = this.options;
    const workerId = await this.store.addWorker(run.id, this.options.label);
    this.progress.workerId = workerId;
    this.commits = new Committer((commits) => this.store.commitAll(commits, workerId, this.options.pace));
    const renewal = setInterval(() => {
      this.store.renew(workerId, this.leaseMs).catch(() => undefined);
    }, this.leaseMs / 3);
    try {
      await this.loop(workerId);
      await Promise.all(this.active);
      if (this.failure !== undefined) throw this.failure.error;
    } finally {
      clearInterval(renewal);
      await this.store.stopWorker(workerId).catch(() => undefined);
    }
    return this.progress;
  }

  private async loop(workerId: number): Promise<void> {
    const signal = this.controller.signal;
    let state = this.options.run.state;
    while (!signal.aborted && this.failure === undefined) {
      let claimed = false;
      while (this.active.size < this.slots && !signal.aborted) {
        // While the run starts, only its seeds are worked (a crawl's start URLs learn the site).
        const lease = await this.store.claim(this.options.run.id, workerId, {
          batch: this.claimSize,
          leaseMs: this.leaseMs,
          seedsOnly: state === 'starting',
          budgeted: this.options.run.budget !== undefined,
        });
        if (lease === undefined) break;
        claimed = true;
        this.start(lease);
        this.claimSize = this.nextClaimSize(lease);
      }
      if (this.active.size > 0) {
        // Nothing more to claim now: a lease ending frees a slot (and may have found work), a
        // commit of this worker may find work for a free slot, other workers' commits any time.
        // The timer is unref'd: left pending after the race, it must not hold the process open.
        await Promise.race([...this.active, this.wakeUp.promise, sleep(MAX_IDLE_MS, undefined, { ref: false })]);
        continue;
      }
      if (claimed) continue;
      state = await this.settleState(state);
      if (state === 'done') return;
      await sleep(await this.idleWait(), undefined, { signal }).catch(() => undefined);
    }
  }

  /**
   * Grown (doubled, up to maxBatch) after a full claim that left every slot of its host busy
   * here: the frontier is big, and the next claim comes only as a lease ends. Back to `batch`
   * after a short one, so that a small frontier stays spread over the host's slots.
   */
  private nextClaimSize(lease: Lease): number {
    if (lease.items.length < this.claimSize) return this.batch;
    const hostBusy = this.held.get(lease.host)! >= lease.concurrency;
    return hostBusy ? Math.min(2 * this.claimSize, this.maxBatch) : this.claimSize;
  }

  /** Nothing claimable and nothing in flight here: has the run moved on, or is it done? */
  private async settleState(state: RunRecord['state']): Promise<RunRecord['state']> {
    const { store } = this;
    const runId = this.options.run.id;
    if (this.options.run.budget !== undefined) await store.settleBeyondBudget(runId, this.beyondBudget());
    if (state === 'starting') {
      if ((await store.pending(runId, { seedsOnly: true })) > 0) return 'starting';
      await store.setState(runId, 'starting', 'running');
      return 'running';
    }
    if ((await store.pending(runId)) > 0) return state;
    await store.setState(runId, 'running', 'done');
    return 'done';
  }

  private beyondBudget(): { outcome: string; detail: string } {
    const beyond = this.options.kind.beyondBudget;
    if (beyond === undefined) throw new Error(`the run "${this.options.run.name}" has a budget its kind cannot settle`);
    return beyond;
  }

  /** How long to sleep before claiming again: until the next host is due, at most MAX_IDLE_MS. */
  private async idleWait(): Promise<number> {
    const [due, now] = await Promise.all([this.store.nextDue(this.options.run.id), this.store.now()]);
    return Math.max(10, Math.min(MAX_IDLE_MS, due === undefined ? MAX_IDLE_MS : due - now));
  }

  private start(lease: Lease): void {
    this.held.set(lease.host, (this.held.get(lease.host) ?? 0) + 1);
    const done = this.doLease(lease).catch((error: unknown) => this.fail(error));
    const tracked = done.finally(() => {
      this.active.delete(tracked);
      this.held.set(lease.host, this.held.get(lease.host)! - 1);
    });
    this.active.add(tracked);
  }

  /**
   * The lease's items one after the other, each in its time slot; then one commit, or with
   * `commitEach` one commit per item as it ends (the lease's last commit keeps the last item).
   */
  private async doLease(lease: Lease): Promise<void> {
    const signal = this.controller.signal;
    const claimedAt = Date.now();
    const { kind } = this.options;
    const delayMs = lease.delayMs ?? (await kind.hostDelay(lease.host, signal));
    let result = emptyResult(lease.delayMs === undefined ? delayMs : undefined);
    let spent = 0;
    let nextStart = claimedAt;
    for (const [index, item] of lease.items.entries()) {
      // The batch's share of the run's budget is spent (a redirect costs two): the rest waits.
      if (signal.aborted || spent >= (lease.budget ?? Number.POSITIVE_INFINITY)) break;
      const wait = nextStart - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) break;
      const startedAt = Date.now();
      // The start in the database's clock: the lease began at its `startAt`.
      result.lastStartAt = lease.startAt + (startedAt - claimedAt);
      this.progress.inFlight += 1;
      let visit: ItemVisit;
      try {
        visit = await kind.visit(item, lease, signal);
      } finally {
        this.progress.inFlight -= 1;
      }
      if (signal.aborted && kind.finishesInFlight !== true) break;
      addVisit(result, item, visit);
      const requests = visit.requests ?? (visit.fetched ? 1 : 0);
      spent += requests;
      // An item that made no request (robots.txt keeps it out) spends none of the host's delay.
      if (requests > 0) nextStart = startedAt + delayMs;
      if (this.options.commitEach === true && index < lease.items.length - 1) {
        // Work this page found may go to a slot of its host that is free here: it is written at
        // once, and the worker woken. Otherwise the page goes with a later commit of the worker.
        const wanted = result.found.length > 0 && this.held.get(lease.host)! < lease.concurrency;
        const written = this.commits.add({ lease, result, partial: true }, { soon: wanted });
        this.counted(result);
        if (wanted) {
          await written;
          this.wakeUp.wake();
        } else written.catch((error: unknown) => this.fail(error));
        result = emptyResult(result.delayMs, result.lastStartAt);
      }
    }
    // Stopped halfway: what was done is kept, the rest is free for others at once.
    await this.commits.add({ lease, result });
    this.progress.batches += 1;
    this.counted(result);
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.controller.abort(error);
  }

  private counted(result: BatchResult): void {
    this.progress.items += result.done.length;
    this.progress.fetched += result.fetched;
    this.options.onBatch?.({ ...this.progress });
  }
}

type LeaseResult = BatchResult & Required<Pick<BatchResult, 'again' | 'found' | 'stripped' | 'facts'>>;

function emptyResult(delayMs: number | undefined, lastStartAt?: number): LeaseResult {
  return {
    done: [],
    again: [],
    found: [],
    stripped: [],
    facts: {},
    fetched: 0,
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(lastStartAt === undefined ? {} : { lastStartAt }),
  };
}

/** What one item came to, into the result of the lease's next commit. */
function addVisit(result: LeaseResult, item: LeasedItem, visit: ItemVisit): void {
  result.fetched += visit.requests ?? (visit.fetched ? 1 : 0);
  if (visit.outcome === undefined) result.again.push({ id: item.id, afterMs: visit.againAfterMs ?? 0 });
  else
    result.done.push({
      id: item.id,
      outcome: visit.outcome,
      detail: visit.detail,
      fetched: visit.fetched,
      result: visit.result,
    });
  if (visit.found) result.found.push(...visit.found);
  if (visit.stripped) result.stripped.push(...visit.stripped);
  Object.assign(result.facts, visit.facts);
}

/** A promise that the next `wake()` settles: what a worker waiting for a slot also waits on. */
class WakeUp {
  promise: Promise<void>;
  private resolve!: () => void;

  constructor() {
    this.promise = this.next();
  }

  wake(): void {
    this.resolve();
    this.promise = this.next();
  }

  private next(): Promise<void> {
    return new Promise((resolve) => (this.resolve = resolve));
  }
}

/**
 * The commits of a worker's leases, written together: a commit's cost is mostly its transaction's.
 * A commit asked for soon (a lease's last, or a page whose found work a free slot waits for) is
 * written after the current turn of the event loop, with every commit waiting. The others are
 * written at most once every PARTIAL_EVERY_MS: at once after a quiet spell (a slow site commits
 * each page as it ends), grouped when pages end faster (a fast site's many small transactions
 * were most of a crawl's work on its state file). A worker killed loses at most the pages of
 * that span, done again when the run is resumed.
 */
class Committer {
  private pending: { commit: LeaseCommit; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private scheduled: 'soon' | NodeJS.Timeout | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly write: (commits: LeaseCommit[]) => Promise<void>) {}

  /** Resolves once `commit` is written. */
  add(commit: LeaseCommit, { soon = commit.partial !== true }: { soon?: boolean } = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ commit, resolve, reject });
      const wait = this.lastWriteAt + PARTIAL_EVERY_MS - performance.now();
      if (soon || wait <= 0 || this.pending.length >= PARTIALS_AT_MOST) this.flushSoon();
      else this.scheduled ??= setTimeout(() => void this.flush(), wait);
    });
  }

  private flushSoon(): void {
    if (this.scheduled === 'soon') return;
    clearTimeout(this.scheduled);
    this.scheduled = 'soon';
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const taken = this.pending;
    this.pending = [];
    if (this.scheduled !== 'soon') clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.lastWriteAt = performance.now();
    try {
      await this.write(taken.map(({ commit }) => commit));
      for (const { resolve } of taken) resolve();
    } catch (error) {
      for (const { reject } of taken) reject(error);
    }
  }
}

/** Partial commits held at most before they are written (see Committer). */
const PARTIALS_AT_MOST = 64;
/** The least time between two transactions of partial commits alone (see Committer). */
export const PARTIAL_EVERY_MS = 30;
