/** Spider traps (issue 10 §7): a default crawl of URL spaces without end stops, and says where and why. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { httpPageFetcher, robotsTxtPolicy } from '../../src/crawl/adapters.js';
import { crawlSite, type CrawlOptions } from '../../src/crawl/crawler.js';
import { summariseCrawl } from '../../src/crawl/summary.js';
import { chainOf, DEFAULT_TRAP_LIMITS, pathTrap, QueryVariants, urlPattern } from '../../src/crawl/traps.js';
import { HttpClient } from '../../src/discover/http.js';
import { CrawlStore } from '../../src/store/crawl-store.js';
import { serveSite } from './fixtures/server.js';
import { trapSite } from './fixtures/trap-site.js';

describe('trap rules', () => {
  it('reads the pattern of a URL: its path and query names, digits as #', () => {
    assert.equal(urlPattern('https://e.com/calendar/2024-05'), '/calendar/#-#');
    assert.equal(urlPattern('https://e.com:8080/events?year=2024&month=5'), '/events?month&year');
    assert.equal(urlPattern('https://e.com/'), '/');
  });

  it('counts a chain of pages of one pattern, and stops it past the limit', () => {
    const page = { pattern: '/calendar/#-#', chain: 99 };
    assert.deepEqual(chainOf('https://e.com/calendar/2032-04', page, 100), { chain: 100 });
    assert.deepEqual(chainOf('https://e.com/about', page, 100), { chain: 0 });
    assert.deepEqual(chainOf('https://e.com/calendar/2032-05', { ...page, chain: 100 }, 100), {
      chain: 101,
      trap: 'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before',
    });
  });

  it('refuses paths too deep, or repeating a run of segments three times in a row', () => {
    const segments = (n: number) => `https://e.com/${Array.from({ length: n }, (_, k) => `s${k}`).join('/')}/`;
    assert.equal(pathTrap(segments(20), 20), undefined);
    assert.equal(pathTrap(segments(21), 20), 'a path of 21 segments, more than --max-path-segments 20');
    assert.equal(pathTrap('https://e.com/a/a/b', 20), undefined);
    assert.equal(pathTrap('https://e.com/x/a/a/a/', 20), 'the path repeats /a/ 3 times in a row');
    assert.equal(pathTrap('https://e.com/a/b/a/b/a/b/c?q=1', 20), 'the path repeats /a/b/ 3 times in a row');
    assert.equal(pathTrap('https://e.com/2024/01/01/01', 20), 'the path repeats /01/ 3 times in a row');
    assert.equal(pathTrap('https://e.com/2024/01/01/post', 20), undefined);
  });

  it('lets each path have its share of query variants, counting on from a resumed crawl', () => {
    const variants = new QueryVariants(2, new Map([['https://e.com/search', 1]]));
    assert.equal(variants.admit('https://e.com/search?q=a'), undefined);
    assert.equal(
      variants.admit('https://e.com/search?q=b'),
      'more than --max-query-variants 2 query variants of https://e.com/search: a search or filter space without end',
    );
    assert.equal(variants.admit('https://e.com/search'), undefined, 'the path itself is no variant');
    assert.equal(variants.admit('https://e.com/other?q=b'), undefined);
  });
});

describe('a crawl of a site full of traps', () => {
  async function crawl(options: Partial<CrawlOptions> = {}) {
    const site = await serveSite(trapSite);
    const http = new HttpClient({ retries: 0 });
    const store = new CrawlStore(':memory:');
    try {
      await crawlSite({
        startUrl: `${site.origin}/`,
        fetcher: httpPageFetcher(http),
        robots: robotsTxtPolicy(http, 'sitemapkit-test'),
        store,
        concurrency: 8,
        ...options,
      });
      const rows = [...store.outcomes()].map((row) => ({ ...row, path: row.url.slice(site.origin.length) }));
      const summary = summariseCrawl(store, { startUrl: `${site.origin}/`, finished: true, startOutcome: 'listed' });
      return { rows, summary, origin: site.origin, requests: site.requests.filter((path) => path !== '/robots.txt') };
    } finally {
      store.close();
      await http.close();
      await site.close();
    }
  }

  it('ends with the default limits, every trap stopped and left out with its reason', async () => {
    const { rows, requests, summary, origin } = await crawl();
    const trapped = rows.filter((row) => row.outcome === 'trap');
    const calendar = rows.filter((row) => row.path.startsWith('/calendar/'));
    // 2024-01 is found on home; each month after continues the chain, up to the limit.
    assert.equal(calendar.filter((row) => row.outcome === 'listed').length, DEFAULT_TRAP_LIMITS.maxChain + 1);
    assert.deepEqual(
      trapped.find((row) => row.path.startsWith('/calendar/')),
      {
        url: rows.find((row) => row.path === '/calendar/2032-06')!.url,
        path: '/calendar/2032-06',
        outcome: 'trap',
        detail: 'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before',
      },
    );
    const nest = rows.filter((row) => row.path.startsWith('/nest/'));
    assert.deepEqual(
      nest.map((row) => [row.path, row.outcome]),
      [
        ['/nest/', 'listed'],
        ['/nest/nest/', 'listed'],
        ['/nest/nest/nest/', 'trap'],
      ],
    );
    const deepest = rows.filter((row) => row.path.startsWith('/deep/')).at(-1)!;
    assert.equal(deepest.outcome, 'trap');
    assert.equal(deepest.detail, 'a path of 21 segments, more than --max-path-segments 20');
    assert.equal(
      rows.filter((row) => row.path.startsWith('/shop?') && row.outcome !== 'trap').length,
      DEFAULT_TRAP_LIMITS.maxQueryVariants,
    );
    assert.ok(trapped.some((row) => row.detail?.startsWith('more than --max-query-variants 1000 query variants of ')));
    assert.ok(
      !requests.some((path) => rows.find((row) => row.path === path)?.outcome === 'trap'),
      'no trap URL is fetched',
    );
    assert.ok(!rows.some((row) => row.outcome === null), 'nothing is left queued');
    // The report names each trap once, however many URLs it held.
    assert.deepEqual(
      summary.leftOut
        .find((group) => group.reason === 'trap')
        ?.spaces?.map(({ detail, count, example }) => [detail, count, example.slice(origin.length)])
        .sort(),
      [
        [
          'a path of 21 segments, more than --max-path-segments 20',
          1,
          '/deep/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/20/',
        ],
        [
          'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before',
          1,
          '/calendar/2032-06',
        ],
        [
          `more than --max-query-variants 1000 query variants of ${origin}/shop: a search or filter space without end`,
          trapped.filter((row) => row.path.startsWith('/shop?')).length,
          trapped.find((row) => row.path.startsWith('/shop?'))!.path,
        ],
        ['the path repeats /nest/ 3 times in a row', 1, '/nest/nest/nest/'],
      ],
    );
  });

  it('stops each trap where its limit is set', async () => {
    const { rows } = await crawl({ trapLimits: { maxChain: 5, maxQueryVariants: 7, maxPathSegments: 4 } });
    const count = (prefix: string, outcome: string) =>
      rows.filter((row) => row.path.startsWith(prefix) && row.outcome === outcome).length;
    assert.equal(count('/calendar/', 'listed'), 6);
    assert.equal(count('/shop?', 'listed'), 7);
    assert.equal(count('/deep/', 'listed'), 4);
  });
});
