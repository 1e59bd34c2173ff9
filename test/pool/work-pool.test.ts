/**
 * The work pool: global and per-host limits, delays between starts, round-robin across hosts,
 * retries that wait without holding a worker, abort, and no listener per waiting task. Schedules
 * are asserted as orders and lower bounds (a timer never fires early), never as exact times.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { DeferredHeap } from '../../src/pool/deferred.js';
import { Deque } from '../../src/pool/deque.js';
import { RetryLater, WorkPool, type Settled, type TaskContext } from '../../src/pool/index.js';

interface Task {
  name: string;
  host: string;
  /** How long the task works (ms). */
  ms?: number;
}

/** A pool whose tasks record when they start and how many run at once, overall and per host. */
function recordingPool(
  options: { concurrency?: number; perHost?: { concurrency?: number; delayMs?: number }; signal?: AbortSignal },
  behave: (task: Task, context: TaskContext) => Promise<void> | void = () => undefined,
) {
  const log = {
    starts: [] as { name: string; host: string; at: number; run: number }[],
    maxRunning: 0,
    maxPerHost: new Map<string, number>(),
    settled: [] as [string, Settled<string>][],
  };
  let running = 0;
  const perHost = new Map<string, number>();
  const pool = new WorkPool<Task, string>({
    ...options,
    run: async (task, context) => {
      log.starts.push({ name: task.name, host: context.host, at: performance.now(), run: context.run });
      running += 1;
      perHost.set(context.host, (perHost.get(context.host) ?? 0) + 1);
      log.maxRunning = Math.max(log.maxRunning, running);
      log.maxPerHost.set(context.host, Math.max(log.maxPerHost.get(context.host) ?? 0, perHost.get(context.host)!));
      try {
        await behave(task, context);
        if (task.ms) await sleep(task.ms);
        return `${task.name} done`;
      } finally {
        running -= 1;
        perHost.set(context.host, perHost.get(context.host)! - 1);
      }
    },
    onSettled: (task, settled) => log.settled.push([task.name, settled]),
  });
  const add = (task: Task, notBefore?: number) => pool.enqueue(task, task.host, notBefore);
  return { pool, log, add };
}

function tasks(host: string, count: number, ms = 0): Task[] {
  return Array.from({ length: count }, (_, i) => ({ name: `${host}${i}`, host, ms }));
}

describe('WorkPool', () => {
  it('keeps to the global concurrency, and uses all of it', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 3, perHost: { concurrency: 10 } });
    for (const host of ['a', 'b', 'c', 'd']) tasks(host, 5, 10).forEach((task) => add(task));
    await pool.idle();
    assert.equal(log.starts.length, 20);
    assert.equal(log.maxRunning, 3);
    assert.equal(log.settled.length, 20);
    assert.ok(log.settled.every(([name, settled]) => settled.ok && settled.value === `${name} done`));
  });

  it('keeps each host to its own concurrency while other hosts go on', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 6, perHost: { concurrency: 2 } });
    tasks('slow', 6, 20).forEach((task) => add(task));
    tasks('other', 4, 20).forEach((task) => add(task));
    await pool.idle();
    assert.equal(log.maxPerHost.get('slow'), 2);
    assert.equal(log.maxPerHost.get('other'), 2);
    assert.equal(log.maxRunning, 4);
  });

  it('starts hosts round-robin, so one host with many tasks does not starve the others', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 1 });
    tasks('a', 3).forEach((task) => add(task));
    tasks('b', 3).forEach((task) => add(task));
    add({ name: 'c0', host: 'c' });
    await pool.idle();
    assert.deepEqual(
      log.starts.map((s) => s.name),
      ['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'b2'],
    );
  });

  it('spaces the starts of one host by its delay, on a schedule, while another host is not held up', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 4, perHost: { delayMs: 60 } });
    pool.configureHost('fast', { delayMs: 0 });
    tasks('polite', 4).forEach((task) => add(task));
    tasks('fast', 4).forEach((task) => add(task));
    await pool.idle();
    const polite = log.starts.filter((s) => s.host === 'polite');
    polite.forEach((start, k) => {
      const since = start.at - polite[0]!.at;
      assert.ok(since >= k * 60 - 5, `start ${k} came ${since.toFixed(0)} ms after the first`);
    });
    const lastFast = log.starts.filter((s) => s.host === 'fast').at(-1)!;
    assert.ok(lastFast.at < polite[1]!.at, 'the fast host finished its starts before the polite one could start again');
  });

  it('frees the worker of a task that must wait: the others run during its backoff', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 1 }, (task, context) => {
      if (task.name === 'retried' && context.run === 1) throw new RetryLater(100, 'HTTP 503');
    });
    add({ name: 'retried', host: 'a' });
    add({ name: 'b', host: 'a' });
    add({ name: 'c', host: 'b' });
    await pool.idle();
    assert.deepEqual(
      log.starts.map((s) => `${s.name}#${s.run}`),
      ['retried#1', 'c#1', 'b#1', 'retried#2'], // round-robin: host b comes after host a
    );
    const [first, , , again] = log.starts;
    assert.ok(again!.at - first!.at >= 95, `started again ${(again!.at - first!.at).toFixed(0)} ms later`);
    assert.deepEqual(
      log.settled.map(([name]) => name),
      ['c', 'b', 'retried'],
      'a waiting task settles once, when it is done',
    );
  });

  it('puts a retry that is due at the front of its host line', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 1 }, (task, context) => {
      if (task.name === 'retried' && context.run === 1) throw new RetryLater(0, 'again');
    });
    add({ name: 'retried', host: 'a' });
    tasks('a', 3, 5).forEach((task) => add(task));
    await pool.idle();
    assert.deepEqual(
      log.starts.map((s) => `${s.name}#${s.run}`),
      ['retried#1', 'retried#2', 'a0#1', 'a1#1', 'a2#1'],
    );
  });

  it('holds a task enqueued with a not-before time until then', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 2 });
    const queuedAt = performance.now();
    add({ name: 'later', host: 'a' }, Date.now() + 80);
    add({ name: 'now', host: 'a' });
    await pool.idle();
    assert.deepEqual(
      log.starts.map((s) => s.name),
      ['now', 'later'],
    );
    assert.ok(log.starts[1]!.at - queuedAt >= 75);
  });

  it('does not spend a host delay on a task that made no request', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 1, perHost: { delayMs: 150 } }, (task, context) => {
      if (task.name.startsWith('refused')) context.madeNoRequest();
    });
    for (const name of ['refused0', 'refused1', 'fetched0', 'fetched1']) add({ name, host: 'a' });
    await pool.idle();
    const at = (name: string) => log.starts.find((start) => start.name === name)!.at;
    assert.ok(at('fetched0') - at('refused0') < 100, `${(at('fetched0') - at('refused0')).toFixed(0)} ms`);
    assert.ok(at('fetched1') - at('fetched0') >= 145, `${(at('fetched1') - at('fetched0')).toFixed(0)} ms`);
  });

  it('asks for more work whenever a task stops running, so a caller can feed it from a larger store', async () => {
    const store = tasks('a', 50);
    let mostQueued = 0;
    const ran: string[] = [];
    const feed = () => {
      while (pool.stats.queued < 2 && store.length > 0) pool.enqueue(store.shift()!, 'a');
      mostQueued = Math.max(mostQueued, pool.stats.queued);
    };
    const pool = new WorkPool<Task>({
      concurrency: 3,
      run: async (task, context) => {
        ran.push(task.name);
        await sleep(1);
        // A parked task frees its worker too: the pool asks for more then as well.
        if (task.name === 'a7' && context.run === 1) throw new RetryLater(5, 'again');
      },
      refill: feed,
    });
    feed();
    await pool.idle();
    assert.equal(ran.length, 51);
    assert.deepEqual(new Set(ran), new Set(tasks('a', 50).map((task) => task.name)));
    // The feed keeps two waiting; the parked a7, back from its wait, may stand beside them.
    assert.ok(mostQueued <= 3, `${mostQueued} queued at once`);
  });

  it('settles a failing task as failed and goes on with the rest', async () => {
    const { pool, log, add } = recordingPool({ concurrency: 2 }, (task) => {
      if (task.name === 'a1') throw new Error('broken');
    });
    tasks('a', 3).forEach((task) => add(task));
    await pool.idle();
    const failed = log.settled.find(([name]) => name === 'a1')![1];
    assert.equal(failed.ok, false);
    assert.equal(!failed.ok && (failed.error as Error).message, 'broken');
    assert.equal(log.settled.filter(([, settled]) => settled.ok).length, 2);
  });

  it('on abort drops what is queued, signals what runs, and is idle once that returns', async () => {
    const controller = new AbortController();
    const seen: boolean[] = [];
    const { pool, log, add } = recordingPool({ concurrency: 2, signal: controller.signal }, async (_task, context) => {
      await sleep(1_000, undefined, { signal: context.signal }).catch(() => seen.push(context.signal.aborted));
    });
    tasks('a', 10).forEach((task) => add(task));
    add({ name: 'parked', host: 'b' }, Date.now() + 5_000);
    await sleep(20);
    controller.abort(new Error('stop'));
    const started = performance.now();
    await pool.idle();
    assert.ok(performance.now() - started < 500, 'idle right after the running tasks returned');
    assert.equal(log.starts.length, 2);
    assert.deepEqual(seen, [true, true]);
    assert.deepEqual(pool.stats, { running: 0, queued: 0, deferred: 0 });
    add({ name: 'too late', host: 'a' });
    assert.equal(pool.stats.queued, 0, 'an aborted pool takes no more work');
  });

  it('holds no listener or timer per waiting task: 50,000 queued, one listener, no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const controller = new AbortController();
    try {
      let done = 0;
      const pool = new WorkPool<number>({
        concurrency: 8,
        signal: controller.signal,
        run: async () => {
          done += 1;
          await new Promise((resolve) => setImmediate(resolve));
        },
      });
      for (let i = 0; i < 50_000; i++) pool.enqueue(i, `host-${i % 3}`, i % 2 === 0 ? undefined : Date.now() + 1);
      assert.ok(getEventListeners(controller.signal, 'abort').length <= 1);
      await pool.idle();
      assert.equal(done, 50_000);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'no listener left once idle');
      await sleep(10); // warnings are emitted on the next tick
      assert.deepEqual(
        warnings.map((w) => w.name),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('refuses limits that cannot work', () => {
    assert.throws(() => new WorkPool({ run: () => Promise.resolve(), concurrency: 0 }), /at least 1/);
    assert.throws(() => new WorkPool({ run: () => Promise.resolve(), perHost: { concurrency: 1.5 } }), /at least 1/);
    const pool = new WorkPool({ run: () => Promise.resolve() });
    assert.throws(() => pool.configureHost('a', { delayMs: -1 }), /0 ms or more/);
  });
});

describe('Deque and DeferredHeap', () => {
  it('keep order through growth, wrap-around and the front', () => {
    const deque = new Deque<number>();
    const model: number[] = [];
    for (let i = 0; i < 1_000; i++) {
      if (i % 7 === 0) {
        deque.unshift(-i);
        model.unshift(-i);
      } else {
        deque.push(i);
        model.push(i);
      }
      if (i % 3 === 0) assert.equal(deque.shift(), model.shift());
    }
    assert.equal(deque.length, model.length);
    const rest: number[] = [];
    for (let item = deque.shift(); item !== undefined; item = deque.shift()) rest.push(item);
    assert.deepEqual(rest, model);
  });

  it('releases parked items earliest first, only once due', () => {
    const heap = new DeferredHeap<string>();
    const times = [50, 10, 40, 10, 30, 20, 60];
    times.forEach((t, i) => heap.park(`${t}:${i}`, t));
    assert.equal(heap.nextDue, 10);
    assert.deepEqual(
      [...heap.takeDue(35)].map((item) => Number(item.split(':')[0])),
      [10, 10, 20, 30],
    );
    assert.equal(heap.size, 3);
    assert.deepEqual([...heap.takeDue(100)], ['40:2', '50:0', '60:6']);
    assert.equal(heap.nextDue, undefined);
  });
});
