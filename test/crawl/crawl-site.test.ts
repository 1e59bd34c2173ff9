import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpPageFetcher, robotsTxtPolicy } from '../../src/crawl/adapters.js';
import { HttpClient } from '../../src/http/client.js';
import type { UrlEntry } from '../../src/core/entry.js';
import type { CrawlProgress } from '../../src/crawl/types.js';
import { crawlSite, crawlSiteInto, readCrawlRun, type CrawlOptions } from '../../src/run/crawl-site.js';
import { crawlRun } from '../helpers/crawled-run.js';
import { everyCaseSite } from './fixtures/every-case-site.js';
import { serveSite, type RunningSite } from './fixtures/server.js';

/** Every URL the crawl of the fixture site meets (maxDepth 4), with the outcome it must reach. */
function expectedOutcomes(origin: string): Map<string, string> {
  const outcomes: [string, string][] = [
    ['/', 'listed'],
    ['/about', 'listed'],
    ['/new', 'listed'],
    ['/canonical-target', 'listed'],
    ['/from-noindex', 'listed'],
    ['/nofollow-page', 'listed'],
    ['/en/', 'listed'],
    ['/de/', 'listed'],
    ['/fr/', 'listed'],
    ['/gallery', 'listed'],
    ['/gallery-2', 'listed'],
    ['/caf%C3%A9', 'listed'],
    ['/~user', 'listed'],
    ['/calendar/2024-01', 'listed'],
    ['/calendar/2024-02', 'listed'],
    ['/calendar/2024-03', 'listed'],
    ['/calendar/2024-04', 'listed'],
    ['/reload', 'listed'],
    ['/js-click', 'listed'],
    ['/old', 'redirected'],
    // Redirects the page makes itself: left out, and the target each names crawled and listed.
    ['/refresh', 'meta-refresh'],
    ['/moved/landing', 'listed'],
    ['/refresh-body-link', 'listed'],
    ['/refresh-later', 'meta-refresh'],
    ['/later', 'listed'],
    ['/refresh-away', 'meta-refresh'],
    ['/js-href', 'js-redirect'],
    ['/js-target', 'listed'],
    ['/js-replace', 'js-redirect'],
    ['/js-replaced', 'listed'],
    ['/js-window', 'js-redirect'],
    ['/js-window-target', 'listed'],
    ['/dup', 'canonicalised'],
    ['/hidden-meta', 'noindex'],
    ['/hidden-header', 'noindex'],
    ['/googlebot-none', 'noindex'],
    ['/private/secret', 'robots-blocked'],
    ['/broken', 'server-error'],
    ['/missing', 'http-error'],
    ['/doc.pdf', 'non-html'],
    ['/calendar/2024-05', 'max-depth'],
  ];
  return new Map([
    ...outcomes.map(([path, outcome]): [string, string] => [origin + path, outcome]),
    ['https://elsewhere.example/', 'out-of-scope'],
    ['https://elsewhere.example/landing', 'out-of-scope'],
  ]);
}

describe('crawlSite on the fixture site', () => {
  let site: RunningSite;
  let http: HttpClient;

  before(async () => {
    site = await serveSite(everyCaseSite);
    http = new HttpClient({ retries: 0 });
  });
  after(async () => {
    await http.close();
    await site.close();
  });

  async function crawl(options: Partial<CrawlOptions> = {}) {
    site.requests.length = 0;
    const store = await crawlRun({
      startUrl: `${site.origin}/`,
      fetcher: httpPageFetcher(http),
      robots: robotsTxtPolicy(http, 'sitemapkit-test/1.0'),
      maxDepth: 4,
      stripParams: ['utm_*'],
      ...options,
    });
    return { store, result: store.result };
  }

  it('reaches exactly the expected outcome for every URL it meets', async () => {
    const { store, result } = await crawl();
    const actual = new Map(store.outcomes().map((row) => [row.url, row.outcome]));
    assert.deepEqual(
      Object.fromEntries([...actual].sort()),
      Object.fromEntries([...expectedOutcomes(site.origin)].sort()),
    );
    assert.deepEqual(result, {
      startUrl: `${site.origin}/`,
      site: site.origin,
      startOutcome: 'listed',
      finished: true,
    });
  });

  it('never requests nofollow links, robots-blocked pages, other hosts or pages past the limits, and each page once', async () => {
    await crawl();
    const pages = site.requests.filter((path) => path !== '/robots.txt');
    for (const path of [
      '/never-followed',
      '/never-followed-2',
      '/never-followed-3',
      '/never-followed-4',
      '/private/secret',
      '/calendar/2024-05',
    ]) {
      assert.ok(!pages.includes(path), `${path} was requested`);
    }
    // The redirect chain /old → /older → /new is followed once; /new is judged from that answer.
    // Only /broken (HTTP 500) is requested again (the client tries nothing twice here): failing
    // through its attempts, it gets a last try alone, two requests back to back.
    const again = pages.filter((path, i) => pages.indexOf(path) !== i);
    assert.deepEqual(again, ['/broken', '/broken'], `pages requested again: ${pages.join(' ')}`);
    const last = pages.lastIndexOf('/broken');
    assert.equal(pages[last - 1], '/broken', `the last try is two requests in a row: ${pages.join(' ')}`);
    assert.ok(pages.includes('/older') && pages.includes('/new'));
    assert.equal(site.requests.filter((path) => path === '/robots.txt').length, 1);
  });

  it('says why each URL was left out', async () => {
    const { store } = await crawl();
    const detail = (path: string) => store.outcomeOf(site.origin + path)?.detail;
    assert.equal(detail('/old'), `HTTP 301 to ${site.origin}/new in 2 hops`);
    assert.equal(detail('/dup'), `canonical is ${site.origin}/canonical-target`);
    assert.equal(detail('/hidden-meta'), 'noindex in the robots <meta> tag');
    assert.equal(detail('/hidden-header'), 'noindex in the X-Robots-Tag header');
    assert.equal(detail('/broken'), 'HTTP 500');
    assert.equal(detail('/private/secret'), `disallowed by ${site.origin}/robots.txt`);
    assert.equal(
      detail('/gallery-2'),
      'robots.txt blocks Googlebot',
      'a listed page that Googlebot may not crawl is noted',
    );
    assert.equal(detail('/gallery'), null);
    assert.equal(detail('/doc.pdf'), 'application/pdf');
    assert.equal(detail('/refresh'), `meta refresh to ${site.origin}/moved/landing`);
    assert.equal(detail('/refresh-later'), `meta refresh after 5 s to ${site.origin}/later`);
    assert.equal(detail('/refresh-away'), 'meta refresh to https://elsewhere.example/landing');
    assert.equal(detail('/js-href'), `location.href in an inline script to ${site.origin}/js-target`);
    assert.equal(detail('/js-replace'), `window.location.replace() in an inline script to ${site.origin}/js-replaced`);
    assert.equal(detail('/js-window'), `window.location in an inline script to ${site.origin}/js-window-target`);
    assert.equal(store.outcomeOf('https://elsewhere.example/')?.detail, `not on ${site.origin}`);
  });

  it("attaches lastmod (the page's own date, else Last-Modified), images and hreflang alternates", async () => {
    const { store } = await crawl();
    const entries = new Map(store.listedEntries().map((entry) => [entry.loc.slice(site.origin.length), entry]));
    assert.equal(entries.get('/about')?.lastmod, '2024-05-01T10:00:00Z');
    assert.equal(entries.get('/canonical-target')?.lastmod, '2024-04-02T08:00:00+02:00');
    assert.equal(entries.get('/from-noindex')?.lastmod, '2024-05-01T10:00:00Z', 'a date of its own in the future');
    assert.equal(entries.get('/new')?.lastmod, undefined, 'a Last-Modified of "now" is dropped');
    assert.deepEqual(entries.get('/gallery')?.images, [
      { loc: `${site.origin}/static/a.jpg` },
      { loc: `${site.origin}/static/b-small.jpg` },
      { loc: `${site.origin}/static/b-large.jpg` },
    ]);
    const pair = [
      { hreflang: 'en', href: `${site.origin}/en/` },
      { hreflang: 'de', href: `${site.origin}/de/` },
    ];
    assert.deepEqual(entries.get('/en/')?.alternates, pair);
    assert.deepEqual(entries.get('/de/')?.alternates, pair);
    assert.deepEqual(entries.get('/fr/')?.alternates, [
      { hreflang: 'en', href: `${site.origin}/en/` },
      { hreflang: 'fr', href: `${site.origin}/fr/` },
    ]);
    assert.equal(entries.get('/')?.alternates, undefined);
  });

  it('keeps to the origin the start URL redirects to (http → https, bare host → www)', async () => {
    const entrance = await serveSite((_origin, url) => ({
      status: 301,
      headers: { location: site.origin + url.pathname },
    }));
    try {
      const { store, result } = await crawl({ startUrl: `${entrance.origin}/` });
      assert.equal(result.site, site.origin);
      assert.equal(result.startOutcome, 'listed');
      assert.equal(store.outcomeOf(`${entrance.origin}/`)?.outcome, 'redirected');
      const listed = store.listedEntries().map((entry) => entry.loc);
      const expected = [...expectedOutcomes(site.origin)]
        .filter(([, outcome]) => outcome === 'listed')
        .map(([url]) => url);
      assert.deepEqual(listed.sort(), expected.sort());
    } finally {
      await entrance.close();
    }
  });

  it('stops at --max-pages and settles the rest of the frontier', async () => {
    const { store } = await crawl({ maxPages: 3, concurrency: 1 });
    const rows = store.outcomes();
    assert.deepEqual(
      rows
        .filter((row) => row.outcome !== 'max-pages' && row.outcome !== 'out-of-scope')
        .map((row) => [row.url.slice(site.origin.length), row.outcome]),
      [
        ['/', 'listed'],
        ['/about', 'listed'],
        ['/old', 'redirected'],
        // Fetched at the end of the redirect chain (a request of the budget), judged from that answer.
        ['/new', 'listed'],
      ],
    );
    assert.equal(store.fetchedCount(), 4);
    assert.equal(rows.filter((row) => row.outcome === null).length, 0, 'nothing stays queued');
    assert.ok(rows.filter((row) => row.outcome === 'max-pages').length > 10);
    assert.deepEqual(
      site.requests.filter((path) => path !== '/robots.txt'),
      ['/', '/about', '/old', '/older', '/new'],
    );
  });
});

describe('crawlSite as a source of entries', () => {
  let site: RunningSite;
  let dir: string;
  let http: HttpClient;

  before(async () => {
    site = await serveSite(everyCaseSite);
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-source-'));
    http = new HttpClient({ retries: 0 });
  });
  after(async () => {
    await http.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const listedUrls = () =>
    [...expectedOutcomes(site.origin)].filter(([, outcome]) => outcome === 'listed').map(([url]) => url);

  it('yields the entries of the listed pages in URL order, and returns how the crawl went', async () => {
    const progress: CrawlProgress[] = [];
    const crawl = crawlSite({
      startUrl: `${site.origin}/`,
      http,
      maxDepth: 4,
      stripParams: ['utm_*'],
      onProgress: (counts) => progress.push(counts),
    });
    const entries: UrlEntry[] = [];
    let next = await crawl.next();
    for (; next.done !== true; next = await crawl.next()) entries.push(next.value);
    assert.deepEqual(
      entries.map((entry) => entry.loc),
      listedUrls().sort(),
    );
    assert.deepEqual(next.value, {
      startUrl: `${site.origin}/`,
      site: site.origin,
      startOutcome: 'listed',
      finished: true,
    });
    const last = progress.at(-1)!;
    assert.equal(last.listed, listedUrls().length, 'the last progress counts every page listed');
    assert.equal(last.queued, 0);
    assert.ok(progress.length > 10, 'progress is told as pages end');
  });

  it('continues a crawl stopped halfway in the queue it was given, fetching no page twice', async () => {
    const queue = join(dir, 'stopped.sqlite');
    site.requests.length = 0;
    const stop = new AbortController();
    const options = { startUrl: `${site.origin}/`, http, maxDepth: 4, stripParams: ['utm_*'], queue };
    const first = await crawlSiteInto({
      ...options,
      concurrency: 1,
      signal: stop.signal,
      onProgress: (counts) => {
        if (counts.fetched >= 5) stop.abort();
      },
    });
    assert.equal(first.finished, false);
    const before = site.requests.filter((path) => path !== '/robots.txt').length;
    assert.ok(before >= 5 && before < 20, `${before} pages requested before the stop`);
    const second = await crawlSiteInto(options);
    assert.equal(second.finished, true);
    const pages = site.requests.filter((path) => path !== '/robots.txt' && path !== '/broken');
    assert.deepEqual(
      pages.filter((path, i) => pages.indexOf(path) !== i),
      [],
      'no page but the failing one is requested twice',
    );
    const listed = await readCrawlRun(queue, async (record) => {
      const urls: string[] = [];
      for await (const entry of record.listedEntries()) urls.push(entry.loc);
      return urls;
    });
    assert.deepEqual(listed, listedUrls().sort());
  });
});
