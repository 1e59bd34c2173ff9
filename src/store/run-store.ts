/**
 * A run's work in the shared store, for workers on any number of machines: one queue per host,
 * leased a batch at a time. The kind of work does not matter here: an item is a URL with a
 * host, and its result is the kind's own record (a crawled page's entry, a site's tree summary,
 * an audit row), so every kind plugs into the same claims, leases and commits.
 *
 * - claim(): takes a host whose next allowed time has come and that has fewer live leases than
 *   its concurrency (`FOR UPDATE SKIP LOCKED` on PostgreSQL: workers never wait for each other),
 *   leases a batch of its items, and, when the host has a delay, reserves the batch's time slots.
 * - commit(): the batch's results, the URLs it found, and the host's next allowed time, in one
 *   transaction. Results are written only over items still to do (unique on run and URL), so a
 *   batch done twice counts once.
 * - A lease lives until `expires_at`, renewed by its worker while it works; a killed worker's
 *   leases expire and their items are claimed again. Nothing is lost but the work in flight.
 * - A run may have a budget of requests (a crawl's --max-pages), counted across all its workers:
 *   a claim takes its batch's share of what is left, in the same transaction, and the commit
 *   gives back what the batch did not spend. Once it is spent and no lease holds any of it, the
 *   items still to do are settled as beyond the budget (settleBeyondBudget).
 *
 * No two transactions wait for each other: a claim locks its host's row first (skipping a host
 * locked), and a commit updates its host's row before its lease and the run's row, so a claim
 * and a commit of one host never overlap; the run's row (the budget) is the last lock any of them
 * waits for, and whoever holds it waits for nothing more (items are taken SKIP LOCKED).
 */
import { batches } from '../core/batches.js';
import type { Queryable, StoreDatabase } from './database.js';
import { openStoreDatabase } from './database.js';
import { migrate } from './migrations.js';
import type { Durability } from './sqlite-file.js';

export type RunState = 'starting' | 'running' | 'done';

export interface RunRecord {
  id: number;
  name: string;
  kind: string;
  /** The options every worker of the run follows, as the creator gave them. */
  options: unknown;
  state: RunState;
  /** Requests the workers of the run may make in all (undefined: no limit). */
  budget?: number;
  createdAt: number;
  doneAt?: number;
  outputsAt?: number;
  outputsBy?: string;
}

/** Politeness a host starts with; `delayMs` undefined until the first worker on it knows (robots.txt). */
export interface HostPace {
  concurrency: number;
  delayMs?: number | undefined;
}

/** A URL to do, or already settled (found out of scope, say), under its host (origin). */
export interface NewItem {
  url: string;
  host: string;
  depth?: number;
  chain?: number;
  /** The item (id) it was found on; none for a seed. */
  foundOn?: number;
  /** Settled at once with this outcome (not to do). */
  outcome?: string;
  detail?: string;
  /** The kind's record for a settled item (JSON-serialisable). */
  result?: unknown;
  /** A settled item that was requested (a redirect's target, judged from the answer in hand). */
  fetched?: boolean;
  /** What the kind needs to do the item beyond its URL (JSON-serialisable), handed back with its lease. */
  input?: unknown;
}

/**
 * The one outcome that is not final: a URL met only beyond the depth limit is queued after all
 * when a shallower path to it is found later.
 */
export const REVIVABLE_OUTCOME = 'max-depth';

export interface LeasedItem {
  id: number;
  url: string;
  depth: number;
  chain: number;
  /** Earlier tries of this item that ended in a failure that may pass. */
  attempts: number;
  /** The input it was added with, if any. */
  input?: unknown;
}

export interface Lease {
  id: number;
  runId: number;
  hostId: number;
  /** The host (origin) of every item of the lease. */
  host: string;
  /** The host's delay between requests, undefined while unknown (the batch is then one item). */
  delayMs: number | undefined;
  /** The host's leases at once, across all workers. */
  concurrency: number;
  /** The database clock when the lease was taken: the batch's first request may start then. */
  startAt: number;
  /** Requests the batch may make, in a run with a budget: the items past them are left for later. */
  budget?: number;
  items: LeasedItem[];
}

export interface ItemDone {
  id: number;
  outcome: string;
  detail?: string | undefined;
  /** True when a request was made for it. */
  fetched: boolean;
  result?: unknown;
}

export interface BatchResult {
  done: ItemDone[];
  /** Items to try again, not before `afterMs` from now (their attempts counted). */
  again?: { id: number; afterMs: number }[];
  found?: NewItem[];
  /** Query parameters stripped from URLs met (the crawl's report). */
  stripped?: { from: string; to: string; names: readonly string[] }[];
  /** Facts learnt for every worker (where a start URL landed). */
  facts?: Record<string, string>;
  /** The database clock's time of the batch's last request start; with the delay, the host's next allowed time. */
  lastStartAt?: number;
  /** The host's delay, once known. */
  delayMs?: number;
  /** Requests made (for the run's counts, and spent from its budget). */
  fetched: number;
}

/** One lease's part of RunStore.commitAll: what its items came to, and whether the lease goes on. */
export interface LeaseCommit {
  lease: Lease;
  result: BatchResult;
  /** Some of its items only: the lease goes on (see RunStore.commit). */
  partial?: boolean;
}

export interface RunStatus {
  run: RunRecord;
  /** Items still to do, those of them held by live leases, and items settled by outcome. */
  todo: number;
  /** Items requested, settled or not (a page tried again counts once). */
  fetchedItems: number;
  leased: number;
  outcomes: Record<string, number>;
  hosts: number;
  workers: WorkerStatus[];
}

export interface WorkerStatus {
  id: number;
  label: string;
  startedAt: number;
  seenAt: number;
  stoppedAt?: number;
  fetched: number;
  done: number;
  batches: number;
}

/** What became of an item: a null outcome while it is to do; its result, the kind's record of it. */
export interface ItemOutcome {
  outcome: string | null;
  detail: string | null;
  result: unknown;
}

export interface RunItem {
  id: number;
  url: string;
  host: string;
  depth: number;
  foundOn: number | null;
  /** The URL of the item it was found on. */
  foundOnUrl: string | null;
  outcome: string | null;
  detail: string | null;
  fetched: boolean;
  result: unknown;
  input: unknown;
}

/** Which items of a run RunStore.items reads, and in which order. */
export interface ItemsQuery {
  /** Only the items settled with this outcome. */
  outcome?: string | undefined;
  /** In the order of their URLs rather than the order met. */
  byUrl?: boolean | undefined;
  /** Only the items whose URL has a query. */
  withQuery?: boolean | undefined;
}

interface RunRow {
  id: number;
  name: string;
  kind: string;
  options: string;
  state: RunState;
  budget: number | null;
  created_at: number;
  done_at: number | null;
  outputs_at: number | null;
  outputs_by: string | null;
}

/** Rows read per query when a run's items are read out. */
const PAGE = 1_000;
/** Seeds written per statement when a run is created (one JSON parameter each). */
const SEED_CHUNK = 5_000;

/** An item whose lease is live: claimed by a worker that is still at it. */
const LEASE_LIVE = `EXISTS (SELECT 1 FROM sitemapkit_run_leases l WHERE l.id = i.lease_id AND l.expires_at > $now)`;

/**
 * Host `h` may take one more lease: its live leases are below its concurrency, and so are this
 * worker's ($3) times the live workers of run $1 ($2 the time, $4 how long a worker lives unseen).
 */
const BELOW_CONCURRENCY = `(SELECT count(*) FROM sitemapkit_run_leases l WHERE l.host_id = h.id AND l.expires_at > $2) < h.concurrency
  AND (SELECT count(*) FROM sitemapkit_run_leases l WHERE l.host_id = h.id AND l.worker_id = $3 AND l.expires_at > $2)
    * (SELECT count(*) FROM sitemapkit_run_workers w WHERE w.run_id = $1 AND w.stopped_at IS NULL AND w.seen_at > $2 - $4)
    < h.concurrency`;

/** How a worker asks for a lease (RunStore.claim). */
export interface ClaimOptions {
  /** Items per lease at most. */
  batch: number;
  /** How long the lease lives unless renewed. */
  leaseMs: number;
  /** Only items with no `foundOn` (a run that is starting works its seeds alone). */
  seedsOnly?: boolean;
  /** The run has a budget of requests: the lease carries its share. */
  budgeted?: boolean;
}

/**
 * The queue of a run's work, as workers, jobs and outputs use it: runs created or joined, items
 * added, leased a host's batch at a time, completed or deferred (a batch's commit), counted, and
 * read back with their results. {@link RunStore} implements it on SQLite and on PostgreSQL; a
 * worker (run/worker.ts) and a job's step know only this.
 */
export interface WorkQueue {
  /** Where the queue is (a file, or a postgres:// URL without its password), for messages. */
  readonly location: string;
  close(): Promise<void>;
  /** The queue's clock, epoch ms: every lease time is in it. */
  now(): Promise<number>;

  // Runs
  run(name: string): Promise<RunRecord | undefined>;
  runs(): Promise<RunRecord[]>;
  createOrJoin(
    definition: {
      name: string;
      kind: string;
      options: unknown;
      state: Exclude<RunState, 'done'>;
      budget?: number | undefined;
    },
    seeds: Iterable<NewItem>,
    pace: HostPace,
  ): Promise<{ run: RunRecord; created: boolean }>;
  setState(runId: number, from: RunState, to: RunState): Promise<boolean>;
  claimOutputs(runId: number, by: string, options?: { again?: boolean }): Promise<boolean>;
  facts(runId: number): Promise<Record<string, string>>;

  // Workers
  addWorker(runId: number, label: string): Promise<number>;
  stopWorker(workerId: number): Promise<void>;
  renew(workerId: number, leaseMs: number): Promise<void>;
  /**
   * Ends every lease of the run now, as if its time had run out. Only for a queue that one
   * process holds alone (under its lock): every lease in it is then a killed process's, and
   * waiting for it to expire would stall a resumed run for the lease's whole time.
   */
  expireLeases(runId: number): Promise<void>;

  // Items: add, lease, complete or defer
  addSeeds(runId: number, items: readonly NewItem[], pace: HostPace): Promise<void>;
  claim(runId: number, workerId: number, options: ClaimOptions): Promise<Lease | undefined>;
  /**
   * Completes the lease: its items done, deferred (`again`) or left, what they found added; or,
   * `partial`, keeps what some of its items came to while the lease goes on.
   */
  commit(
    lease: Lease,
    workerId: number,
    result: BatchResult,
    pace: HostPace,
    options?: { partial?: boolean },
  ): Promise<void>;
  /** Several commits of one worker in one transaction. */
  commitAll(commits: readonly LeaseCommit[], workerId: number, pace: HostPace): Promise<void>;
  release(lease: Lease): Promise<void>;
  settleBeyondBudget(runId: number, beyond: { outcome: string; detail: string }): Promise<number>;
  admitQueryVariant(runId: number, path: string, limit: number): Promise<boolean>;

  // Counts and results
  has(runId: number, url: string): Promise<boolean>;
  /** What became of `url` in the run: undefined when it is no item of it, a null outcome while to do. */
  outcomeOf(runId: number, url: string): Promise<ItemOutcome | undefined>;
  pending(runId: number, options?: { seedsOnly?: boolean }): Promise<number>;
  nextDue(runId: number): Promise<number | undefined>;
  status(name: string): Promise<RunStatus | undefined>;
  items(runId: number, query?: ItemsQuery): AsyncIterable<RunItem>;
  stripped(runId: number): AsyncIterable<{ from: string; to: string; name: string }>;
}

export class RunStore implements WorkQueue {
  private readonly hostIds = new Map<string, number>();

  private constructor(readonly db: StoreDatabase) {}

  /** A transaction that may add hosts: ids learnt in one that rolled back are forgotten. */
  private async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (error) {
      this.hostIds.clear();
      throw error;
    }
  }

  /**
   * Opens the store at `location` (postgres:// URL or SQLite file) and brings its schema up to
   * date. A SQLite file's `durability` is NORMAL unless said (see sqlite-file.ts).
   */
  static async open(location: string, options: { durability?: Durability | undefined } = {}): Promise<RunStore> {
    const db = await openStoreDatabase(location, options);
    try {
      await migrate(db);
    } catch (error) {
      await db.close();
      throw error;
    }
    return new RunStore(db);
  }

  get location(): string {
    return this.db.location;
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  /** The database's clock, epoch ms. */
  async now(tx: Queryable = this.db): Promise<number> {
    const [row] = await tx.all<{ now: number }>(`SELECT ${this.db.dialect.nowMs} AS now`);
    return Number(row!.now);
  }

  async run(name: string): Promise<RunRecord | undefined> {
    const [row] = await this.db.all<RunRow>('SELECT * FROM sitemapkit_runs WHERE name = $1', [name]);
    return row === undefined ? undefined : runRecord(row);
  }

  async runs(): Promise<RunRecord[]> {
    return (await this.db.all<RunRow>('SELECT * FROM sitemapkit_runs ORDER BY id')).map(runRecord);
  }

  /**
   * Creates the run `name` with its seeds, or joins it when it exists: `created` says which. A
   * run of another kind by that name is an error. The seeds' hosts start with `pace`. They are
   * read as they are added, once per try of the transaction (PostgreSQL may try it again): an
   * iterable that can be read more than once.
   */
  async createOrJoin(
    definition: {
      name: string;
      kind: string;
      options: unknown;
      state: Exclude<RunState, 'done'>;
      /** Requests allowed across all workers (undefined: no limit). */
      budget?: number | undefined;
    },
    seeds: Iterable<NewItem>,
    pace: HostPace,
  ): Promise<{ run: RunRecord; created: boolean }> {
    return this.transaction(async (tx) => {
      const now = await this.now(tx);
      const inserted = await tx.all<RunRow>(
        `INSERT INTO sitemapkit_runs (name, kind, options, state, created_at, budget, budget_left)
         VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (name) DO NOTHING RETURNING *`,
        [
          definition.name,
          definition.kind,
          JSON.stringify(definition.options),
          definition.state,
          now,
          definition.budget ?? null,
        ],
      );
      const created = inserted[0] !== undefined;
      const [row] = created
        ? inserted
        : await tx.all<RunRow>('SELECT * FROM sitemapkit_runs WHERE name = $1', [definition.name]);
      const run = runRecord(row!);
      if (run.kind !== definition.kind)
        throw new Error(`the run "${run.name}" in ${this.location} is a ${run.kind} run, not a ${definition.kind} run`);
      // Seeds are read as they are added: an audit's may be millions, waiting in a scratch file.
      if (created) for await (const chunk of batches(seeds, SEED_CHUNK)) await this.addItems(tx, run.id, chunk, pace);
      return { run, created };
    });
  }

  /** Adds items to a run (seeds found after its creation, say); known URLs are left as they are. */
  async addSeeds(runId: number, items: readonly NewItem[], pace: HostPace): Promise<void> {
    await this.transaction((tx) => this.addItems(tx, runId, items, pace));
  }

  async setState(runId: number, from: RunState, to: RunState): Promise<boolean> {
    const doneAt = to === 'done' ? this.db.dialect.nowMs : 'done_at';
    return (
      (await this.db.run(`UPDATE sitemapkit_runs SET state = $1, done_at = ${doneAt} WHERE id = $2 AND state = $3`, [
        to,
        runId,
        from,
      ])) > 0
    );
  }

  /** Takes the writing of the run's outputs for `by`: true for the one process that gets it. */
  async claimOutputs(runId: number, by: string, { again = false } = {}): Promise<boolean> {
    const condition = again ? '' : ' AND outputs_at IS NULL';
    return (
      (await this.db.run(
        `UPDATE sitemapkit_runs SET outputs_at = ${this.db.dialect.nowMs}, outputs_by = $1 WHERE id = $2 AND state = 'done'${condition}`,
        [by, runId],
      )) > 0
    );
  }

  async facts(runId: number): Promise<Record<string, string>> {
    const rows = await this.db.all<{ key: string; value: string }>(
      'SELECT key, value FROM sitemapkit_run_facts WHERE run_id = $1',
      [runId],
    );
    return Object.fromEntries(rows.map((row) => [row.key, row.value]));
  }

  /** Registers a worker process of the run; its id marks its leases and counts its work. */
  async addWorker(runId: number, label: string): Promise<number> {
    const [row] = await this.db.all<{ id: number }>(
      `INSERT INTO sitemapkit_run_workers (run_id, label, started_at, seen_at) VALUES ($1, $2, ${this.db.dialect.nowMs}, ${this.db.dialect.nowMs}) RETURNING id`,
      [runId, label],
    );
    return row!.id;
  }

  async stopWorker(workerId: number): Promise<void> {
    await this.db.run(`UPDATE sitemapkit_run_workers SET stopped_at = ${this.db.dialect.nowMs} WHERE id = $1`, [
      workerId,
    ]);
  }

  /**
   * Leases up to `batch` items of one host whose turn has come, for `leaseMs` (plus the time the
   * batch's delays take). `seedsOnly` takes only the run's seeds (items found on no page). A
   * worker holds at most its share of a host's concurrency (split among the live workers), so
   * the first worker up does not take every host's every slot. In a run with a budget
   * (`budgeted`), the batch is at most what is left of it, and takes it.
   * Undefined when no host has work that may start now.
   */
  async claim(
    runId: number,
    workerId: number,
    { batch, leaseMs, seedsOnly = false, budgeted = false }: ClaimOptions,
  ): Promise<Lease | undefined> {
    const d = this.db.dialect;
    const seeds = seedsOnly ? ' AND i.found_on IS NULL' : '';
    return this.db.transaction(async (tx) => {
      const now = await this.now(tx);
      const host = await this.claimableHost(tx, { runId, workerId, leaseMs, now, seeds, budgeted });
      if (host === undefined) return undefined;
      const delayMs = host.delay_ms ?? undefined;
      // A host whose pace is unknown gets one request, whose worker learns it (robots.txt).
      const wanted = delayMs === undefined ? 1 : batch;
      // The budget of the host's expired leases comes back with them (deleted below).
      const budget = budgeted ? await this.takeBudget(tx, runId, wanted, host.expiredBudget) : undefined;
      const size = budget ?? wanted;
      const reserved = (delayMs ?? 0) * size;
      const [lease] =
        size === 0
          ? []
          : await tx.all<{ id: number }>(
              'INSERT INTO sitemapkit_run_leases (run_id, host_id, worker_id, expires_at, budget) VALUES ($1, $2, $3, $4, $5) RETURNING id',
              [runId, host.id, workerId, now + reserved + leaseMs, budget ?? null],
            );
      const rows =
        lease === undefined
          ? []
          : await tx.all<Omit<LeasedItem, 'input'> & { input: string | null }>(
              `UPDATE sitemapkit_run_items SET lease_id = $1 WHERE id IN (
                 SELECT i.id FROM sitemapkit_run_items i
                 WHERE i.run_id = $2 AND i.host_id = $3 AND i.outcome IS NULL AND i.not_before <= $4${seeds}
                   AND (i.lease_id IS NULL OR NOT ${LEASE_LIVE.replaceAll('$now', '$4')})
                 ORDER BY i.depth, i.id LIMIT $5 ${d.skipLocked})
               RETURNING id, url, depth, chain, attempts, input`,
              [lease.id, runId, host.id, now, size],
            );
      await this.deleteExpiredLeases(tx, runId, host.id, now);
      if (rows.length === 0) {
        if (lease !== undefined) await tx.run('DELETE FROM sitemapkit_run_leases WHERE id = $1', [lease.id]);
        if (budget !== undefined && budget > 0) await this.giveBudget(tx, runId, budget);
        return undefined;
      }
      // The batch's time slots are the host's: the next lease starts after them.
      if (reserved > 0)
        await tx.run(`UPDATE sitemapkit_run_hosts SET next_at = $1 WHERE id = $2`, [
          now + (delayMs ?? 0) * rows.length,
          host.id,
        ]);
      const items: LeasedItem[] = rows.map(({ input, ...item }) =>
        input === null ? item : { ...item, input: JSON.parse(input) as unknown },
      );
      items.sort((a, b) => a.depth - b.depth || a.id - b.id);
      const taken = {
        id: lease!.id,
        runId,
        hostId: host.id,
        host: host.host,
        delayMs,
        concurrency: Number(host.concurrency),
        startAt: now,
        items,
      };
      return budget === undefined ? taken : { ...taken, budget };
    });
  }

  /**
   * Takes up to `wanted` requests of the run's budget, after giving back `returned` (the budget of
   * expired leases); resolves to the number taken. One statement, two when little is left.
   */
  private async takeBudget(tx: Queryable, runId: number, wanted: number, returned: number): Promise<number> {
    const [row] = await tx.all<{ left: number }>(
      'UPDATE sitemapkit_runs SET budget_left = budget_left + $2 WHERE id = $1 RETURNING budget_left AS "left"',
      [runId, returned - wanted],
    );
    const before = Number(row!.left) + wanted;
    const taken = Math.max(0, Math.min(wanted, before));
    if (taken < wanted) await this.giveBudget(tx, runId, wanted - taken);
    return taken;
  }

  /** Gives `requests` back to the run's budget (takes them, when negative). */
  private async giveBudget(tx: Queryable, runId: number, requests: number): Promise<void> {
    await tx.run('UPDATE sitemapkit_runs SET budget_left = budget_left + $2 WHERE id = $1', [runId, requests]);
  }

  /** Deletes a lease; in a run with a budget, resolves to the budget it held (0 when it was gone already). */
  private async deleteLease(tx: Queryable, lease: Lease): Promise<number> {
    const sql = 'DELETE FROM sitemapkit_run_leases WHERE id = $1';
    if (lease.budget === undefined) {
      await tx.run(sql, [lease.id]);
      return 0;
    }
    const [row] = await tx.all<{ budget: number | null }>(`${sql} RETURNING budget`, [lease.id]);
    return Number(row?.budget ?? 0);
  }

  /**
   * In a run with a budget: once it is spent and no lease holds any of it (live, or expired and
   * to be given back by the next claim of its host), no request can be made any more, so every
   * item still to do is settled with `beyond` (a crawl's 'max-pages'). Resolves to the items
   * settled. Items another transaction holds are left for the next call.
   */
  async settleBeyondBudget(runId: number, beyond: { outcome: string; detail: string }): Promise<number> {
    // Idle workers ask often: while budget is left, a read answers (no write transaction).
    const [left] = await this.db.all<{ left: number | null }>(
      'SELECT budget_left AS "left" FROM sitemapkit_runs WHERE id = $1',
      [runId],
    );
    if (left?.left === null || left?.left === undefined || Number(left.left) > 0) return 0;
    return this.db.transaction(async (tx) => {
      // Locks the run's row: no claim takes budget, no commit gives any back, until this ends.
      const [run] = await tx.all<{ left: number | null }>(
        'UPDATE sitemapkit_runs SET budget_left = budget_left WHERE id = $1 RETURNING budget_left AS "left"',
        [runId],
      );
      if (run?.left === null || run?.left === undefined || Number(run.left) > 0) return 0;
      const [held] = await tx.all(
        'SELECT 1 AS one FROM sitemapkit_run_leases WHERE run_id = $1 AND budget > 0 LIMIT 1',
        [runId],
      );
      if (held !== undefined) return 0;
      // No lease holds budget, so none is live: whatever lease an item names is over.
      return tx.run(
        `UPDATE sitemapkit_run_items SET outcome = $2, detail = $3, lease_id = NULL WHERE id IN (
           SELECT i.id FROM sitemapkit_run_items i WHERE i.run_id = $1 AND i.outcome IS NULL ${this.db.dialect.skipLocked})`,
        [runId, beyond.outcome, beyond.detail],
      );
    });
  }

  /**
   * The host a claim takes, locked: one whose turn has come, with work that may start now, and
   * below its concurrency, both in all and for this worker's share (split among the live workers,
   * so the first worker up does not take every host's every slot).
   *
   * The live leases are counted again once the host is locked. On PostgreSQL the first count is
   * read in the snapshot of the statement that locks the host, which may predate a lease another
   * worker committed in between; a new statement sees it, and while this claim holds the host no
   * other can lease it, so the second count is exact.
   */
  private async claimableHost(
    tx: Queryable,
    query: { runId: number; workerId: number; leaseMs: number; now: number; seeds: string; budgeted: boolean },
  ): Promise<
    { id: number; host: string; delay_ms: number | null; concurrency: number; expiredBudget: number } | undefined
  > {
    const { runId, workerId, leaseMs, now, seeds, budgeted } = query;
    // In a run with a budget: some is left, or an expired lease of the host holds some.
    const expiredBudget = `(SELECT COALESCE(sum(l.budget), 0) FROM sitemapkit_run_leases l WHERE l.host_id = h.id AND l.expires_at <= $2)`;
    const budgetLeft = budgeted
      ? `AND ((SELECT r.budget_left FROM sitemapkit_runs r WHERE r.id = $1) > 0 OR ${expiredBudget} > 0)`
      : '';
    const passedOver: number[] = [];
    for (;;) {
      const [host] = await tx.all<{ id: number; host: string; delay_ms: number | null; concurrency: number }>(
        `SELECT h.id, h.host, h.delay_ms, h.concurrency FROM sitemapkit_run_hosts h
         WHERE h.run_id = $1 AND h.next_at <= $2
           AND EXISTS (SELECT 1 FROM sitemapkit_run_items i
                       WHERE i.run_id = $1 AND i.host_id = h.id AND i.outcome IS NULL AND i.not_before <= $2${seeds}
                         AND (i.lease_id IS NULL OR NOT ${LEASE_LIVE.replaceAll('$now', '$2')}))
           AND ${BELOW_CONCURRENCY} ${budgetLeft}
           ${passedOver.length > 0 ? `AND h.id NOT IN (${passedOver.join(', ')})` : ''}
         ORDER BY h.next_at, h.id LIMIT 1 ${this.db.dialect.skipLocked}`,
        [runId, now, workerId, leaseMs],
      );
      if (host === undefined) return host;
      // A new statement, so on PostgreSQL it sees what committed before the lock: the expired
      // leases' budget too, which no other claim can take while this one holds the host.
      const [still] = await tx.all<{ expired: number }>(
        `SELECT ${budgeted ? expiredBudget : 0} AS expired FROM sitemapkit_run_hosts h WHERE h.id = $5 AND ${BELOW_CONCURRENCY}`,
        [runId, now, workerId, leaseMs, host.id],
      );
      if (still !== undefined) return { ...host, expiredBudget: Number(still.expired) };
      passedOver.push(host.id);
    }
  }

  /** Keeps the worker's leases alive for another `leaseMs`. */
  async renew(workerId: number, leaseMs: number): Promise<void> {
    const now = this.db.dialect.nowMs;
    await this.db.run(
      `UPDATE sitemapkit_run_leases SET expires_at = ${this.db.dialect.greatest}(expires_at, ${now} + $1) WHERE worker_id = $2`,
      [leaseMs, workerId],
    );
    await this.db.run(`UPDATE sitemapkit_run_workers SET seen_at = ${now} WHERE id = $1`, [workerId]);
  }

  async expireLeases(runId: number): Promise<void> {
    await this.db.run(
      `UPDATE sitemapkit_run_leases SET expires_at = ${this.db.dialect.nowMs} - 1 WHERE run_id = $1 AND expires_at >= ${this.db.dialect.nowMs}`,
      [runId],
    );
  }

  /**
   * Commits a lease's batch: results, retries, found URLs, the host's pace and the worker's counts,
   * in one transaction; then the lease is gone, and its items not done are free.
   *
   * With `partial`, only what some items came to is kept (a page committed as it ends, so a kill
   * loses only the pages in flight) and the lease goes on: the host's pace and the lease are left
   * for its last commit, and the requests made are taken from what the lease holds of the budget.
   */
  async commit(
    lease: Lease,
    workerId: number,
    result: BatchResult,
    pace: HostPace,
    { partial = false }: { partial?: boolean } = {},
  ): Promise<void> {
    await this.commitAll([{ lease, result, partial }], workerId, pace);
  }

  /**
   * Several commits of one worker in one transaction (those that ended together): one commit's
   * cost, which on SQLite is most of it. Their hosts are locked in the order of their ids, so two
   * transactions never wait for each other.
   */
  async commitAll(commits: readonly LeaseCommit[], workerId: number, pace: HostPace): Promise<void> {
    if (commits.length === 0) return;
    const ordered = [...commits].sort((a, b) => a.lease.hostId - b.lease.hostId || a.lease.id - b.lease.id);
    const { runId } = ordered[0]!.lease;
    const d = this.db.dialect;
    const results = ordered.map(({ result }) => result);
    const ended = ordered.filter(({ partial }) => partial !== true).map(({ lease }) => lease);
    await this.transaction(async (tx) => {
      // Every host's row first, before any lease's and the run's (see the top).
      for (const { lease, result, partial = false } of ordered) await this.lockHost(tx, lease, result, partial);
      const found = results.flatMap((result) => result.found ?? []);
      if (found.length > 0) await this.addItems(tx, runId, found, pace);
      const done = results.flatMap((result) => result.done);
      if (done.length > 0) await this.settleItems(tx, done, workerId);
      for (const again of results.flatMap((result) => result.again ?? []))
        await tx.run(
          `UPDATE sitemapkit_run_items SET attempts = attempts + 1, not_before = ${d.nowMs} + $1, lease_id = NULL
           WHERE id = $2 AND outcome IS NULL`,
          [again.afterMs, again.id],
        );
      // The items of the leases that end, not done, are free again.
      if (ended.length > 0)
        await tx.run(
          `UPDATE sitemapkit_run_items SET lease_id = NULL FROM ${d.jsonRows('$1', [
            ['id', 'bigint'],
            ['lease_id', 'bigint'],
          ])}
           WHERE sitemapkit_run_items.id = r.id AND sitemapkit_run_items.lease_id = r.lease_id
             AND sitemapkit_run_items.outcome IS NULL`,
          [JSON.stringify(ended.flatMap((lease) => lease.items.map((item) => ({ id: item.id, lease_id: lease.id }))))],
        );
      const stripped = results.flatMap((result) => result.stripped ?? []);
      if (stripped.length > 0)
        await tx.run(
          `INSERT INTO sitemapkit_run_stripped (run_id, url, name, kept)
           SELECT $1, r.url, r.name, r.kept FROM ${d.jsonRows('$2', [
             ['url', 'text'],
             ['name', 'text'],
             ['kept', 'text'],
           ])} WHERE true ON CONFLICT DO NOTHING`,
          [runId, JSON.stringify(stripped.flatMap((s) => s.names.map((name) => ({ url: s.from, name, kept: s.to }))))],
        );
      for (const [key, value] of results.flatMap((result) => Object.entries(result.facts ?? {})))
        await tx.run(
          'INSERT INTO sitemapkit_run_facts (run_id, key, value) VALUES ($1, $2, $3) ON CONFLICT (run_id, key) DO NOTHING',
          [runId, key, value],
        );
      for (const { lease, result, partial = false } of ordered)
        if (lease.budget !== undefined) await this.spendBudget(tx, lease, result.fetched, partial);
        else if (!partial) await this.deleteLease(tx, lease);
      await tx.run(
        `UPDATE sitemapkit_run_workers SET fetched = fetched + $1, done = done + $2, batches = batches + $3, seen_at = ${d.nowMs}
         WHERE id = $4`,
        [results.reduce((sum, result) => sum + result.fetched, 0), done.length, ended.length, workerId],
      );
    });
  }

  /**
   * A lease's last commit sets its host's pace; a partial one in a run with a budget only locks
   * the host's row, as it changes the lease's and maybe the run's after it.
   */
  private async lockHost(tx: Queryable, lease: Lease, result: BatchResult, partial: boolean): Promise<void> {
    if (!partial) await this.setHostPace(tx, lease, result);
    else if (lease.budget !== undefined)
      await tx.run('UPDATE sitemapkit_run_hosts SET next_at = next_at WHERE id = $1', [lease.hostId]);
  }

  /** The host's delay once known, and its next allowed time after the batch's last request. */
  private async setHostPace(tx: Queryable, lease: Lease, result: BatchResult): Promise<void> {
    const delay = result.delayMs ?? lease.delayMs;
    await tx.run(
      `UPDATE sitemapkit_run_hosts SET delay_ms = $1, next_at = ${this.db.dialect.greatest}(next_at, $2) WHERE id = $3`,
      [delay ?? null, result.lastStartAt === undefined ? 0 : result.lastStartAt + (delay ?? 0), lease.hostId],
    );
  }

  /** Items done: their outcomes and results, over items still to do only (a batch done twice counts once). */
  private async settleItems(tx: Queryable, done: readonly ItemDone[], workerId: number): Promise<void> {
    await tx.run(
      `UPDATE sitemapkit_run_items SET outcome = r.outcome, detail = r.detail, fetched = r.fetched, result = r.result,
         lease_id = NULL, done_by = $2
       FROM ${this.db.dialect.jsonRows('$1', [
         ['id', 'bigint'],
         ['outcome', 'text'],
         ['detail', 'text'],
         ['fetched', 'integer'],
         ['result', 'text'],
       ])}
       WHERE sitemapkit_run_items.id = r.id AND sitemapkit_run_items.outcome IS NULL`,
      [
        JSON.stringify(
          done.map((item) => ({
            id: item.id,
            outcome: item.outcome,
            detail: item.detail ?? null,
            fetched: item.fetched ? 1 : 0,
            result: item.result === undefined ? null : JSON.stringify(item.result),
          })),
        ),
        workerId,
      ],
    );
  }

  /**
   * The requests a lease made, in a run with a budget: taken from what the lease holds while it
   * goes on; at its end, the lease is deleted and what it did not spend goes back. A lease that
   * expired meanwhile gave its whole budget back already: what it spent is taken from the run's.
   */
  private async spendBudget(tx: Queryable, lease: Lease, fetched: number, partial: boolean): Promise<void> {
    if (partial) {
      const held = await tx.run('UPDATE sitemapkit_run_leases SET budget = budget - $2 WHERE id = $1', [
        lease.id,
        fetched,
      ]);
      if (held === 0 && fetched > 0) await this.giveBudget(tx, lease.runId, -fetched);
      return;
    }
    const held = await this.deleteLease(tx, lease);
    if (held !== fetched) await this.giveBudget(tx, lease.runId, held - fetched);
  }

  /** Gives a lease's items back untouched (a worker stopping). */
  /**
   * Expired leases of the host are gone for good, and the items they still held are free again.
   * The items are freed by name, not left pointing at a deleted lease: SQLite gives a new row the
   * id after the largest left, so a deleted lease's id comes back, and its items would look held
   * by a stranger. (Run after the new lease is written, which so cannot take a deleted one's id.)
   */
  private async deleteExpiredLeases(tx: Queryable, runId: number, hostId: number, now: number): Promise<void> {
    const expired = await tx.all<{ id: number }>(
      'SELECT id FROM sitemapkit_run_leases WHERE host_id = $1 AND expires_at <= $2',
      [hostId, now],
    );
    if (expired.length === 0) return;
    await tx.run(
      `UPDATE sitemapkit_run_items SET lease_id = NULL
       WHERE run_id = $1 AND host_id = $2 AND outcome IS NULL
         AND lease_id IN (SELECT id FROM sitemapkit_run_leases WHERE host_id = $2 AND expires_at <= $3)`,
      [runId, hostId, now],
    );
    await tx.run('DELETE FROM sitemapkit_run_leases WHERE host_id = $1 AND expires_at <= $2', [hostId, now]);
  }

  async release(lease: Lease): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE sitemapkit_run_items SET lease_id = NULL WHERE lease_id = $1', [lease.id]);
      const held = await this.deleteLease(tx, lease);
      if (held > 0) await this.giveBudget(tx, lease.runId, held);
    });
  }

  /**
   * Counts one more fetch of a query variant of `path` (the URL before its "?") if fewer than
   * `limit` were counted, across all workers of the run: true when it was. One statement.
   */
  async admitQueryVariant(runId: number, path: string, limit: number): Promise<boolean> {
    const rows = await this.db.all(
      `INSERT INTO sitemapkit_run_query_variants AS v (run_id, path, fetched) VALUES ($1, $2, 1)
       ON CONFLICT (run_id, path) DO UPDATE SET fetched = v.fetched + 1 WHERE v.fetched < $3
       RETURNING fetched`,
      [runId, path, limit],
    );
    return rows.length > 0;
  }

  /** Whether `url` is an item of the run (done or not). */
  async has(runId: number, url: string): Promise<boolean> {
    const rows = await this.db.all('SELECT 1 AS one FROM sitemapkit_run_items WHERE run_id = $1 AND url = $2', [
      runId,
      url,
    ]);
    return rows.length > 0;
  }

  async outcomeOf(runId: number, url: string): Promise<ItemOutcome | undefined> {
    const [row] = await this.db.all<{ outcome: string | null; detail: string | null; result: string | null }>(
      'SELECT outcome, detail, result FROM sitemapkit_run_items WHERE run_id = $1 AND url = $2',
      [runId, url],
    );
    if (row === undefined) return undefined;
    return { ...row, result: row.result === null ? undefined : (JSON.parse(row.result) as unknown) };
  }

  /** Items still to do (leased or not); when there are none, the run's work is done. */
  async pending(runId: number, { seedsOnly = false } = {}): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(
      `SELECT count(*) AS n FROM sitemapkit_run_items WHERE run_id = $1 AND outcome IS NULL${seedsOnly ? ' AND found_on IS NULL' : ''}`,
      [runId],
    );
    return Number(row!.n);
  }

  /** When the next claim may succeed, by the database clock: the earliest next_at or not_before with work behind it. */
  async nextDue(runId: number): Promise<number | undefined> {
    const [row] = await this.db.all<{ due: number | null }>(
      `SELECT min(${this.db.dialect.greatest}(h.next_at, i.not_before)) AS due
       FROM sitemapkit_run_items i JOIN sitemapkit_run_hosts h ON h.id = i.host_id
       WHERE i.run_id = $1 AND i.outcome IS NULL`,
      [runId],
    );
    return row?.due === null || row?.due === undefined ? undefined : Number(row.due);
  }

  async status(name: string): Promise<RunStatus | undefined> {
    const run = await this.run(name);
    if (run === undefined) return undefined;
    const now = await this.now();
    const outcomes: Record<string, number> = {};
    let todo = 0;
    let fetched = 0;
    for (const row of await this.db.all<{ outcome: string | null; n: number; fetched: number | null }>(
      'SELECT outcome, count(*) AS n, sum(fetched) AS fetched FROM sitemapkit_run_items WHERE run_id = $1 GROUP BY outcome ORDER BY outcome',
      [run.id],
    )) {
      fetched += Number(row.fetched ?? 0);
      if (row.outcome === null) todo = Number(row.n);
      else outcomes[row.outcome] = Number(row.n);
    }
    const [leased] = await this.db.all<{ n: number }>(
      `SELECT count(*) AS n FROM sitemapkit_run_items i WHERE i.run_id = $1 AND i.outcome IS NULL AND i.lease_id IS NOT NULL AND ${LEASE_LIVE.replaceAll('$now', '$2')}`,
      [run.id, now],
    );
    const [hosts] = await this.db.all<{ n: number }>(
      'SELECT count(*) AS n FROM sitemapkit_run_hosts WHERE run_id = $1',
      [run.id],
    );
    const workers = await this.db.all<{
      id: number;
      label: string;
      started_at: number;
      seen_at: number;
      stopped_at: number | null;
      fetched: number;
      done: number;
      batches: number;
    }>('SELECT * FROM sitemapkit_run_workers WHERE run_id = $1 ORDER BY id', [run.id]);
    return {
      run,
      todo,
      fetchedItems: fetched,
      leased: Number(leased!.n),
      outcomes,
      hosts: Number(hosts!.n),
      workers: workers.map((w) => ({
        id: w.id,
        label: w.label,
        startedAt: Number(w.started_at),
        seenAt: Number(w.seen_at),
        ...(w.stopped_at === null ? {} : { stoppedAt: Number(w.stopped_at) }),
        fetched: w.fetched,
        done: w.done,
        batches: w.batches,
      })),
    };
  }

  /**
   * Every item of the run, in the order met (by id), a page of rows at a time; or those settled
   * with `outcome` alone, and `byUrl` in the order of their URLs (a sitemap's order).
   */
  async *items(runId: number, { outcome, byUrl = false, withQuery = false }: ItemsQuery = {}): AsyncIterable<RunItem> {
    const key = byUrl ? 'i.url' : 'i.id';
    // In the order met, SQLite would read the run's every item by its run_id index and sort them,
    // each page; `+` keeps it on the key's order (a page costs its rows, not the run's).
    const run = byUrl ? 'i.run_id' : '+i.run_id';
    // LIKE's wildcards are % and _: its ? is the character itself.
    const only = `${outcome === undefined ? '' : ' AND i.outcome = $4'}${withQuery ? " AND i.url LIKE '%?%'" : ''}`;
    for (let after: string | number = byUrl ? '' : 0; ;) {
      const rows = await this.db.all<{
        id: number;
        url: string;
        host: string;
        depth: number;
        found_on: number | null;
        found_on_url: string | null;
        outcome: string | null;
        detail: string | null;
        fetched: number | boolean;
        result: string | null;
        input: string | null;
      }>(
        `SELECT i.id, i.url, h.host, i.depth, i.found_on, p.url AS found_on_url, i.outcome, i.detail, i.fetched, i.result, i.input
         FROM sitemapkit_run_items i JOIN sitemapkit_run_hosts h ON h.id = i.host_id
           LEFT JOIN sitemapkit_run_items p ON p.id = i.found_on
         WHERE ${run} = $1 AND ${key} > $2${only} ORDER BY ${key} LIMIT $3`,
        outcome === undefined ? [runId, after, PAGE] : [runId, after, PAGE, outcome],
      );
      for (const row of rows)
        yield {
          id: Number(row.id),
          url: row.url,
          host: row.host,
          depth: row.depth,
          foundOn: row.found_on === null ? null : Number(row.found_on),
          foundOnUrl: row.found_on_url,
          outcome: row.outcome,
          detail: row.detail,
          fetched: Boolean(row.fetched),
          result: row.result === null ? undefined : (JSON.parse(row.result) as unknown),
          input: row.input === null ? undefined : (JSON.parse(row.input) as unknown),
        };
      if (rows.length < PAGE) return;
      const last = rows.at(-1)!;
      after = byUrl ? last.url : Number(last.id);
    }
  }

  /** The query parameters a crawl run stripped, in the order recorded. */
  async *stripped(runId: number): AsyncIterable<{ from: string; to: string; name: string }> {
    const rows = await this.db.all<{ url: string; name: string; kept: string }>(
      'SELECT url, name, kept FROM sitemapkit_run_stripped WHERE run_id = $1 ORDER BY url, name',
      [runId],
    );
    for (const row of rows) yield { from: row.url, to: row.kept, name: row.name };
  }

  /** Hosts first (new ones with `pace`), then the items: known URLs stay as they are, but a URL met too deep is revived. */
  private async addItems(tx: Queryable, runId: number, found: readonly NewItem[], pace: HostPace): Promise<void> {
    // One row per URL in a statement (an upsert may not touch a row twice): the first met stands,
    // but a URL met too deep gives way to a path to it found later, as a statement after would.
    const byUrl = new Map<string, NewItem>();
    for (const item of found) {
      const first = byUrl.get(item.url);
      if (first === undefined || (first.outcome === REVIVABLE_OUTCOME && item.outcome === undefined))
        byUrl.set(item.url, item);
    }
    const items = [...byUrl.values()];
    if (items.length === 0) return;
    const d = this.db.dialect;
    await this.knowHosts(tx, runId, items, pace);
    await tx.run(
      `INSERT INTO sitemapkit_run_items (run_id, host_id, url, depth, chain, found_on, outcome, detail, result, input, fetched)
       SELECT $1, r.host_id, r.url, r.depth, r.chain, r.found_on, r.outcome, r.detail, r.result, r.input, r.fetched
       FROM ${d.jsonRows('$2', [
         ['host_id', 'bigint'],
         ['url', 'text'],
         ['depth', 'integer'],
         ['chain', 'integer'],
         ['found_on', 'bigint'],
         ['outcome', 'text'],
         ['detail', 'text'],
         ['result', 'text'],
         ['input', 'text'],
         ['fetched', 'integer'],
       ])} WHERE true
       ON CONFLICT (run_id, url) DO UPDATE SET
         depth = excluded.depth, chain = excluded.chain, found_on = excluded.found_on, outcome = NULL, detail = NULL
       WHERE sitemapkit_run_items.outcome = '${REVIVABLE_OUTCOME}' AND excluded.outcome IS NULL`,
      [
        runId,
        JSON.stringify(
          items.map((item) => ({
            host_id: this.hostIds.get(hostKey(runId, item.host)),
            url: item.url,
            depth: item.depth ?? 0,
            chain: item.chain ?? 0,
            found_on: item.foundOn ?? null,
            outcome: item.outcome ?? null,
            detail: item.detail ?? null,
            result: item.result === undefined ? null : JSON.stringify(item.result),
            input: item.input === undefined ? null : JSON.stringify(item.input),
            fetched: item.fetched === true ? 1 : 0,
          })),
        ),
      ],
    );
  }

  /** Makes sure every host of `items` has its row, and its id is known here. */
  private async knowHosts(tx: Queryable, runId: number, items: readonly NewItem[], pace: HostPace): Promise<void> {
    const unknown = [...new Set(items.map((item) => item.host))].filter(
      (host) => !this.hostIds.has(hostKey(runId, host)),
    );
    if (unknown.length === 0) return;
    const hosts = JSON.stringify(unknown.map((host) => ({ host })));
    const columns = [['host', 'text']] as const;
    await tx.run(
      `INSERT INTO sitemapkit_run_hosts (run_id, host, concurrency, delay_ms)
       SELECT $1, r.host, $3, $4 FROM ${this.db.dialect.jsonRows('$2', columns)} WHERE true
       ON CONFLICT (run_id, host) DO NOTHING`,
      [runId, hosts, pace.concurrency, pace.delayMs ?? null],
    );
    const rows = await tx.all<{ id: number; host: string }>(
      `SELECT h.id, h.host FROM sitemapkit_run_hosts h JOIN ${this.db.dialect.jsonRows('$2', columns)} ON r.host = h.host
       WHERE h.run_id = $1`,
      [runId, hosts],
    );
    for (const row of rows) this.hostIds.set(hostKey(runId, row.host), Number(row.id));
  }
}

function hostKey(runId: number, host: string): string {
  return `${runId} ${host}`;
}

function runRecord(row: RunRow): RunRecord {
  return {
    id: Number(row.id),
    name: row.name,
    kind: row.kind,
    options: JSON.parse(row.options) as unknown,
    state: row.state,
    ...(row.budget === null ? {} : { budget: Number(row.budget) }),
    createdAt: Number(row.created_at),
    ...(row.done_at === null ? {} : { doneAt: Number(row.done_at) }),
    ...(row.outputs_at === null ? {} : { outputsAt: Number(row.outputs_at) }),
    ...(row.outputs_by === null ? {} : { outputsBy: row.outputs_by }),
  };
}
