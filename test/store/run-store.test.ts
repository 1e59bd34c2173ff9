/**
 * The run queue on both drivers: runs created once and joined, claims per host within its
 * concurrency and pace, commits that count once, leases of a vanished worker taken over, and a
 * URL met too deep revived by a shallower path.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RunStore, type Lease, type NewItem } from '../../src/store/run-store.js';
import { storeLocations } from '../helpers/postgres.js';

const stores = await storeLocations();
const PACE = { concurrency: 2, delayMs: 0 };
const BEYOND = { outcome: 'max-pages', detail: 'not fetched: --max-pages reached' };

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

    /**
     * A host's three items leased for `leaseMs` by a worker that is gone: the host is held, and
     * once `lapse` has ended that lease, another worker claims the same items.
     */
    async function takeOver(
      name: string,
      leaseMs: number,
      lapse: (store: RunStore, runId: number) => Promise<unknown>,
    ) {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name, kind: 'crawl', options: {}, state: 'running' },
          items(`http://${name}.test`, 3),
          { concurrency: 1, delayMs: 0 },
        );
        const gone = await store.addWorker(run.id, 'gone');
        const alive = await store.addWorker(run.id, 'alive');
        const lost = await store.claim(run.id, gone, { batch: 3, leaseMs });
        assert.equal(lost?.items.length, 3);
        assert.equal(await store.claim(run.id, alive, { batch: 3, leaseMs }), undefined, 'the host is held');
        await lapse(store, run.id);
        const taken = await store.claim(run.id, alive, { batch: 3, leaseMs: 60_000 });
        assert.deepEqual(
          taken?.items.map((item) => item.url),
          lost.items.map((item) => item.url),
        );
      } finally {
        await store.close();
      }
    }

    test("a vanished worker's lease expires and its items are claimed again", () =>
      takeOver('takeover', 300, () => new Promise((resolve) => setTimeout(resolve, 400))));

    test("a killed process's leases, expired at once by the queue's sole holder, are claimed again", () =>
      takeOver('resumed', 60_000, (store, runId) => store.expireLeases(runId)));

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
        // One after another, nobody committing: each host is leased exactly twice, then no more.
        const first = [];
        for (const [i, store] of stores.entries())
          first.push(await store.claim(run.id, workers[i]!, { batch: 1, leaseMs: 60_000 }));
        const leased = first.flatMap((lease) => (lease ? [lease.host] : [])).sort();
        assert.deepEqual(leased, ['http://h.test', 'http://h.test', 'http://i.test', 'http://i.test']);
        for (const [i, lease] of first.entries()) {
          if (lease === undefined) continue;
          const done = lease.items.map((item) => ({ id: item.id, outcome: 'listed', fetched: true }));
          await stores[i]!.commit(lease, workers[i]!, { done, fetched: done.length }, pace);
        }
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
        // How often two leases overlap in the race depends on the machine's load; the limit may never be passed.
        for (const [host, count] of most) assert.ok(count <= 2, `${host} was leased ${count} times at once`);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    test("a run's budget: claims take what is left, commits give back what was not spent", async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'budget', kind: 'crawl', options: {}, state: 'running', budget: 5 },
          [...items('http://j.test', 4), ...items('http://k.test', 4)],
          { concurrency: 1, delayMs: 0 },
        );
        assert.equal(run.budget, 5);
        const worker = await store.addWorker(run.id, 'w');
        const claim = () => store.claim(run.id, worker, { batch: 3, leaseMs: 60_000, budgeted: true });
        const first = (await claim())!;
        const second = (await claim())!;
        assert.deepEqual([first.budget, second.budget], [3, 2], 'the second batch gets what is left');
        assert.deepEqual([first.items.length, second.items.length], [3, 2]);
        assert.equal(await claim(), undefined, 'the budget is taken: no third lease');
        assert.equal(await store.settleBeyondBudget(run.id, BEYOND), 0, 'leases hold budget: nothing is settled');
        // One item of the first batch made no request: its share comes back, and one more page may go.
        await store.commit(
          first,
          worker,
          {
            done: [
              { id: first.items[0]!.id, outcome: 'listed', fetched: true },
              { id: first.items[1]!.id, outcome: 'robots-blocked', fetched: false },
              { id: first.items[2]!.id, outcome: 'listed', fetched: true },
            ],
            fetched: 2,
          },
          PACE,
        );
        const third = (await claim())!;
        assert.equal(third.budget, 1);
        assert.equal(third.items.length, 1);
        for (const lease of [second, third])
          await store.commit(
            lease,
            worker,
            {
              done: lease.items.map((item) => ({ id: item.id, outcome: 'listed', fetched: true })),
              fetched: lease.items.length,
            },
            PACE,
          );
        assert.equal(await claim(), undefined);
        assert.equal(await store.settleBeyondBudget(run.id, BEYOND), 2, 'the two items left are beyond the budget');
        const status = (await store.status('budget'))!;
        assert.equal(status.todo, 0);
        assert.deepEqual(status.outcomes, { listed: 5, 'robots-blocked': 1, 'max-pages': 2 });
        assert.equal(status.workers[0]?.fetched, 5, 'five requests in all');
      } finally {
        await store.close();
      }
    });

    test('a lease committed item by item: each part kept at once, the lease and its budget held to its end', async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'partial', kind: 'crawl', options: {}, state: 'running', budget: 4 },
          items('http://m.test', 5),
          { concurrency: 1, delayMs: 0 },
        );
        const worker = await store.addWorker(run.id, 'w');
        const claim = () => store.claim(run.id, worker, { batch: 3, leaseMs: 60_000, budgeted: true });
        const lease = (await claim())!;
        const [a, b, c] = lease.items;
        const found = [{ url: 'http://m.test/found', host: 'http://m.test', depth: 1, foundOn: a!.id }];
        await store.commit(
          lease,
          worker,
          { done: [{ id: a!.id, outcome: 'listed', fetched: true }], found, fetched: 2 },
          PACE,
          { partial: true },
        );
        const outcomes = async () => {
          const all = new Map<string, string | null>();
          for await (const item of store.items(run.id)) all.set(item.url, item.outcome);
          return all;
        };
        assert.equal((await outcomes()).get(a!.url), 'listed', 'the part is kept while the lease goes on');
        assert.equal((await outcomes()).get('http://m.test/found'), null, 'and what it found is queued');
        assert.equal(await claim(), undefined, 'the lease still holds its host (concurrency 1)');
        await store.commit(
          lease,
          worker,
          { done: [{ id: b!.id, outcome: 'listed', fetched: true }], fetched: 1 },
          PACE,
        );
        assert.equal((await outcomes()).get(c!.url), null, 'the item not done is free again');
        // 4 taken with the budget's 3 + 1 more: 3 spent, so the next lease may make one request.
        const next = (await claim())!;
        assert.equal(next.budget, 1, 'what the lease did not spend came back, what its parts spent did not');
        const status = (await store.status('partial'))!;
        assert.equal(status.workers[0]?.fetched, 3);
        assert.equal(status.workers[0]?.batches, 1, 'a lease counts once, however many its commits');
      } finally {
        await store.close();
      }
    });

    test("a part committed after its lease expired spends what it fetched from the run's budget", async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'partial-expired', kind: 'crawl', options: {}, state: 'running', budget: 2 },
          items('http://n.test', 4),
          { concurrency: 1, delayMs: 0 },
        );
        const worker = await store.addWorker(run.id, 'w');
        const lost = (await store.claim(run.id, worker, { batch: 2, leaseMs: 200, budgeted: true }))!;
        await new Promise((resolve) => setTimeout(resolve, 300));
        const taken = (await store.claim(run.id, worker, { batch: 2, leaseMs: 60_000, budgeted: true }))!;
        assert.equal(taken.budget, 2, "the expired lease's budget came back");
        await store.commit(
          lost,
          worker,
          { done: [{ id: lost.items[0]!.id, outcome: 'listed', fetched: true }], fetched: 1 },
          PACE,
          { partial: true },
        );
        await store.commit(taken, worker, { done: [], fetched: 0 }, PACE);
        const again = (await store.claim(run.id, worker, { batch: 2, leaseMs: 60_000, budgeted: true }))!;
        assert.equal(again.budget, 1, 'one request of the two was made, by the late part');
      } finally {
        await store.close();
      }
    });

    test('commits of several leases in one transaction keep what each would alone', async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'together', kind: 'crawl', options: {}, state: 'running' },
          [...items('http://o.test', 3), ...items('http://p.test', 3)],
          PACE,
        );
        const worker = await store.addWorker(run.id, 'w');
        const leases: Lease[] = [];
        for (let lease; (lease = await store.claim(run.id, worker, { batch: 2, leaseMs: 60_000 }));) leases.push(lease);
        assert.equal(leases.length, 4, 'two leases of each host (its concurrency), of 2 items and 1');
        leases.sort((a, b) => b.items.length - a.items.length);
        const [first, ...rest] = leases;
        // The lease committed first (hosts in id order) meets a URL too deep; a later one a path to it.
        const inOrder = [...rest].sort((a, b) => a.hostId - b.hostId || a.id - b.id);
        const deep = 'http://o.test/deep';
        const found = (lease: Lease): NewItem[] =>
          lease === inOrder[0]
            ? [{ url: deep, host: 'http://o.test', depth: 9, outcome: 'max-depth', detail: 'too deep' }]
            : lease === inOrder.at(-1)
              ? [{ url: deep, host: 'http://o.test', depth: 1 }]
              : [];
        await store.commitAll(
          [
            ...rest.map((lease) => ({
              lease,
              result: {
                done: lease.items.map((item) => ({ id: item.id, outcome: 'listed', fetched: true })),
                found: found(lease),
                fetched: 1,
              },
            })),
            {
              lease: first!,
              result: { done: [{ id: first!.items[0]!.id, outcome: 'noindex', fetched: true }], fetched: 1 },
              partial: true,
            },
          ],
          worker,
          PACE,
        );
        const status = (await store.status('together'))!;
        assert.equal(status.outcomes.noindex, 1);
        assert.equal(
          status.outcomes.listed,
          rest.reduce((n, lease) => n + lease.items.length, 0),
        );
        assert.equal(status.leased, first!.items.length - 1, 'the partial lease still holds its other item');
        assert.equal(status.workers[0]?.batches, rest.length);
        let revived;
        for await (const item of store.items(run.id)) if (item.url === deep) revived = item;
        assert.deepEqual([revived?.outcome, revived?.depth], [null, 1], 'revived, as by commits one after the other');
      } finally {
        await store.close();
      }
    });

    test("an expired lease's budget comes back; its worker's late commit spends what it fetched", async () => {
      const store = await RunStore.open(location);
      try {
        const { run } = await store.createOrJoin(
          { name: 'budget-expired', kind: 'crawl', options: {}, state: 'running', budget: 3 },
          items('http://l.test', 6),
          { concurrency: 2, delayMs: 0 },
        );
        const slow = await store.addWorker(run.id, 'slow');
        const other = await store.addWorker(run.id, 'other');
        const lost = (await store.claim(run.id, slow, { batch: 3, leaseMs: 200, budgeted: true }))!;
        assert.equal(lost.budget, 3);
        assert.equal(await store.claim(run.id, other, { batch: 3, leaseMs: 60_000, budgeted: true }), undefined);
        await new Promise((resolve) => setTimeout(resolve, 300));
        // The claim deletes the expired lease and takes its budget.
        const taken = (await store.claim(run.id, other, { batch: 3, leaseMs: 60_000, budgeted: true }))!;
        assert.equal(taken.budget, 3);
        // The slow worker had fetched one page before its lease expired: that request is spent too.
        await store.commit(
          lost,
          slow,
          { done: [{ id: lost.items[0]!.id, outcome: 'listed', fetched: true }], fetched: 1 },
          PACE,
        );
        const rest = taken.items.filter((item) => item.id !== lost.items[0]!.id);
        await store.commit(
          taken,
          other,
          { done: rest.map((item) => ({ id: item.id, outcome: 'listed', fetched: true })), fetched: rest.length },
          PACE,
        );
        assert.equal(await store.settleBeyondBudget(run.id, BEYOND), 6 - 1 - rest.length);
        const status = (await store.status('budget-expired'))!;
        const fetched = status.workers.reduce((sum, w) => sum + w.fetched, 0);
        assert.equal(fetched, 1 + rest.length);
        assert.ok(fetched <= 4, 'at most the budget, and the one request made while the lease was out');
        assert.equal(status.todo, 0);
      } finally {
        await store.close();
      }
    });

    test('workers claiming at once on connections of their own spend exactly the budget', async () => {
      const WORKERS = 4;
      const BUDGET = 23;
      const stores = await Promise.all(Array.from({ length: WORKERS }, () => RunStore.open(location)));
      try {
        const pace = { concurrency: 3, delayMs: 0 };
        const { run } = await stores[0]!.createOrJoin(
          { name: 'budget-race', kind: 'crawl', options: {}, state: 'running', budget: BUDGET },
          [...items('http://m.test', 30), ...items('http://n.test', 30), ...items('http://o.test', 30)],
          pace,
        );
        const workers = await Promise.all(stores.map((store) => store.addWorker(run.id, 'racer')));
        let fetched = 0;
        const work = async (store: RunStore, worker: number) => {
          for (;;) {
            const lease = await store.claim(run.id, worker, { batch: 4, leaseMs: 60_000, budgeted: true });
            if (lease === undefined) {
              await store.settleBeyondBudget(run.id, BEYOND);
              if ((await store.pending(run.id)) === 0) return;
              await new Promise((resolve) => setTimeout(resolve, 1));
              continue;
            }
            await new Promise((resolve) => setTimeout(resolve, 5));
            // Every third item makes no request: its share goes back to the others.
            const done = lease.items.map((item) => ({ id: item.id, outcome: 'listed', fetched: item.id % 3 !== 0 }));
            const requests = done.filter((item) => item.fetched).length;
            fetched += requests;
            await store.commit(lease, worker, { done, fetched: requests }, pace);
          }
        };
        await Promise.all(stores.map((store, i) => work(store, workers[i]!)));
        assert.equal(fetched, BUDGET);
        const status = (await stores[0]!.status('budget-race'))!;
        assert.equal(status.todo, 0);
        assert.ok((status.outcomes['max-pages'] ?? 0) > 0);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    test('query variants of a path are admitted up to the limit across connections, once each', async () => {
      const stores = await Promise.all(Array.from({ length: 4 }, () => RunStore.open(location)));
      try {
        const { run } = await stores[0]!.createOrJoin(
          { name: 'variants', kind: 'crawl', options: {}, state: 'running' },
          [],
          PACE,
        );
        const admitted = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores[i % stores.length]!.admitQueryVariant(run.id, 'http://q.test/search', 5),
          ),
        );
        assert.equal(admitted.filter(Boolean).length, 5);
        assert.equal(
          await stores[0]!.admitQueryVariant(run.id, 'http://q.test/other', 5),
          true,
          'each path its own count',
        );
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

test("on SQLite, a new lease given the id of an expired one does not hold that one's items", async () => {
  // SQLite hands a new row the id after the largest left: once every lease is gone, the id of a
  // deleted one comes back. Items that still named it would look leased by a stranger.
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-lease-ids-'));
  const store = await RunStore.open(join(dir, 'runs.sqlite'));
  try {
    const pace = { concurrency: 1, delayMs: 0 };
    const { run: first } = await store.createOrJoin(
      { name: 'first', kind: 'crawl', options: {}, state: 'running' },
      items('http://a.test', 3),
      pace,
    );
    const { run: second } = await store.createOrJoin(
      { name: 'second', kind: 'crawl', options: {}, state: 'running' },
      items('http://b.test', 1),
      pace,
    );
    const worker = await store.addWorker(first.id, 'w');
    const lost = await store.claim(first.id, worker, { batch: 3, leaseMs: 100 });
    assert.equal(lost?.items.length, 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A batch of one takes over one item of the expired lease, which is deleted; then it is let go.
    const part = await store.claim(first.id, worker, { batch: 1, leaseMs: 60_000 });
    assert.equal(part?.items.length, 1);
    await store.release(part);
    const other = await store.claim(second.id, await store.addWorker(second.id, 'v'), { batch: 1, leaseMs: 60_000 });
    assert.equal(other?.id, lost.id, 'the id came back (else this test proves nothing)');
    const rest = await store.claim(first.id, worker, { batch: 3, leaseMs: 60_000 });
    assert.equal(rest?.items.length, 3, 'every item of the first run is free');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
