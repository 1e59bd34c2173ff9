/**
 * The tree walk on sites that misbehave: a balancer failing every other request, a cut-off
 * sitemap with hundreds of problems, a sitemap served as HTML, an unreachable robots.txt, a bare
 * host that speaks no TLS, a retry that must not hold a worker, thousands of waiting children.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { HttpClient, type HttpOptions } from '../../src/http/client.js';
import { fetchSitemapTree, walkSitemapTree, type TreeOptions } from '../../src/discover/tree.js';
import { hostile, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { sitemapIndex, urlset } from '../helpers/site-server.js';

const FAST_HTTP: HttpOptions = {
  retries: 1,
  backoffMs: 10,
  maxBackoffMs: 20,
  idleTimeoutMs: 1_000,
  firstByteTimeoutMs: 2_000,
};
const FAST: TreeOptions = { http: FAST_HTTP };

const TEXT = { 'content-type': 'text/plain' };

async function withServer<T>(server: HostileServer, run: (server: HostileServer) => Promise<T>): Promise<T> {
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

describe('the tree walk on hostile sites', () => {
  it('reads every child behind a balancer that fails every other request: one more pass at the end', async () => {
    const children = Array.from({ length: 100 }, (_, i) => `/c/${i}.xml`);
    const server = await startHostileServer(
      (origin) => ({
        '/index.xml': hostile.sitemap(sitemapIndex(children.map((path) => `${origin}${path}`))),
        ...Object.fromEntries(children.map((path) => [path, hostile.sitemap(urlset([`${origin}/page${path}`]))])),
      }),
      { balancer: { failWith: hostile.answer(502, TEXT, 'bad gateway'), failEvery: 2 } },
    );
    await withServer(server, async () => {
      const tree = await fetchSitemapTree(server.url('/index.xml'), FAST);
      assert.deepEqual(
        [tree.totals.sitemaps, tree.totals.read, tree.totals.failed, tree.totals.urls],
        [101, 101, 0, 100],
      );
      assert.equal(tree.totals.errors, 0, 'a sitemap read in its last pass keeps no trace of the first');
      const readTwice = children.filter((path) => (server.hits.get(path) ?? 0) > 2);
      assert.ok(readTwice.length > 0, 'some children failed both attempts of the first pass');
    });
  });

  it('streams each entry once when a sitemap that broke off is read again in the last pass', async () => {
    const body = urlset(Array.from({ length: 300 }, (_, i) => `https://example.com/page/${i}`));
    let requests = 0;
    const server = await startHostileServer({
      '/s.xml': (socket, request) =>
        (++requests === 1 ? hostile.resetMidBody(body, body.length / 2) : hostile.sitemap(body))(socket, request),
    });
    await withServer(server, async () => {
      const walk = walkSitemapTree(server.url('/s.xml'), FAST);
      const locs: string[] = [];
      for await (const entry of walk) locs.push(entry.loc);
      const tree = await walk.tree;
      assert.equal(requests, 2);
      assert.equal(locs.length, 300);
      assert.equal(new Set(locs).size, 300);
      assert.deepEqual(
        tree.roots.map((root) => [root.ok, root.urls, root.diagnosticCount]),
        [[true, 300, 0]],
      );
    });
  });

  it('does not read again a sitemap that timed out: its time is spent already', async () => {
    const server = await startHostileServer({ '/never.xml': hostile.neverAnswers() });
    await withServer(server, async () => {
      const tree = await fetchSitemapTree(server.url('/never.xml'), {
        http: { ...FAST_HTTP, retries: 3, firstByteTimeoutMs: 300 },
      });
      assert.equal(tree.totals.failed, 1);
      assert.equal(server.hits.get('/never.xml'), 2, 'a timeout is retried once, and has no last pass');
    });
  });

  it('does not give a host that is down a second pass', async () => {
    const children = Array.from({ length: 30 }, (_, i) => `/c/${i}.xml`);
    const server = await startHostileServer((origin) => ({
      '/index.xml': hostile.sitemap(sitemapIndex(children.map((path) => `${origin}${path}`))),
      ...Object.fromEntries(children.map((path) => [path, hostile.answer(503, TEXT, 'down')])),
    }));
    await withServer(server, async () => {
      const tree = await fetchSitemapTree(server.url('/index.xml'), FAST);
      assert.equal(tree.totals.failed, 30);
      assert.deepEqual(new Set(children.map((path) => server.hits.get(path))), new Set([2]), 'two attempts, one pass');
    });
  });

  it('counts every problem of a cut-off sitemap, so 300 bad dates do not hide the cut', async () => {
    const xml = urlset(
      Array.from({ length: 400 }, (_, i) => ({ loc: `https://example.com/${i}`, lastmod: `not a date ${i}` })),
    );
    const gzip = gzipSync(xml);
    const server = await startHostileServer({
      '/cut.xml.gz': hostile.answer(200, { 'content-type': 'application/gzip' }, gzip.subarray(0, gzip.length * 0.8)),
    });
    await withServer(server, async () => {
      const tree = await fetchSitemapTree(server.url('/cut.xml.gz'), FAST);
      const [node] = tree.roots;
      assert.equal(node!.ok, false);
      assert.ok(node!.codes['DATE-001']! > 300, `${node!.codes['DATE-001']} DATE-001 counted`);
      assert.equal(node!.codes['FETCH-005'], 1);
      assert.equal(node!.errors, node!.diagnosticCount);
      assert.equal(
        node!.errors,
        Object.values(node!.codes).reduce((sum, n) => sum + n, 0),
      );
      assert.equal(node!.diagnostics.filter((d) => d.code === 'DATE-001').length, 20, 'the examples are bounded');
      assert.ok(
        node!.diagnostics.some((d) => d.code === 'FETCH-005'),
        'the cut is among the examples',
      );
      assert.deepEqual([tree.totals.read, tree.totals.failed], [0, 1]);
    });
  });

  it('finds a sitemap served as text/html by its bytes, and still passes over an HTML page', async () => {
    const server = await startHostileServer((origin) => ({
      '/sitemap.xml': hostile.answer(200, { 'content-type': 'text/html' }, '<!DOCTYPE html><html><p>Not found</p>'),
      '/sitemap_index.xml': (socket) => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 5000\r\n\r\n<html>');
        socket.destroy(); // an HTML page that breaks off while it is looked at
      },
      '/sitemap-index.xml': hostile.servedAsHtml(urlset([`${origin}/a`, `${origin}/b`])),
    }));
    await withServer(server, async () => {
      const tree = await fetchSitemapTree(server.origin, FAST);
      assert.deepEqual(
        tree.probes.map((p) => [p.url.slice(server.origin.length), p.outcome]),
        [
          ['/sitemap.xml', 'html'],
          ['/sitemap_index.xml', 'error'],
          ['/sitemap-index.xml', 'found'],
        ],
      );
      assert.deepEqual(
        tree.roots.map((root) => [root.foundBy, root.kind, root.urls, root.ok]),
        [['well-known', 'urlset', 2, true]],
      );
      assert.equal(server.hits.get('/sitemap-index.xml'), 1, 'the bytes looked at are read, not fetched again');
    });
  });

  it('counts the problems of robots.txt and of the walk in the totals', async () => {
    const server = await startHostileServer({ '/robots.txt': hostile.answer(500, TEXT, 'oops') });
    await withServer(server, async () => {
      const tree = await fetchSitemapTree(server.origin, { http: { ...FAST_HTTP, retries: 0 } });
      assert.deepEqual(
        [...(tree.robots?.diagnostics ?? []), ...tree.diagnostics].map((d) => [d.code, d.severity]),
        [
          ['ROBOTS-004', 'info'],
          ['FETCH-001', 'error'],
        ],
      );
      assert.deepEqual([tree.totals.errors, tree.totals.warnings, tree.totals.infos], [1, 0, 1]);
    });
  });

  it('reads a host typed without a scheme over http when its server does not speak TLS', async () => {
    const server = await startHostileServer((origin) => ({
      '/robots.txt': hostile.answer(200, TEXT, `Sitemap: ${origin}/s.xml\n`),
      '/s.xml': hostile.sitemap(urlset([`${origin}/a`])),
    }));
    await withServer(server, async () => {
      const host = server.origin.replace('http://', '');
      const site = await fetchSitemapTree(host, FAST);
      assert.equal(site.robots?.url, server.url('/robots.txt'));
      assert.deepEqual(
        site.roots.map((root) => [root.url, root.ok]),
        [[server.url('/s.xml'), true]],
      );
      const sitemap = await fetchSitemapTree(`${host}/s.xml`, FAST);
      assert.deepEqual(
        sitemap.roots.map((root) => [root.url, root.ok, root.diagnostics.length]),
        [[server.url('/s.xml'), true, 0]],
      );
      const typed = await fetchSitemapTree(`https://${host}/s.xml`, FAST);
      assert.equal(typed.roots[0]!.ok, false, 'an https URL typed in full is not changed');
      assert.match(
        typed.roots[0]!.diagnostics[0]!.message,
        new RegExp(`^the server at https://${host} does not speak TLS; try ${server.url('/s.xml')}$`),
      );
    });
  });

  it('lets a retry wait without holding the worker: the other sitemaps are read meanwhile', async () => {
    let first = true;
    const server = await startHostileServer((origin) => ({
      '/index.xml': hostile.sitemap(sitemapIndex(['/busy.xml', '/b.xml', '/c.xml'].map((p) => `${origin}${p}`))),
      '/busy.xml': (socket, request) => {
        const answer = first ? hostile.retryAfter(1) : hostile.sitemap(urlset([`${origin}/x`]));
        first = false;
        answer(socket, request);
      },
      '/b.xml': hostile.sitemap(urlset([`${origin}/b`])),
      '/c.xml': hostile.sitemap(urlset([`${origin}/c`])),
    }));
    await withServer(server, async () => {
      const tree = await fetchSitemapTree(server.url('/index.xml'), {
        ...FAST,
        concurrency: 1,
        perHost: { concurrency: 1 },
      });
      assert.deepEqual(server.requests, ['/index.xml', '/busy.xml', '/b.xml', '/c.xml', '/busy.xml']);
      assert.equal(tree.totals.read, 4);
      const busy = tree.roots[0]!.children[0]!;
      assert.ok(busy.durationMs >= 950, `the retry came after Retry-After (${busy.durationMs} ms)`);
    });
  });

  it('holds no abort listener per waiting sitemap: 1,000 children, one signal, a shared client, no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const controller = new AbortController();
    const server = await startHostileServer((origin) => ({
      '/index.xml': hostile.sitemap(sitemapIndex(Array.from({ length: 1_000 }, (_, i) => `${origin}/c/${i}.xml`))),
    }));
    try {
      let most = 0;
      const http = new HttpClient(FAST_HTTP); // shared, as `crawl --use-sitemaps` shares its own
      const tree = await fetchSitemapTree(server.url('/index.xml'), {
        http,
        signal: controller.signal,
        onProgress: () => {
          most = Math.max(most, getEventListeners(controller.signal, 'abort').length);
        },
      });
      await http.close();
      assert.equal(tree.totals.failed, 1_000);
      assert.ok(most <= 1, `${most} listeners on the caller's signal`);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.map((w) => w.name),
        [],
      );
    } finally {
      process.off('warning', onWarning);
      await server.close();
    }
  });
});
