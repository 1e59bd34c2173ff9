/**
 * `tree --sites` over 200 local sites (each its own host:port) with two workers sharing a run
 * store, on each driver (a SQLite file, a PostgreSQL database): the URL entries streamed are
 * exactly the union of the walks of each site alone, every site has one summary row, and the
 * run's rows are written once at the end.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { walkSitemapTree } from '../../src/discover/tree.js';
import { sitemapIndex, startSite, urlset, XML, type Site } from '../helpers/site-server.js';
import { runCli } from '../helpers/cli.js';
import { queueDrivers, type QueueDriver } from '../helpers/postgres.js';

const SITES = 200;
/** Every 40th site has no sitemap at all: its row says so, and the run exits 1. */
const bare = (i: number) => i % 40 === 39;

const sites: Site[] = [];
for (let i = 0; i < SITES; i++)
  sites.push(
    await startSite((origin) =>
      bare(i)
        ? {}
        : {
            '/robots.txt': { body: `User-agent: *\nSitemap: ${origin}/sitemap_index.xml\n` },
            '/sitemap_index.xml': {
              headers: XML,
              body: sitemapIndex([`${origin}/a.xml`, `${origin}/b.xml`]),
            },
            '/a.xml': { headers: XML, body: urlset(Array.from({ length: 1 + (i % 3) }, (_, n) => `${origin}/a/${n}`)) },
            '/b.xml': { headers: XML, body: urlset([`${origin}/b/0`, `${origin}/a/0`]) },
          },
    ),
  );
const work = mkdtempSync(join(tmpdir(), 'sitemapkit-tree-sites-'));
after(async () => {
  await Promise.all(sites.map((site) => site.close()));
  rmSync(work, { recursive: true, force: true });
});

// The reference: each site walked alone, twenty at a time.
const expected = new Set<string>();
for (let from = 0; from < SITES; from += 20)
  await Promise.all(
    sites.slice(from, from + 20).map(async (site) => {
      for await (const entry of walkSitemapTree(site.origin))
        expected.add(`${site.origin} ${entry.source} ${entry.loc}`);
    }),
  );

/** The suite of `tree --sites` on workers, run over each driver of the run store. */
function treeSitesOnWorkers(driver: QueueDriver): void {
  test('two workers walk 200 sites once each, and stream exactly the union of their walks', async () => {
    for (const site of sites) site.hits.clear();

    const file = join(work, `${driver.name}-sites.txt`);
    writeFileSync(file, `# the farm\n${sites.map((site) => site.origin).join('\n')}\n\n`);
    const rows = join(work, `${driver.name}-rows.jsonl`);
    const store = await driver.location();
    const result = await runCli(
      ['tree', '--sites', file, '--urls', '--workers', '2', '--run', 'farm', '--out', rows, '--concurrency', '2'],
      { env: { SITEMAPKIT_STORE: store } },
    );
    assert.equal(result.code, 1, 'five sites have no sitemap');
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; loc: string; source: string; site: string; ok?: boolean });
    const streamed = lines
      .filter((line) => line.kind === 'url')
      .map((line) => `${line.site} ${line.source} ${line.loc}`);
    assert.equal(streamed.length, expected.size, 'no entry streamed twice');
    assert.deepEqual(new Set(streamed), expected);
    const summaries = lines.filter((line) => line.kind === 'site');
    assert.deepEqual(
      summaries.map((row) => row.site).sort(),
      sites.map((site) => site.origin).sort(),
      'one row per site',
    );
    assert.equal(summaries.filter((row) => !row.ok).length, SITES / 40);
    for (const site of sites) assert.equal(site.hits.get('/robots.txt'), 1, `${site.origin} walked once`);
    const written = readFileSync(rows, 'utf8').trim().split('\n');
    assert.equal(written.length, SITES, 'every row in --out, once');
    assert.match(result.stderr, /200 sites: 195 read whole, 5 not; /);
    const status = await runCli(['run', 'status', 'farm', '--json'], { env: { SITEMAPKIT_STORE: store } });
    const workers = (JSON.parse(status.stdout) as { workers: { done: number }[] }).workers;
    assert.equal(workers.length, 2);
    assert.equal(
      workers.reduce((sum, w) => sum + w.done, 0),
      SITES,
    );
    assert.ok(
      workers.every((w) => w.done > 0),
      'both workers walked sites',
    );
  });

  test('with --state, the workers walk again with conditional fetches: --changed-only streams nothing unchanged', async () => {
    const few = sites.slice(0, 10);
    const file = join(work, `${driver.name}-few.txt`);
    writeFileSync(file, few.map((site) => site.origin).join('\n'));
    const state = join(work, `${driver.name}-state`);
    const env = { SITEMAPKIT_STORE: await driver.location() };
    const walk = async (run: string, ...flags: string[]) => {
      const result = await runCli(['tree', '--sites', file, '--urls', '--state', state, '--run', run, ...flags], {
        env,
      });
      assert.equal(result.code, 0, result.stderr);
      return result.stdout
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { kind: string; sitemaps?: number; unchanged?: number });
    };
    const first = await walk('first', '--workers', '2');
    assert.ok(first.filter((line) => line.kind === 'url').length > 0);
    assert.ok(first.every((line) => line.unchanged === undefined));

    const again = await walk('again', '--workers', '2', '--changed-only');
    assert.deepEqual(
      again.filter((line) => line.kind === 'url'),
      [],
      'no entry of an unchanged sitemap',
    );
    const rows = again.filter((line) => line.kind === 'site');
    assert.equal(rows.length, few.length);
    for (const row of rows) assert.equal(row.unchanged, row.sitemaps, 'every sitemap unchanged');
  });
}

for (const driver of queueDrivers)
  describe(`tree --sites on workers sharing ${driver.name}`, () => treeSitesOnWorkers(driver));
