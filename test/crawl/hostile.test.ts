/**
 * Pages that lie about themselves (issue 10 §4, §7): a body that never ends, a gzip bomb, a page
 * larger than the limit, gzip served as HTML. Each is reported with its reason and none is listed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MAX_PAGE_BYTES } from '../../src/crawl/adapters.js';
import type { CrawlReport } from '../../src/report/crawl.js';
import { runCli } from '../helpers/cli.js';
import { hostile, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { HOSTILE_OUTCOMES, hostileSite } from './fixtures/hostile-pages.js';
import { sitemapIndex, urlset as urlsetOf } from '../helpers/site-server.js';
import { html, serveSite, type RunningSite } from './fixtures/server.js';

interface LeftOutLine {
  url: string;
  reason: string;
  detail: string | null;
  found_on: string | null;
}

describe('crawl of hostile pages', () => {
  let site: RunningSite;
  let dir: string;
  before(async () => {
    site = await serveSite(hostileSite(DEFAULT_MAX_PAGE_BYTES));
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-hostile-'));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports each page cut off or not HTML with its reason, lists none of them, and exits 1', async () => {
    const leftOutFile = join(dir, 'left-out.jsonl');
    const result = await runCli([
      'crawl',
      `${site.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state'),
      '--json',
      '--report',
      leftOutFile,
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /sitemapkit crawl: 3 pages could not be read \(server error, no response or cut off\)/);
    const report = JSON.parse(result.stdout) as CrawlReport;
    assert.equal(report.unread, 3);

    const lines = readFileSync(leftOutFile, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LeftOutLine);
    const outcomes = Object.fromEntries(lines.map((line) => [line.url.slice(site.origin.length), line.reason]));
    const listed = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')
      .match(/<loc>[^<]*<\/loc>/g)!
      .map((loc) => loc.slice(5 + site.origin.length, -6));
    for (const path of listed) outcomes[path] = 'listed';
    assert.deepEqual(outcomes, HOSTILE_OUTCOMES);

    const detail = (path: string) => lines.find((line) => line.url === site.origin + path)?.detail;
    assert.equal(
      detail('/endless'),
      'cut off at 10,485,760 bytes (--max-page-bytes): the page is larger, or never ends',
    );
    assert.match(
      detail('/bomb')!,
      /^cut off at 10,485,760 bytes \(--max-page-bytes\): unpacked from [\d,]+ bytes on the wire: a compression bomb\?$/,
    );
    assert.equal(detail('/gzip-file'), 'served as text/html, but the body is gz data (application/gzip)');
    assert.equal(detail('/double-gzip'), 'served as text/html, but the body is gz data (application/gzip)');
    assert.equal(lines.find((line) => line.url.endsWith('/big'))?.found_on, `${site.origin}/`);
    assert.ok(site.requests.includes('/before-the-cut'), 'the link before the cut is followed');
    assert.ok(!site.requests.includes('/after-the-cut'), 'the link past the cut is never seen');
  });
});

describe('crawl --use-sitemaps of a large index whose sitemap is served as text/html', () => {
  const PAGES = Array.from({ length: 100 }, (_, i) => `/p/${i}`);
  const CHILDREN = 1_000;
  let server: HostileServer;
  let dir: string;
  before(async () => {
    const page = hostile.answer(200, { 'content-type': 'text/html' }, html('<title>page</title>', 'a page'));
    server = await startHostileServer((origin) => ({
      '/robots.txt': hostile.answer(200, { 'content-type': 'text/plain' }, `Sitemap: ${origin}/index.xml\n`),
      // The home page links to nothing: every other page is known from the sitemaps alone.
      '/': page,
      ...Object.fromEntries(PAGES.map((path) => [path, page])),
      // One child lists the pages, served as HTML as some CMSs do; the others list the home page.
      ...Object.fromEntries(
        Array.from({ length: CHILDREN - 1 }, (_, i) => [
          `/sitemap-${i + 1}.xml`,
          hostile.sitemap(urlsetOf([`${origin}/`])),
        ]),
      ),
      '/index.xml': hostile.sitemap(
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
          { length: CHILDREN },
          (_, i) => `<sitemap><loc>${origin}/sitemap-${i}.xml</loc></sitemap>`,
        ).join('\n')}\n</sitemapindex>\n`,
      ),
      '/sitemap-0.xml': hostile.servedAsHtml(urlsetOf(PAGES.map((path) => `${origin}${path}`))),
    }));
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-use-sitemaps-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the sitemap by its bytes, lists every page it names, and prints no Node warning', async () => {
    const result = await runCli([
      'crawl',
      `${server.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state'),
      '--use-sitemaps',
      '--json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /Warning|\(node:\d+\)/, 'no Node warning');
    const report = JSON.parse(result.stdout) as CrawlReport;
    assert.equal(report.listed, PAGES.length + 1);
    assert.equal(server.hits.get('/sitemap-999.xml'), 1, 'every child of the index was looked at');
  });
});

describe('crawl --use-sitemaps when a sitemap of the site cannot be read', () => {
  let server: HostileServer;
  let dir: string;
  before(async () => {
    const page = hostile.answer(200, { 'content-type': 'text/html' }, html('<title>page</title>', 'a page'));
    server = await startHostileServer((origin) => ({
      '/robots.txt': hostile.answer(200, { 'content-type': 'text/plain' }, `Sitemap: ${origin}/index.xml\n`),
      '/': page,
      '/a': page,
      '/index.xml': hostile.sitemap(sitemapIndex([`${origin}/sitemap-a.xml`, `${origin}/sitemap-broken.xml`])),
      '/sitemap-a.xml': hostile.sitemap(urlsetOf([`${origin}/a`])),
      // Pages only this sitemap lists are lost with it.
      '/sitemap-broken.xml': hostile.answer(500, { 'content-type': 'text/plain' }, 'down'),
    }));
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-use-sitemaps-broken-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Crawls the site with `how` (where the state lives), and checks what the crawl says and publishes. */
  async function assertBrokenSitemapNamed(out: string, how: string[]): Promise<void> {
    const result = await runCli([
      'crawl',
      `${server.origin}/`,
      '--out',
      out,
      ...how,
      '--use-sitemaps',
      '--retries',
      '0',
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.ok(
      result.stderr.includes(
        `sitemapkit crawl: --use-sitemaps: 1 sitemap could not be read whole, so pages only listed there may be missing: ${server.origin}/sitemap-broken.xml (FETCH-001 answered HTTP 500 Internal Server Error`,
      ),
      result.stderr,
    );
    const listed = readFileSync(join(out, 'sitemap.xml'), 'utf8').match(/<loc>[^<]*<\/loc>/g);
    assert.deepEqual(listed, [`<loc>${server.origin}/</loc>`, `<loc>${server.origin}/a</loc>`]);
  }

  it('names the sitemap and its problem, publishes the rest, and exits 1', async () => {
    await assertBrokenSitemapNamed(join(dir, 'out'), ['--state', join(dir, 'state')]);
  });

  it('on workers too: the worker that reads the sitemaps records the problem for the outputs', async () => {
    await assertBrokenSitemapNamed(join(dir, 'workers-out'), [
      '--run',
      'broken-sitemap',
      '--store',
      join(dir, 'runs.sqlite'),
    ]);
  });
});
