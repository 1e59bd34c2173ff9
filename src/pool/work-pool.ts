/**
 * The one work pool of sitemapkit: whatever fetches many URLs (the sitemap tree walk, the crawler,
 * and next the audit and the workers of a run shared by several machines) queues its tasks here,
 * and this is the one place that decides when each may start. It owns politeness: the HTTP layer
 * below keeps no limiter of its own.
 *
 * ```ts
 * const pool = new WorkPool<Page, Outcome>({
 *   run: (page, { signal, host, run }) => visit(page, signal),  // one task: fetch and judge one URL
 *   onSettled: (page, settled) => record(page, settled),        // results as they finish
 *   refill: () => queueMoreFromTheStore(),                      // (optional) a worker is free
 *   concurrency: 8,                                             // tasks running at once, all hosts
 *   perHost: { concurrency: 4, delayMs: 0 },                    // the default for every host
 *   signal,                                                     // aborting stops the pool
 * });
 * pool.configureHost('www.example.com', { delayMs: 10_000 });  // robots.txt Crawl-delay: 10
 * pool.enqueue(page, 'www.example.com');                       // now, or…
 * pool.enqueue(page, 'www.example.com', Date.now() + 5_000);   // …not before a time
 * await pool.idle();                                           // nothing queued, waiting or running
 * ```
 *
 * - Per host: at most `concurrency` tasks at once and at least `delayMs` between two starts. Hosts
 *   never wait for each other; among hosts with work, starts go round-robin.
 * - Across hosts: at most `concurrency` tasks at once.
 * - A task that must wait (a retry's backoff, a Retry-After) throws `RetryLater`: the pool frees
 *   its worker at once and starts the task again, first in its host's line, once the wait is over.
 *   The backoff of one URL overlaps the work on the others instead of holding a worker asleep.
 *   `context.run` counts the starts, so a task knows it is being retried.
 * - A caller whose work lives in a larger store (the crawl's frontier) need not queue it all: the
 *   pool calls `refill` whenever a task stops running, and the caller queues a few more there.
 * - Politeness counts requests, not tasks: a task that decides to make no request after all (a
 *   URL robots.txt refuses) calls `context.madeNoRequest()`, and its host's delay is not spent.
 * - Waiting tasks hold no timer and no abort listener each: one timer for the pool's next due
 *   time and one listener on the caller's signal, however many tasks are queued.
 * - Aborting (the signal, or `abort()`) drops what is queued; running tasks see `context.signal`
 *   abort and `idle()` resolves once they have returned.
 */
import { DeferredHeap } from './deferred.js';
import { Deque } from './deque.js';
import { LinkedSignal } from './linked-signal.js';

/** How gently one host is treated: tasks at once, and the least time between two starts. */
export interface HostPoliteness {
  /** Tasks of one host running at once. */
  concurrency: number;
  /** Least time between the starts of two tasks of one host, in ms (--delay, robots.txt Crawl-delay). */
  delayMs: number;
}

/** What a running task is given: the signal that stops it. */
export interface TaskContext {
  /** The host the task was queued under. */
  host: string;
  /** Aborted when the pool is: hand it to every request the task makes. */
  signal: AbortSignal;
  /** 1 on the task's first start, 2 on its start after one RetryLater, and so on. */
  run: number;
  /** The task made no request to its host after all: this start does not count against the host's delay. */
  madeNoRequest(): void;
}

/** How a task ended: its value, or what it threw. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** What a {@link WorkPool} runs, and how many at once. */
export interface WorkPoolOptions<T, R> {
  /** Does one task. Throw RetryLater to be started again later; any other throw settles the task as failed. */
  run: (task: T, context: TaskContext) => Promise<R>;
  /**
   * Each task's result as it finishes (not called for tasks dropped by an abort). A throw aborts
   * the pool, and idle() rejects with it.
   */
  onSettled?: ((task: T, settled: Settled<R>) => void) | undefined;
  /** Called whenever a task stops running (settled, or parked by RetryLater): a moment to queue more. */
  refill?: (() => void) | undefined;
  /** Tasks running at once across all hosts (default 8). */
  concurrency?: number | undefined;
  /** The politeness of every host unless configureHost says otherwise (default 4 at once, no delay). */
  perHost?: Partial<HostPoliteness> | undefined;
  /** Aborting it aborts the pool. */
  signal?: AbortSignal | undefined;
}

/** Thrown by a task that must wait before it can go on: the pool starts it again after `delayMs`. */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'RetryLater';
  }
}

export const DEFAULT_POOL_CONCURRENCY = 8;
export const DEFAULT_HOST_POLITENESS: Readonly<HostPoliteness> = { concurrency: 4, delayMs: 0 };

interface Job<T> {
  task: T;
  host: string;
  runs: number;
}

interface HostState<T> {
  name: string;
  queue: Deque<Job<T>>;
  active: number;
  /** The earliest time the next task of this host may start (epoch ms). */
  nextStart: number;
  /** `nextStart` before the last start moved it, for a task that made no request (see madeNoRequest). */
  previousStart: number;
  /** Whether the host is in the ring (it stays there, queue empty, until the ring passes it). */
  inRing: boolean;
}

/**
 * Runs tasks at a bounded concurrency with per-host politeness; a task that throws {@link
 * RetryLater} is started again after its wait without holding a worker meanwhile.
 */
export class WorkPool<T, R = void> {
  private readonly concurrency: number;
  private readonly politeness: HostPoliteness;
  private readonly configured = new Map<string, HostPoliteness>();
  private readonly hosts = new Map<string, HostState<T>>();
  /** Hosts with queued tasks, visited round-robin from `cursor`. */
  private readonly ring: HostState<T>[] = [];
  private cursor = 0;
  private readonly deferred = new DeferredHeap<Job<T>>();
  private readonly controller = new AbortController();
  private running = 0;
  private queued = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Infinity;
  private idleWaiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private failure: { error: unknown } | undefined;
  private listening = false;

  constructor(private readonly options: WorkPoolOptions<T, R>) {
    this.concurrency = options.concurrency ?? DEFAULT_POOL_CONCURRENCY;
    this.politeness = { ...DEFAULT_HOST_POLITENESS, ...definedOnly(options.perHost ?? {}) };
    checkPoliteness(this.politeness);
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1)
      throw new RangeError(`the pool's concurrency must be a whole number of at least 1, not ${this.concurrency}`);
    if (options.signal?.aborted) this.controller.abort(options.signal.reason);
  }

  /** Aborted when the pool is. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Tasks running, queued (ready or waiting for their host) and parked until a time. */
  get stats(): { running: number; queued: number; deferred: number } {
    return { running: this.running, queued: this.queued, deferred: this.deferred.size };
  }

  /** Queues a task of `host`, to start as soon as the limits allow, or not before `notBefore` (epoch ms). */
  enqueue(task: T, host: string, notBefore?: number): void {
    if (this.controller.signal.aborted) return;
    this.listen();
    const job: Job<T> = { task, host, runs: 0 };
    if (notBefore !== undefined && notBefore > Date.now()) this.deferred.park(job, notBefore);
    else this.line(job, 'back');
    this.pump();
  }

  /** Sets the politeness of one host (e.g. from its robots.txt Crawl-delay); unset fields keep the pool's. */
  configureHost(host: string, settings: Partial<HostPoliteness>): void {
    const merged = { ...this.settingsOf(host), ...definedOnly(settings) };
    checkPoliteness(merged);
    this.configured.set(host, merged);
    this.pump();
  }

  /** Resolves when nothing is queued, parked or running; rejects if an onSettled callback threw. */
  idle(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.idleWaiters.push({ resolve, reject });
      this.settleIdle();
    });
  }

  /** Drops every queued task and aborts the running ones' signal. */
  abort(reason?: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
    this.deferred.clear();
    for (const host of this.hosts.values()) {
      host.queue.clear();
      host.inRing = false;
    }
    this.ring.length = 0;
    this.queued = 0;
    this.clearTimer();
    this.settleIdle();
  }

  private readonly onCallerAbort = (): void => this.abort(this.options.signal?.reason);

  /** One listener on the caller's signal while there is work, none while idle. */
  private listen(): void {
    if (this.listening || !this.options.signal) return;
    this.listening = true;
    this.options.signal.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  private unlisten(): void {
    if (!this.listening) return;
    this.listening = false;
    this.options.signal?.removeEventListener('abort', this.onCallerAbort);
  }

  private settingsOf(host: string): HostPoliteness {
    return this.configured.get(host) ?? this.politeness;
  }

  private hostState(name: string): HostState<T> {
    let state = this.hosts.get(name);
    if (!state) {
      state = { name, queue: new Deque(), active: 0, nextStart: 0, previousStart: 0, inRing: false };
      this.hosts.set(name, state);
    }
    return state;
  }

  /** Puts a job in its host's line: new work at the back, a retry that is due at the front. */
  private line(job: Job<T>, end: 'front' | 'back'): void {
    const host = this.hostState(job.host);
    if (!host.inRing) {
      host.inRing = true;
      this.ring.push(host);
    }
    if (end === 'front') host.queue.unshift(job);
    else host.queue.push(job);
    this.queued += 1;
  }

  /** Starts whatever may start now, then sets the one timer for the next time something may. */
  private pump(): void {
    if (this.controller.signal.aborted) return this.settleIdle();
    const now = Date.now();
    // Due retries go to the front of their host's line, the earliest due first.
    const due = [...this.deferred.takeDue(now)];
    for (let i = due.length - 1; i >= 0; i--) this.line(due[i]!, 'front');
    while (this.running < this.concurrency) {
      const host = this.nextReadyHost(now);
      if (!host) break;
      this.start(host.queue.shift()!, host, now);
    }
    this.wakeAt(this.nextTime(now));
    this.settleIdle();
  }

  /** The next host, round-robin, with a queued task it may start now. */
  private nextReadyHost(now: number): HostState<T> | undefined {
    for (let seen = 0; seen < this.ring.length; seen++) {
      if (this.cursor >= this.ring.length) this.cursor = 0;
      const host = this.ring[this.cursor]!;
      if (host.queue.length === 0) {
        host.inRing = false;
        this.ring.splice(this.cursor, 1);
        seen -= 1;
        continue;
      }
      this.cursor += 1;
      if (host.active < this.settingsOf(host.name).concurrency && host.nextStart <= now) return host;
    }
    return undefined;
  }

  /** When a task not startable now could start: a parked one falls due, or a host's delay ends. */
  private nextTime(now: number): number {
    if (this.running >= this.concurrency) return Infinity; // a finishing task pumps again
    let next = this.deferred.nextDue ?? Infinity;
    for (const host of this.ring) {
      if (host.queue.length > 0 && host.nextStart > now && host.active < this.settingsOf(host.name).concurrency)
        next = Math.min(next, host.nextStart);
    }
    return next;
  }

  private start(job: Job<T>, host: HostState<T>, now: number): void {
    this.queued -= 1;
    this.running += 1;
    host.active += 1;
    host.previousStart = host.nextStart;
    const nextStart = (host.nextStart = now + this.settingsOf(host.name).delayMs);
    job.runs += 1;
    // A signal of its own per start: requests listen on it, never on the pool's one signal.
    const signal = new LinkedSignal(this.signal);
    const context: TaskContext = {
      host: host.name,
      signal: signal.signal,
      run: job.runs,
      madeNoRequest: () => {
        // Unless another task of the host has started since, which spent the turn.
        if (host.nextStart !== nextStart) return;
        host.nextStart = host.previousStart;
        this.pump();
      },
    };
    new Promise<R>((resolve) => resolve(this.options.run(job.task, context))).then(
      (value) => {
        signal.release();
        this.finish(job, host, { ok: true, value });
      },
      (error: unknown) => {
        signal.release();
        if (error instanceof RetryLater && !this.signal.aborted) {
          this.deferred.park(job, Date.now() + Math.max(0, error.delayMs));
          this.finish(job, host, undefined);
        } else {
          this.finish(job, host, { ok: false, error });
        }
      },
    );
  }

  private finish(job: Job<T>, host: HostState<T>, settled: Settled<R> | undefined): void {
    this.running -= 1;
    host.active -= 1;
    try {
      if (settled && !(this.signal.aborted && !settled.ok)) this.options.onSettled?.(job.task, settled);
      if (!this.signal.aborted) this.options.refill?.();
    } catch (error) {
      this.failure ??= { error };
      this.abort(error);
    }
    this.forgetIfDone(host);
    this.pump();
  }

  /** Lets go of a host with nothing queued or running whose delay no longer matters. */
  private forgetIfDone(host: HostState<T>): void {
    if (host.active === 0 && host.queue.length === 0 && host.nextStart <= Date.now()) this.hosts.delete(host.name);
  }

  private wakeAt(due: number): void {
    if (due === this.timerDue) return;
    this.clearTimer();
    if (due === Infinity) return;
    this.timerDue = due;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerDue = Infinity;
        this.pump();
      },
      Math.max(0, due - Date.now()),
    );
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Infinity;
  }

  private settleIdle(): void {
    if (this.running > 0 || this.queued > 0 || this.deferred.size > 0) return;
    this.clearTimer();
    this.unlisten();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) {
      if (this.failure) waiter.reject(this.failure.error);
      else waiter.resolve();
    }
  }
}

function checkPoliteness(settings: HostPoliteness): void {
  if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1)
    throw new RangeError(`per-host concurrency must be a whole number of at least 1, not ${settings.concurrency}`);
  if (!Number.isFinite(settings.delayMs) || settings.delayMs < 0)
    throw new RangeError(`a host's delay must be 0 ms or more, not ${settings.delayMs}`);
}

/** The settings given a value: a field set to undefined keeps its default. */
function definedOnly<S extends object>(settings: S): Partial<S> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Partial<S>;
}
