/**
 * Failures that may pass (issue 10 §7, issue 15 §3): a page that answers 5xx or not at all waits
 * for its retry in the queue instead of holding a worker through backoff, and, failing through its
 * retries, gets a last try alone (two requests back to back); a failure that lasts makes `crawl`
 * exit 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpPageFetcher, robotsTxtPolicy } from '../../src/crawl/adapters.js';
import { HttpClient } from '../../src/http/client.js';
import type { CrawlReport } from '../../src/report/crawl.js';
import { runCli } from '../helpers/cli.js';
import { crawlRun } from '../helpers/crawled-run.js';
import { hostile, startHostileServer } from '../helpers/hostile-server.js';
import { html, serveSite, type Route } from './fixtures/server.js';

/** Home links to `paths`; each page answers 200 with HTML linking to `links[path]`, unless `fail` says otherwise. */
function siteOf(
  paths: string[],
  fail: (path: string, attempt: number) => number | undefined,
  links: Record<string, string[]> = {},
): Route {
  const attempts = new Map<string, number>();
  return (_origin, url) => {
    if (url.pathname === '/robots.txt')
      return { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow:\n' };
    const attempt = (attempts.get(url.pathname) ?? 0) + 1;
    attempts.set(url.pathname, attempt);
    const status = fail(url.pathname, attempt);
    if (status !== undefined) return { status, body: 'unavailable' };
    const targets = url.pathname === '/' ? paths : (links[url.pathname] ?? []);
    return { body: html('<title>page</title>', targets.map((path) => `<a href="${path}">${path}</a>`).join('')) };
  };
}

describe('failures that may pass', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-failures-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function crawl(origin: string, http: HttpClient, concurrency: number) {
    const store = await crawlRun({
      startUrl: `${origin}/`,
      fetcher: httpPageFetcher(http),
      robots: robotsTxtPolicy(http, 'sitemapkit-test'),
      concurrency,
    });
    return new Map(store.outcomes().map((row) => [new URL(row.url).pathname, row.outcome]));
  }

  it('sets a failed page aside instead of waiting for its retry, and tries it again when the rest is done', async () => {
    const site = await serveSite(
      siteOf(['/a', '/b', '/c', '/d'], (path, attempt) => (path === '/a' && attempt === 1 ? 500 : undefined), {
        '/a': ['/e'],
      }),
    );
    const http = new HttpClient({ retries: 2, backoffMs: 1 });
    try {
      const outcomes = await crawl(site.origin, http, 1);
      // One worker: the retry of /a waits for no backoff in the middle of the crawl, and the page
      // it leads to once it answers (/e) is crawled in turn.
      assert.deepEqual(
        site.requests.filter((path) => path !== '/robots.txt'),
        ['/', '/a', '/b', '/c', '/d', '/a', '/e'],
      );
      assert.deepEqual([...outcomes.values()], Array(6).fill('listed'));
    } finally {
      await http.close();
      await site.close();
    }
  });

  it('lets the pages waiting for a retry wait for their backoff together, not one after another', async () => {
    const down = Array.from({ length: 10 }, (_, n) => `/down/${n}`);
    const site = await serveSite(siteOf(down, (path) => (path.startsWith('/down/') ? 503 : undefined)));
    // One retry after a backoff of exactly one second (no jitter), one request at a time.
    const http = new HttpClient({ retries: 1, backoffMs: 1000, random: () => 1 });
    try {
      const started = performance.now();
      const outcomes = await crawl(site.origin, http, 1);
      const seconds = (performance.now() - started) / 1000;
      assert.deepEqual(
        down.map((path) => outcomes.get(path)),
        Array(down.length).fill('server-error'),
      );
      // Each: its first try, its retry, then a last try alone (two requests back to back).
      const requests = site.requests.filter((path) => path !== '/robots.txt');
      for (const path of down) assert.equal(requests.filter((sent) => sent === path).length, 4, path);
      // Ten waits of a second one after another would take ten seconds; waited in the queue, they overlap.
      assert.ok(seconds < 5, `the crawl took ${seconds.toFixed(1)} s`);
    } finally {
      await http.close();
      await site.close();
    }
  });

  it('recovers every page when half of them fail on their first request (a balancer with a broken backend)', async () => {
    const pages = Array.from({ length: 100 }, (_, n) => `/p/${n}`);
    const site = await serveSite(
      siteOf(pages, (path, attempt) => (attempt === 1 && /[13579]$/.test(path) ? 503 : undefined)),
    );
    // No retries at all: only the pass at the end tries the failed pages again.
    const http = new HttpClient({ retries: 0 });
    try {
      const outcomes = await crawl(site.origin, http, 4);
      assert.equal(outcomes.size, 101);
      assert.deepEqual(
        [...outcomes].filter(([, outcome]) => outcome !== 'listed'),
        [],
      );
      assert.equal(site.requests.filter((path) => path !== '/robots.txt').length, 151);
    } finally {
      await http.close();
      await site.close();
    }
  });

  it('tries a timeout again once in all, and never what no try can mend (headers too large)', async () => {
    const server = await startHostileServer({
      '/robots.txt': hostile.answer(200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow:\n'),
      '/': hostile.answer(
        200,
        { 'content-type': 'text/html' },
        html('<title>home</title>', '<a href="/never">never</a> <a href="/huge-headers">huge</a>'),
      ),
      '/never': hostile.neverAnswers(),
      '/huge-headers': hostile.headerOverflow(),
    });
    // Not shorter: on a busy machine a 200 ms timer fired before the retry's connection was made,
    // so the server never saw the request the test counts.
    const http = new HttpClient({ retries: 3, backoffMs: 1, firstByteTimeoutMs: 1_000 });
    try {
      const outcomes = await crawl(server.origin, http, 2);
      assert.deepEqual(Object.fromEntries(outcomes), {
        '/': 'listed',
        '/never': 'fetch-error',
        '/huge-headers': 'fetch-error',
      });
      assert.equal(server.hits.get('/never'), 2, 'once in the crawl, once at the end');
      assert.equal(server.hits.get('/huge-headers'), 1, 'once');
    } finally {
      await http.close();
      await server.close();
    }
  });

  it('lists every page behind a round-robin balancer with one broken backend, which fails every other request', async () => {
    const pages = Array.from({ length: 100 }, (_, n) => `/p/${n}`);
    const page = (body: string) =>
      hostile.answer(200, { 'content-type': 'text/html' }, html('<title>page</title>', body));
    const server = await startHostileServer(
      {
        '/robots.txt': hostile.answer(200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow:\n'),
        '/': page(pages.map((path) => `<a href="${path}">${path}</a>`).join('\n')),
        ...Object.fromEntries(pages.map((path) => [path, page('a page')])),
      },
      { balancer: { failWith: hostile.answer(502, { 'content-type': 'text/plain' }, 'bad gateway'), failEvery: 2 } },
    );
    try {
      const out = join(dir, 'balancer', 'out');
      const result = await runCli([
        'crawl',
        `${server.origin}/`,
        '--out',
        out,
        '--state',
        join(dir, 'balancer', 'state'),
        '--json',
      ]);
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as CrawlReport;
      assert.deepEqual([report.listed, report.unread, report.leftOut], [101, 0, []]);
    } finally {
      await server.close();
    }
  });

  it('exits 1 when a failure lasts through the retries, naming the page, and still publishes the rest', async () => {
    const site = await serveSite(siteOf(['/a', '/down'], (path) => (path === '/down' ? 503 : undefined)));
    try {
      const result = await runCli([
        'crawl',
        `${site.origin}/`,
        '--out',
        join(dir, 'out'),
        '--state',
        join(dir, 'state'),
        '--retries',
        '1',
        '--json',
      ]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /sitemapkit crawl: 1 page could not be read \(server error, no response or cut off\)/,
      );
      const report = JSON.parse(result.stdout) as CrawlReport;
      assert.equal(report.listed, 2);
      assert.deepEqual(report.leftOut, [
        { reason: 'server-error', count: 1, examples: [{ url: `${site.origin}/down`, detail: 'HTTP 503' }] },
      ]);
      assert.ok(report.sitemaps, 'the pages read are published');
      // Once, and once more with --retries 1 (after a backoff, other pages fetched meanwhile); then
      // twice in the last try, alone.
      assert.equal(site.requests.filter((path) => path === '/down').length, 4);
    } finally {
      await site.close();
    }
  });
});
