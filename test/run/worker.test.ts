/**
 * The worker's claims on a real run store (a SQLite file): they grow while a host's frontier
 * keeps every slot busy, each item still done once, and a small frontier stays spread over the
 * host's slots; and once the run is done, nothing of the worker holds the process open.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { runWorker, type WorkKind } from '../../src/run/worker.js';
import { RunStore, type NewItem } from '../../src/store/run-store.js';

const HOST = 'http://a.test';

function items(count: number): NewItem[] {
  return Array.from({ length: count }, (_, i) => ({ url: `${HOST}/p/${i}`, host: HOST }));
}

/** Works a run of `count` items on one host; counts the store's claims and the visits in flight. */
async function work(dir: string, name: string, count: number, options: { concurrency: number; maxBatch: number }) {
  const store = await RunStore.open(join(dir, `${name}.sqlite`));
  const counted = { leases: 0, inFlight: 0, maxInFlight: 0, visits: new Map<string, number>() };
  const claim = store.claim.bind(store);
  store.claim = async (...args) => {
    const lease = await claim(...args);
    if (lease !== undefined) counted.leases++;
    return lease;
  };
  const kind: WorkKind = {
    maxBatch: options.maxBatch,
    hostDelay: () => Promise.resolve(0),
    async visit(item) {
      counted.visits.set(item.url, (counted.visits.get(item.url) ?? 0) + 1);
      counted.maxInFlight = Math.max(counted.maxInFlight, ++counted.inFlight);
      await sleep(1);
      counted.inFlight--;
      return { outcome: 'done', fetched: true };
    },
  };
  const pace = { concurrency: options.concurrency, delayMs: 0 };
  try {
    const { run } = await store.createOrJoin({ name, kind: 'test', options: {}, state: 'running' }, items(count), pace);
    await runWorker({ store, run, kind, label: 'test', pace, commitEach: true, batch: 10 });
    return { ...counted, pending: await store.pending(run.id) };
  } finally {
    await store.close();
  }
}

describe('a worker on a run store', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-worker-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('grows its claims on a big frontier, each item done once', async () => {
    const ran = await work(dir, 'big', 600, { concurrency: 4, maxBatch: 64 });
    assert.equal(ran.pending, 0);
    assert.equal(ran.visits.size, 600);
    assert.ok(
      [...ran.visits.values()].every((visits) => visits === 1),
      'no item twice',
    );
    assert.equal(ran.maxInFlight, 4);
    assert.ok(ran.leases < 40, `${ran.leases} claims (60 of 10 items each without growing)`);
  });

  it('keeps claims of `batch` items where growing is not asked for', async () => {
    const ran = await work(dir, 'fixed', 200, { concurrency: 4, maxBatch: 10 });
    assert.equal(ran.pending, 0);
    assert.equal(ran.leases, 20);
  });

  it('spreads a small frontier over every slot of its host', async () => {
    const ran = await work(dir, 'small', 24, { concurrency: 3, maxBatch: 64 });
    assert.equal(ran.visits.size, 24);
    assert.equal(ran.maxInFlight, 3);
  });

  it('leaves no timer that holds the process open once the run is done', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const ran = await work(dir, 'ended', 30, { concurrency: 2, maxBatch: 10 });
    assert.equal(ran.pending, 0);
    // A CLI command ends when its loop is empty: a timer left here kept every crawl up to 0.5 s longer.
    assert.equal(timers(), before);
  });
});
