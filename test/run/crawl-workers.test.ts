/**
 * A crawl on workers sharing a run store, on each driver (a SQLite file, a PostgreSQL database),
 * against a site of four hosts (each its own host:port, answering after a little latency): three
 * workers list exactly what crawls of one process list, fetch no page twice, keep each host's
 * concurrency across all of them (measured at the servers), and lose nothing when one of them is
 * killed with kill -9 halfway.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { CLI_PATH, kill9, runCli } from '../helpers/cli.js';
import { queueDrivers, type QueueDriver } from '../helpers/postgres.js';
import { startFarm, type Farm } from '../helpers/site-farm.js';
import { serveSite } from '../helpers/serve-site.js';
import { trapSite } from '../crawl/fixtures/trap-site.js';

const HOSTS = 4;
const PAGES = 50;
const farm: Farm = await startFarm({ hosts: HOSTS, pagesPerHost: PAGES, latencyMs: 15 });
const starts = farm.hosts.map((host) => `${host.origin}/`);
const work = mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-workers-'));
after(async () => {
  await farm.close();
  rmSync(work, { recursive: true, force: true });
});

/** Every <loc> of every sitemap under `dir`. */
function listedIn(dir: string): Set<string> {
  const listed = new Set<string>();
  const visit = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else if (path.endsWith('.xml'))
      for (const [, loc] of readFileSync(path, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)) listed.add(loc!);
  };
  visit(dir);
  return listed;
}

/** Paths a host answered more than once (robots.txt aside: each process reads it). */
function fetchedTwice(): string[] {
  return farm.hosts.flatMap((host) =>
    [...host.hits].filter(([path, n]) => n > 1 && path !== '/robots.txt').map(([path]) => `${host.origin}${path}`),
  );
}

/** Requests the farm answered, robots.txt aside. */
function pagesRequested(): number {
  return farm.hosts.reduce(
    (sum, host) => sum + [...host.hits].filter(([path]) => path !== '/robots.txt').reduce((n, [, hits]) => n + hits, 0),
    0,
  );
}

function sorted(set: Set<string>): string[] {
  return [...set].sort();
}

describe('a crawl of one process', () => {
  test('one process per host, crawling the classic way, is the reference', async () => {
    const reference = new Set<string>();
    await Promise.all(
      starts.map(async (start, index) => {
        const out = join(work, `single-${index}`);
        const result = await runCli(['crawl', start, '--out', out, '--state', join(work, 'state'), '--json']);
        assert.equal(result.code, 0, result.stderr);
        for (const url of listedIn(out)) reference.add(url);
      }),
    );
    assert.deepEqual(sorted(reference), sorted(farm.expectedListed()));
  });
});

/** The suite of a crawl on workers, run over each driver of the run store. */
function crawlOnWorkers(driver: QueueDriver): void {
  test('three workers list the same set, fetch each page once, and keep two requests in flight per host', async () => {
    const store = await driver.location();
    farm.reset();
    const out = join(work, `${driver.name}-three`);
    const result = await runCli(
      ['crawl', ...starts, '--out', out, '--run', 'three', '--workers', '3', '--concurrency', '2', '--json'],
      { env: { SITEMAPKIT_STORE: store } },
    );
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { listed: number; finished: boolean };
    assert.equal(report.finished, true);
    assert.deepEqual(sorted(listedIn(out)), sorted(farm.expectedListed()));
    assert.equal(report.listed, farm.expectedListed().size);
    assert.equal(readdirSync(out).length, HOSTS, 'one directory of sitemaps per host');
    assert.deepEqual(fetchedTwice(), [], 'no page fetched twice');
    for (const host of farm.hosts) assert.ok(host.maxInFlight <= 2, `${host.origin}: ${host.maxInFlight} in flight`);
    assert.ok(
      farm.hosts.some((host) => host.maxInFlight === 2),
      'the limit is reached: the workers do work side by side',
    );
    const status = await runCli(['run', 'status', 'three', '--json'], { env: { SITEMAPKIT_STORE: store } });
    const workers = (JSON.parse(status.stdout) as { workers: { fetched: number }[] }).workers;
    assert.equal(workers.length, 3);
    assert.ok(workers.filter((w) => w.fetched > 0).length >= 2, 'the work is shared');
  });

  test('--max-pages N: three workers request N pages in all, as a crawl of one process does', async () => {
    // Fewer than the pages of any host's first levels: no redirect (two requests) can be reached.
    const MAX_PAGES = 15;
    const store = await driver.location();
    farm.reset();
    const out = join(work, `${driver.name}-budget`);
    const result = await runCli(
      [
        'crawl',
        ...starts,
        '--out',
        out,
        '--run',
        'budget',
        '--workers',
        '3',
        '--max-pages',
        String(MAX_PAGES),
        '--json',
      ],
      { env: { SITEMAPKIT_STORE: store } },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(pagesRequested(), MAX_PAGES, 'requests at the servers');
    const report = JSON.parse(result.stdout) as {
      fetched: number;
      listed: number;
      leftOut: { reason: string; count: number }[];
    };
    assert.equal(report.fetched, MAX_PAGES);
    const listed = listedIn(out);
    assert.equal(listed.size, report.listed);
    assert.ok(listed.size > 0 && listed.size <= MAX_PAGES);
    for (const url of listed) assert.ok(farm.expectedListed().has(url), `${url} is a page to list`);
    assert.ok((report.leftOut.find((group) => group.reason === 'max-pages')?.count ?? 0) > 0, 'the rest: max-pages');
    const status = await runCli(['run', 'status', 'budget', '--json'], { env: { SITEMAPKIT_STORE: store } });
    const workers = (JSON.parse(status.stdout) as { workers: { fetched: number }[] }).workers;
    assert.equal(
      workers.reduce((sum, worker) => sum + worker.fetched, 0),
      MAX_PAGES,
    );
    const text = await runCli(['run', 'status', 'budget'], { env: { SITEMAPKIT_STORE: store } });
    assert.match(
      text.stdout,
      new RegExp(`${MAX_PAGES} requests in \\d+ s \\(\\d+/s\\), of a budget of ${MAX_PAGES}: none left`),
    );

    farm.reset();
    const single = await runCli([
      'crawl',
      starts[0]!,
      '--out',
      join(work, `${driver.name}-budget-single`),
      '--state',
      join(work, 'state'),
      '--max-pages',
      String(MAX_PAGES),
      '--json',
    ]);
    assert.equal(single.code, 0, single.stderr);
    assert.equal(pagesRequested(), MAX_PAGES, 'one process requests as many');
    assert.equal((JSON.parse(single.stdout) as { fetched: number }).fetched, MAX_PAGES);
  });

  test('--max-query-variants N: a run on three workers fetches N variants of a path in all', async () => {
    const MAX_VARIANTS = 7;
    const site = await serveSite(trapSite);
    try {
      const store = await driver.location();
      const result = await runCli(
        [
          'crawl',
          `${site.origin}/`,
          '--out',
          join(work, `${driver.name}-variants`),
          '--run',
          'variants',
          '--workers',
          '3',
          '--concurrency',
          '3',
          '--max-query-variants',
          String(MAX_VARIANTS),
          '--max-chain',
          '5',
          '--max-path-segments',
          '4',
          '--json',
        ],
        { env: { SITEMAPKIT_STORE: store } },
      );
      assert.equal(result.code, 0, result.stderr);
      const variants = site.requests.filter((path) => path.startsWith('/shop?'));
      assert.equal(variants.length, MAX_VARIANTS, variants.join(' '));
      assert.equal(new Set(variants).size, MAX_VARIANTS, 'each once');
      // One host's items go out a lease at a time, so which workers fetch them is timing: the count
      // held across workers' own connections is proven in the store's test. Here: every request the
      // site saw is one a worker of the run recorded.
      const status = await runCli(['run', 'status', 'variants', '--json'], { env: { SITEMAPKIT_STORE: store } });
      const workers = (JSON.parse(status.stdout) as { workers: { fetched: number }[] }).workers;
      assert.equal(workers.length, 3);
      assert.equal(
        workers.reduce((sum, worker) => sum + worker.fetched, 0),
        site.requests.filter((path) => path !== '/robots.txt').length,
      );
    } finally {
      await site.close();
    }
  });

  test('a worker killed with kill -9 halfway loses nothing: the others take its leases over', async () => {
    const store = await driver.location();
    farm.reset();
    const out = join(work, `${driver.name}-killed`);
    const args = ['crawl', ...starts, '--out', out, '--run', 'killed', '--concurrency', '2', '--lease', '3', '--json'];
    const env = { ...process.env, SITEMAPKIT_STORE: store };
    // Halfway: once the servers have had a third of the pages; the rest wait until the kill.
    const halfway = farm.holdAfter((HOSTS * PAGES) / 3);
    const [victim, ...survivors] = [0, 1, 2].map(() =>
      spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    const outputs = survivors.map((child) => {
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
    });
    victim!.stdout.resume();
    victim!.stderr.resume();
    await halfway;
    // A process slow to start on a loaded machine may join after the others fetched a third.
    await workersJoined(store, 'killed', 3);
    await kill9(victim!);
    farm.release();
    const ended = await Promise.all(outputs);
    assert.deepEqual(
      ended.map((e) => e.code),
      [0, 0],
      ended.map((e) => e.stderr).join('\n'),
    );
    const reports = ended.filter((e) => e.stdout !== '');
    assert.equal(reports.length, 1, 'one process writes the outputs');
    assert.deepEqual(sorted(listedIn(out)), sorted(farm.expectedListed()));
    for (const host of farm.hosts) assert.ok(host.maxInFlight <= 2, `${host.origin}: ${host.maxInFlight} in flight`);
    const status = await runCli(['run', 'status', 'killed', '--json'], { env: { SITEMAPKIT_STORE: store } });
    const workers = (JSON.parse(status.stdout) as { workers: { fetched: number; stoppedAt?: number }[] }).workers;
    assert.equal(workers.filter((w) => w.stoppedAt === undefined).length, 1, 'the killed worker never stopped');
  });
}

for (const driver of queueDrivers) describe(`a crawl on workers sharing ${driver.name}`, () => crawlOnWorkers(driver));

/** Resolves once `count` workers have joined the run `name` in `store` (as `run status` tells). */
async function workersJoined(store: string, name: string, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await runCli(['run', 'status', name, '--json'], { env: { SITEMAPKIT_STORE: store } });
    const joined = status.code === 0 ? (JSON.parse(status.stdout) as { workers: unknown[] }).workers.length : 0;
    if (joined >= count) return;
    assert.ok(Date.now() < deadline, `only ${joined} of ${count} workers joined the run in a minute`);
    await sleep(100);
  }
}
