/**
 * `sitemapkit/web` on Deno, Bun and workerd, each from its npm package: the shared case suite
 * (cases.ts) runs in each and must pass whole, case for case as on Node (node.test.ts); workerd
 * also serves a Worker answering the index and a shard, and parses a gzip sitemap it fetches from
 * a server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from '../../src/parse/index.js';
import { hostile, startHostileServer } from '../helpers/hostile-server.js';
import { bundleForWorkers, runScript, runtimeVersion, startWorkerd, type RunningServer } from '../helpers/runtimes.js';
import { CASES } from './cases.js';
import type { CaseResult } from './suite.js';

/** Every case passed, and every case ran (none skipped or renamed on the way). */
function assertAllPassed(results: CaseResult[]): void {
  assert.deepEqual(
    results.map((result) => result.name),
    CASES.map((one) => one.name),
  );
  const failed = results.filter((result) => !result.ok).map((result) => `${result.name}: ${result.detail}`);
  assert.deepEqual(failed, []);
}

/** The results line a host printed last. */
function resultsOf(stdout: string): CaseResult[] {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as CaseResult[];
}

for (const runtime of ['deno', 'bun'] as const) {
  test(`the shared suite passes on ${runtime}`, async (t) => {
    t.diagnostic(await runtimeVersion(runtime));
    const run = await runScript(runtime, 'test/runtimes/host.ts');
    assert.equal(run.code, 0, run.stderr);
    assertAllPassed(resultsOf(run.stdout));
  });
}

describe('workerd', () => {
  let dir: string;
  let worker: RunningServer;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sitemapkit-workerd-'));
    await bundleForWorkers('test/runtimes/worker.ts', join(dir, 'worker.js'));
    worker = await startWorkerd(join(dir, 'worker.js'), dir);
  });

  after(async () => {
    await worker?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('the shared suite passes in a Worker', async (t) => {
    t.diagnostic(await runtimeVersion('workerd'));
    const response = await fetch(`${worker.origin}/suite`);
    assert.equal(response.status, 200, worker.output());
    assertAllPassed((await response.json()) as CaseResult[]);
  });

  test('the Worker answers /sitemap.xml and a shard', async () => {
    const index = await fetch(`${worker.origin}/sitemap.xml`);
    assert.equal(index.status, 200, worker.output());
    assert.equal(index.headers.get('content-type'), 'application/xml; charset=utf-8');
    const refs = await locsOf(new Uint8Array(await index.arrayBuffer()));
    assert.deepEqual(refs.kind, 'sitemapindex');
    assert.deepEqual(refs.locs, [
      'https://shop.example.com/sitemap-0.xml.gz',
      'https://shop.example.com/sitemap-1.xml.gz',
      'https://shop.example.com/sitemap-2.xml.gz',
    ]);
    const shard = await fetch(`${worker.origin}/sitemap-2.xml.gz`);
    assert.equal(shard.status, 200);
    assert.equal(shard.headers.get('content-type'), 'application/gzip');
    assert.equal(shard.headers.get('last-modified'), 'Wed, 01 May 2024 00:00:00 GMT');
    const urls = await locsOf(new Uint8Array(await shard.arrayBuffer()));
    assert.equal(urls.gzip, true);
    assert.equal(urls.locs.length, 20_000);
    assert.equal(urls.locs[0], 'https://shop.example.com/item/100000');
    assert.equal(urls.locs.at(-1), 'https://shop.example.com/item/119999');
    const again = await fetch(`${worker.origin}/sitemap-2.xml.gz`, {
      headers: { 'if-none-match': shard.headers.get('etag')! },
    });
    assert.equal(again.status, 304);
    assert.equal((await fetch(`${worker.origin}/sitemap-3.xml.gz`)).status, 404);
  });

  test('the Worker parses a gzip sitemap fetched from 127.0.0.1', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
      { length: 3_000 },
      (_, i) => `<url><loc>https://www.example.com/page/${i}</loc></url>\n`,
    ).join('')}</urlset>\n`;
    const server = await startHostileServer({
      '/sitemap.xml.gz': hostile.answer(200, { 'content-type': 'application/gzip' }, gzipSync(xml)),
    });
    try {
      const response = await fetch(`${worker.origin}/parse?url=${encodeURIComponent(server.url('/sitemap.xml.gz'))}`);
      assert.equal(response.status, 200, worker.output());
      const read = (await response.json()) as { kind: string; gzip: boolean; locs: string[]; diagnostics: string[] };
      assert.equal(read.kind, 'urlset');
      assert.equal(read.gzip, true);
      assert.deepEqual(read.diagnostics, []);
      assert.equal(read.locs.length, 3_000);
      assert.equal(read.locs[2_999], 'https://www.example.com/page/2999');
      assert.equal(server.hits.get('/sitemap.xml.gz'), 1);
    } finally {
      await server.close();
    }
  });
});

/** What Node's parser reads in a document. */
async function locsOf(bytes: Uint8Array): Promise<{ kind: string | undefined; gzip: boolean; locs: string[] }> {
  const parsed = parseSitemap(bytes);
  const locs: string[] = [];
  for await (const entry of parsed) locs.push(entry.loc);
  assert.deepEqual(parsed.diagnostics, []);
  return { kind: parsed.kind, gzip: parsed.stats.gzip, locs };
}
