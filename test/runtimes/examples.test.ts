/**
 * The README's examples, run as their runtimes run them, from the files under examples/ that
 * the README shows: a Cloudflare Worker (workerd), a Deno serve handler, a Bun server and a Node
 * http server, each serving 10,000,000 product URLs from the paged source in examples/catalog.js;
 * and the parse script on Node, Deno and Bun against a gzip sitemap on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from '../../src/parse/index.js';
import { hostile, startHostileServer } from '../helpers/hostile-server.js';
import {
  bundleForWorkers,
  runScript,
  startScriptServer,
  startWorkerd,
  REPO_DIR,
  type RunningServer,
} from '../helpers/runtimes.js';

test('the README shows every example as its file holds it', async () => {
  const readme = await readFile(join(REPO_DIR, 'README.md'), 'utf8');
  const names = (await readdir(join(REPO_DIR, 'examples'))).filter((name) => name.endsWith('.js'));
  assert.ok(names.length >= 6);
  for (const name of names) {
    const file = (await readFile(join(REPO_DIR, 'examples', name), 'utf8')).trimEnd();
    assert.ok(
      readme.includes(`\`\`\`js\n// examples/${name}\n${file}\n\`\`\``),
      `the README shows examples/${name} otherwise`,
    );
  }
});

/** What every example serves: the index of 200 gzip shards, and the last shard whole. */
async function checkProductSitemaps(origin: string): Promise<void> {
  const index = await fetch(`${origin}/sitemap.xml`);
  assert.equal(index.status, 200);
  assert.equal(index.headers.get('content-type'), 'application/xml; charset=utf-8');
  const shards = await read(new Uint8Array(await index.arrayBuffer()));
  assert.equal(shards.kind, 'sitemapindex');
  assert.equal(shards.locs.length, 200);
  assert.equal(shards.locs[0], 'https://shop.example.com/sitemap-0.xml.gz');
  assert.equal(shards.locs[199], 'https://shop.example.com/sitemap-199.xml.gz');

  const last = await fetch(`${origin}/sitemap-199.xml.gz`);
  assert.equal(last.status, 200);
  assert.equal(last.headers.get('content-type'), 'application/gzip');
  assert.equal(last.headers.get('last-modified'), 'Tue, 28 May 2024 00:00:00 GMT');
  const urls = await read(new Uint8Array(await last.arrayBuffer()));
  assert.equal(urls.kind, 'urlset');
  assert.equal(urls.gzip, true);
  assert.equal(urls.locs.length, 50_000);
  assert.equal(urls.locs[0], 'https://shop.example.com/products/9950000');
  assert.equal(urls.locs[49_999], 'https://shop.example.com/products/9999999');

  const unchanged = await fetch(`${origin}/sitemap-199.xml.gz`, {
    headers: { 'if-none-match': last.headers.get('etag')! },
  });
  assert.equal(unchanged.status, 304);
  assert.equal((await fetch(`${origin}/sitemap-200.xml.gz`)).status, 404);
  assert.equal((await fetch(`${origin}/about`)).status, 404);
}

async function read(bytes: Uint8Array): Promise<{ kind: string | undefined; gzip: boolean; locs: string[] }> {
  const parsed = parseSitemap(bytes);
  const locs: string[] = [];
  for await (const entry of parsed) locs.push(entry.loc);
  assert.deepEqual(parsed.diagnostics, []);
  return { kind: parsed.kind, gzip: parsed.stats.gzip, locs };
}

async function serving(start: () => Promise<RunningServer>): Promise<void> {
  const server = await start();
  try {
    await checkProductSitemaps(server.origin);
  } catch (error) {
    (error as Error).message += `\n--- the server said:\n${server.output()}`;
    throw error;
  } finally {
    await server.close();
  }
}

test('examples/node-http.js serves 10,000,000 URLs from a paged source', () =>
  serving(() => startScriptServer('node', 'examples/node-http.js')));

test('examples/deno-serve.js serves them with Deno.serve', () =>
  serving(() =>
    startScriptServer('deno', 'examples/deno-serve.js', { denoPermissions: ['--allow-net', '--allow-env'] }),
  ));

test('examples/bun-server.js serves them with Bun.serve', () =>
  serving(() => startScriptServer('bun', 'examples/bun-server.js')));

test('examples/cloudflare-worker.js serves them from a Worker in workerd', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-worker-example-'));
  try {
    await bundleForWorkers('examples/cloudflare-worker.js', join(dir, 'worker.js'));
    await serving(() => startWorkerd(join(dir, 'worker.js'), dir));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('examples/parse-remote.js reads a gzip sitemap on Node, Deno and Bun', async () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${[
    1, 2, 3,
  ]
    .map((i) => `<url><loc>https://www.example.com/${i}</loc><lastmod>2024-05-0${i}</lastmod></url>\n`)
    .join('')}</urlset>\n`;
  const server = await startHostileServer({
    '/sitemap.xml.gz': hostile.answer(200, { 'content-type': 'application/gzip' }, gzipSync(xml)),
  });
  try {
    const url = server.url('/sitemap.xml.gz');
    for (const runtime of ['node', 'deno', 'bun'] as const) {
      const run = await runScript(runtime, 'examples/parse-remote.js', {
        args: [url],
        denoPermissions: ['--allow-net'],
      });
      assert.equal(run.code, 0, `${runtime}: ${run.stderr}`);
      assert.equal(run.stdout, `${url}: urlset (gzip), 3 entries, newest lastmod 2024-05-03\n`, runtime);
    }
  } finally {
    await server.close();
  }
});
