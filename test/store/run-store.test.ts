/**
 * The run queue on both drivers: runs created once and joined, claims per host within its
 * concurrency and pace, commits that count once, leases of a vanished worker taken over, and a
 * URL met too deep revived by a shallower path.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunStore, type NewItem } from '../../src/store/run-store.js';
import { storeLocations } from '../helpers/postgres.js';

const stores = await storeLocations();
const PACE = { concurrency: 2, delayMs: 0 };

function items(host: string, count: number, from = 0): NewItem[] {
  return Array.from({ length: count }, (_, i) => ({ url: `${host}/p/${from + i}`, host }));
}

for (const { name, location } of stores) {
  describe(`runs on ${name}`, () => {
    test('the first process creates a run, the others join it; a name of another kind is refused', async () => {
      const store = await RunStore.open(location);
      try {
        const options = { start: 'http://a.test/' };
        const first = await store.createOrJoin(
          { name: 'join', kind: 'crawl', options, state: 'running' },
          items('http://a.test', 3),
          PACE,
        );
        const second = await store.createOrJoin(
          { name: 'join', kind: 'crawl', options: { other: true }, state: 'running' },
          items('http://a.test', 5),
          PACE,
        );
        assert.equal(first.created, true);
        assert.equal(second.created, false);
        assert.deepEqual(second.run.options, options, "a joiner follows the creator's options");
        assert.equal(await store.pending(first.run.id), 3, "a joiner's seeds are not added");
        await assert.rejects(
          store.createOrJoin({ name: 'join', kind: 'tree', options: {}, state: 'running' }, [], PACE),
          /is a crawl run, not a tree run/,
        );
      } finally {
        await store.close();
      }
    });

    test('claims lease a host at most `concurrency` times, each item once, in depth order', async () => {
      const store = await RunStore.open(location);
      try {
        const seeds = [
          ...items('http://b.test', 5),
          { url: 'http://b.test/shallow', host: 'http://b.test', depth: 0 },
          ...items('http://c.test', 2),
        ].map((item, i) => ({ ...item, depth: item.url.endsWith('shallow') ? 0 : 1 + (i % 2) }));
        const { run } = await store.createOrJoin(
          { name: 'claims', kind: 'crawl', options: {}, state: 'running' },
          seeds,
          PACE,
        );
        const worker = await store.addWorker(run.id, 'test');
        const leases = [];
        for (;;) {
          const lease = await store.claim(run.id, worker, { batch: 2, leaseMs: 60_000 });
          if (lease === undefined) break;
          leases.push(lease);
        }
        const byHost = new Map<string, typeof leases>();
        for (const lease of leases) byHost.set(lease.host, [...(byHost.get(lease.host) ?? []), lease]);
        assert.equal(byHost.get('http://b.test')?.length, 2, 'two leases of b.test: its concurrency');
        assert.equal(byHost.get('http://c.test')?.length, 1, 'c.test has two items: one lease of two');
        const claimed = leases.flatMap((lease) => lease.items.map((item) => item.url));
        assert.equal(new Set(claimed).size, claimed.length, 'no item in two leases');
        const first = byHost.get('http://b.test')![0]!;
        assert.equal(first.items[0]!.url, 'http://b.test/shallow', 'the shallowest first');
        assert.ok(first.items[0]!.depth <= first.items[1]!.depth);
        // Committing one lease frees its slot: the host's rest is claimable.
        await store.commit(
          first,
          worker,
          { done: first.items.map((item) => ({ id: item.id, outcome: 'listed', fetched: true })), fetched: 2 },
          PACE,
        );
        const next = await store.claim(run.id, worker, { batch: 10, leaseMs: 60_000 });
        assert.equal(next?.host, 'http://b.test');
        assert.equal(next?.items.length, 6 - 4, 'what no lease holds');
      } finally {
        await store.close();
      }
    });

    test('a batch committed twice counts once; found URLs are added once, a too-deep one revived', async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'idempotent', kind: 'crawl', options: {}, state: 'running' },
          items('http://d.test', 1),
          PACE,
        );
        const worker = await store.addWorker(run.id, 'test');
        const lease = (await store.claim(run.id, worker, { batch: 5, leaseMs: 60_000 }))!;
        const page = lease.items[0]!;
        const found: NewItem[] = [
          { url: 'http://d.test/deep', host: 'http://d.test', depth: 9, outcome: 'max-depth', detail: 'too deep' },
          { url: 'http://e.test/', host: 'http://e.test', depth: 1, foundOn: page.id },
          { url: 'http://e.test/', host: 'http://e.test', depth: 1, foundOn: page.id },
          { url: 'http://out.test/', host: 'http://out.test', depth: 1, outcome: 'out-of-scope', detail: 'elsewhere' },
        ];
        const result = {
          done: [{ id: page.id, outcome: 'listed', fetched: true, result: { loc: page.url } }],
          found,
          fetched: 1,
        };
        await store.commit(lease, worker, result, PACE);
        await store.commit(lease, worker, { ...result, done: [{ ...result.done[0]!, outcome: 'noindex' }] }, PACE);
        const all = new Map<string, { outcome: string | null; result: unknown }>();
        for await (const item of store.items(run.id)) all.set(item.url, item);
        assert.equal(all.size, 4);
        assert.deepEqual(all.get('http://d.test/p/0'), {
          ...all.get('http://d.test/p/0'),
          outcome: 'listed',
          result: { loc: 'http://d.test/p/0' },
        });
        assert.equal(all.get('http://d.test/deep')?.outcome, 'max-depth');
        // A shallower path queues the too-deep URL after all; a settled one stays settled.
        await store.addSeeds(
          run.id,
          [
            { url: 'http://d.test/deep', host: 'http://d.test', depth: 1 },
            { url: 'http://out.test/', host: 'http://out.test', depth: 1 },
          ],
          PACE,
        );
        const status = (await store.status('idempotent'))!;
        assert.equal(status.todo, 2, 'e.test/ and the revived d.test/deep');
        assert.deepEqual(status.outcomes, { listed: 1, 'out-of-scope': 1 });
        assert.equal(status.hosts, 3);
        assert.equal(status.workers[0]?.fetched, 2, 'each commit counts its requests');
      } finally {
        await store.close();
      }
    });

    test("a vanished worker's lease expires and its items are claimed again", async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'takeover', kind: 'crawl', options: {}, state: 'running' },
          items('http://f.test', 3),
          { concurrency: 1, delayMs: 0 },
        );
        const gone = await store.addWorker(run.id, 'gone');
        const alive = await store.addWorker(run.id, 'alive');
        const lost = await store.claim(run.id, gone, { batch: 3, leaseMs: 300 });
        assert.equal(lost?.items.length, 3);
        assert.equal(await store.claim(run.id, alive, { batch: 3, leaseMs: 300 }), undefined, 'the host is held');
        await new Promise((resolve) => setTimeout(resolve, 400));
        const taken = await store.claim(run.id, alive, { batch: 3, leaseMs: 60_000 });
        assert.deepEqual(
          taken?.items.map((item) => item.url),
          lost.items.map((item) => item.url),
        );
      } finally {
        await store.close();
      }
    });

    test('workers claiming at once on connections of their own never lease a host beyond its concurrency', async () => {
      const WORKERS = 6;
      const stores = await Promise.all(Array.from({ length: WORKERS }, () => RunStore.open(location)));
      try {
        const pace = { concurrency: 2, delayMs: 0 };
        const { run } = await stores[0]!.createOrJoin(
          { name: 'race', kind: 'crawl', options: {}, state: 'running' },
          [...items('http://h.test', 60), ...items('http://i.test', 60)],
          pace,
        );
        const workers = await Promise.all(stores.map((store) => store.addWorker(run.id, 'racer')));
        const held = new Map<string, number>();
        const most = new Map<string, number>();
        // Each worker claims, holds its lease a moment, commits, and again until the run is empty.
        const work = async (store: RunStore, worker: number) => {
          for (;;) {
            const lease = await store.claim(run.id, worker, { batch: 1, leaseMs: 60_000 });
            if (lease === undefined) {
              if ((await store.pending(run.id)) === 0) return;
              await new Promise((resolve) => setTimeout(resolve, 1));
              continue;
            }
            const now = (held.get(lease.host) ?? 0) + 1;
            held.set(lease.host, now);
            most.set(lease.host, Math.max(most.get(lease.host) ?? 0, now));
            await new Promise((resolve) => setTimeout(resolve, 20));
            // Let go here, before the commit ends the lease: what is counted held is surely held.
            held.set(lease.host, held.get(lease.host)! - 1);
            const done = lease.items.map((item) => ({ id: item.id, outcome: 'listed', fetched: true }));
            await store.commit(lease, worker, { done, fetched: done.length }, pace);
          }
        };
        await Promise.all(stores.map((store, i) => work(store, workers[i]!)));
        assert.deepEqual(Object.fromEntries(most), { 'http://h.test': 2, 'http://i.test': 2 });
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    test("a host's delay reserves the batch's time; an unknown pace gives one item", async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'pace', kind: 'crawl', options: {}, state: 'running' },
          items('http://g.test', 6),
          { concurrency: 3 },
        );
        const worker = await store.addWorker(run.id, 'w');
        const first = (await store.claim(run.id, worker, { batch: 3, leaseMs: 60_000 }))!;
        assert.equal(first.items.length, 1, 'the pace is unknown: one request to learn it');
        assert.equal(first.delayMs, undefined);
        await store.commit(
          first,
          worker,
          {
            done: [{ id: first.items[0]!.id, outcome: 'listed', fetched: true }],
            delayMs: 1_000,
            lastStartAt: first.startAt,
            fetched: 1,
          },
          { concurrency: 3 },
        );
        assert.equal(await store.claim(run.id, worker, { batch: 3, leaseMs: 60_000 }), undefined, 'not before 1 s');
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const second = (await store.claim(run.id, worker, { batch: 3, leaseMs: 60_000 }))!;
        assert.equal(second.items.length, 3);
        assert.equal(second.delayMs, 1_000);
        // The three requests' slots are taken: another lease of the host waits for them, though it may hold 3.
        assert.equal(await store.claim(run.id, worker, { batch: 3, leaseMs: 60_000 }), undefined);
        const due = await store.nextDue(run.id);
        assert.ok(due !== undefined && due >= second.startAt + 3_000, 'due after the reserved slots');
      } finally {
        await store.close();
      }
    });
  });
}
