/**
 * A crawl killed with SIGKILL mid-way resumes with --resume: the result equals a full crawl, and
 * no page the killed run finished is fetched again (counted on the server).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { CrawlReport } from '../../src/report/crawl.js';
import { DEFAULT_LEASE_MS, PARTIAL_EVERY_MS } from '../../src/run/worker.js';
import { RunStore } from '../../src/store/run-store.js';
import { siteDatabasePath } from '../../src/store/site-database.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { serveSite, type RunningSite } from './fixtures/server.js';
import { treeSite, treeSiteUrls } from './fixtures/tree-site.js';

const PAGES = 120;

/** Every URL the crawl state (the run's queue of a crawl of one process) holds, with its outcome. */
async function stateRows(file: string): Promise<{ url: string; outcome: string | null }[]> {
  const store = await RunStore.open(file);
  try {
    const run = await store.run('crawl');
    assert.ok(run, `no crawl in ${file}`);
    const rows: { url: string; outcome: string | null }[] = [];
    for await (const item of store.items(run.id)) rows.push({ url: item.url, outcome: item.outcome });
    return rows;
  } finally {
    await store.close();
  }
}
/** Slow answers keep the crawl busy long enough to be killed mid-way. */
const DELAY_MS = 25;
const CONCURRENCY = 2;
/**
 * Pages a kill may cost: each request slot's page in flight, and the pages it ended since the last
 * write of its commits (at most PARTIAL_EVERY_MS before, doubled for a timer a busy machine delays).
 */
const MAY_REPEAT = CONCURRENCY * (1 + Math.ceil((2 * PARTIAL_EVERY_MS) / DELAY_MS));

describe('crawl --resume after SIGKILL', () => {
  let site: RunningSite;
  let dir: string;
  before(async () => {
    site = await serveSite(treeSite(PAGES), { delayMs: DELAY_MS });
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-resume-'));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pageRequests = (from = 0) => site.requests.slice(from).filter((path) => path !== '/robots.txt');
  const args = (name: string) => [
    'crawl',
    `${site.origin}/`,
    '--out',
    join(dir, name),
    '--state',
    join(dir, 'state'),
    '--concurrency',
    String(CONCURRENCY),
  ];

  /** Starts a crawl and kills it with SIGKILL once the server has seen `pages` page requests. */
  async function crawlAndKill(pages: number): Promise<void> {
    const child = spawn(process.execPath, [CLI_PATH, ...args('killed')], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    while (pageRequests().length < pages) await sleep(5);
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL', 'the crawl was still running when killed');
  }

  /** The pages the killed crawl had finished, read from its store (as paths). */
  async function finishedPages(): Promise<Set<string>> {
    const rows = await stateRows(siteDatabasePath(join(dir, 'state'), `${site.origin}/`));
    {
      assert.ok(
        rows.some((row) => row.outcome === null),
        'the killed crawl left pages queued',
      );
      return new Set(rows.filter((row) => row.outcome !== null).map((row) => new URL(row.url).pathname));
    }
  }

  it('finishes with the same sitemap as a full crawl, fetching no finished page again', async () => {
    await crawlAndKill(40);
    const finished = await finishedPages();
    assert.ok(finished.size >= 30, `only ${finished.size} pages were finished before the kill`);

    const before = site.requests.length;
    const started = performance.now();
    const resumed = await runCli([...args('resumed'), '--resume', '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    // The killed crawl's leases are freed at once, not waited out: the
    // resumed run takes a few seconds, and a lease lives DEFAULT_LEASE_MS.
    assert.ok(performance.now() - started < DEFAULT_LEASE_MS / 2, 'the resumed crawl waited for the killed one');
    const refetched = pageRequests(before).filter((path) => finished.has(path));
    assert.deepEqual(refetched, [], 'finished pages were fetched again');
    // Only the pages in flight at the kill, or ended just before it, were fetched twice.
    const twice = pageRequests().length - new Set(pageRequests()).size;
    assert.ok(twice <= MAY_REPEAT, `${twice} pages were fetched twice, more than ${MAY_REPEAT}`);

    const full = await runCli(args('full'));
    assert.equal(full.code, 0, full.stderr);
    const resumedXml = readFileSync(join(dir, 'resumed', 'sitemap.xml'), 'utf8');
    assert.equal(resumedXml, readFileSync(join(dir, 'full', 'sitemap.xml'), 'utf8'));
    const locs = [...resumedXml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
    assert.deepEqual(locs.sort(), treeSiteUrls(site.origin, PAGES).sort());
    assert.equal((JSON.parse(resumed.stdout) as CrawlReport).listed, PAGES + 1);
  });

  it('counts in the rate only the work of this run when resuming a finished crawl', async () => {
    const before = site.requests.length;
    const again = await runCli([...args('again'), '--resume']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(pageRequests(before), [], 'a finished crawl fetches no page again');
    assert.match(
      again.stderr,
      new RegExp(`^${PAGES + 1} fetched · 0 queued · ${PAGES + 1} listed · 0\\.0 pages/s · 0 unread\\n$`),
    );
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  describe(`crawl interrupted with ${signal} (${signal === 'SIGINT' ? 'Ctrl-C' : 'timeout, systemd, CI'})`, () => {
    let site: RunningSite;
    let dir: string;
    before(async () => {
      site = await serveSite(treeSite(60), { delayMs: DELAY_MS });
      dir = mkdtempSync(join(tmpdir(), 'sitemapkit-signal-'));
    });
    after(async () => {
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('finishes the pages in flight, reports, publishes nothing, exits 1 and says how to resume', async () => {
      const child = spawn(
        process.execPath,
        [
          CLI_PATH,
          'crawl',
          `${site.origin}/`,
          '--out',
          join(dir, 'out'),
          '--state',
          join(dir, 'state'),
          '--concurrency',
          '2',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      while (site.requests.filter((path) => path !== '/robots.txt').length < 10) await sleep(5);
      child.kill(signal);
      assert.equal(await exited, 1);
      assert.match(stderr, /interrupted; continue with --resume \(state in .*crawl-http-127\.0\.0\.1-\d+\.sqlite\)/);
      assert.match(stdout, /^Crawled http:\/\/127\.0\.0\.1:\d+\/ \(stopped before the end\) in /);
      assert.equal(existsSync(join(dir, 'out', 'sitemap.xml')), false);

      const rows = await stateRows(siteDatabasePath(join(dir, 'state'), `${site.origin}/`));
      const requested = new Set(site.requests.filter((path) => path !== '/robots.txt'));
      const finished = rows.filter((row) => row.outcome !== null);
      assert.equal(finished.length, requested.size, 'every page requested was finished and recorded');
    });
  });
}
