/** Spider traps (issue 10 §7): a default crawl of URL spaces without end stops, and says where and why. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { httpPageFetcher, robotsTxtPolicy } from '../../src/crawl/adapters.js';
import { chainOf, DEFAULT_TRAP_LIMITS, farYear, pathTrap, QueryVariants, urlPattern } from '../../src/crawl/traps.js';
import { HttpClient } from '../../src/http/client.js';
import type { CrawlOptions } from '../../src/run/crawl-site.js';
import { crawlRun } from '../helpers/crawled-run.js';
import { serveSite } from './fixtures/server.js';
import { trapSite } from './fixtures/trap-site.js';
import { BLOG, blogSite } from './fixtures/blog-site.js';

describe('trap rules', () => {
  it('reads the pattern of a URL: its path and query names, digits as #', () => {
    assert.equal(urlPattern('https://e.com/calendar/2024-05'), '/calendar/#-#');
    assert.equal(urlPattern('https://e.com:8080/events?year=2024&month=5'), '/events?month&year');
    assert.equal(urlPattern('https://e.com/'), '/');
  });

  it('counts a chain of pages of one pattern, and stops it past the limit only where it cannot be content', () => {
    const page = { pattern: '/calendar/#-#', chain: 99 };
    assert.deepEqual(chainOf('https://e.com/calendar/2032-04', page, 100, 2026), { chain: 100 });
    assert.deepEqual(chainOf('https://e.com/about', page, 100, 2026), { chain: 0 });
    assert.deepEqual(chainOf('https://e.com/calendar/2028-05', { ...page, chain: 100, alike: true }, 100, 2026), {
      chain: 101,
      trap: 'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before: pages alike but for their numbers',
    });
    assert.deepEqual(chainOf('https://e.com/calendar/2032-05', { ...page, chain: 100 }, 100, 2026), {
      chain: 101,
      trap: 'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before: dated 2032, far from the present',
    });
    // Distinct pages of the present, however many: a blog's pagination, a shop's "next" product.
    assert.deepEqual(chainOf('https://e.com/calendar/2028-05', { ...page, chain: 5000 }, 100, 2026), { chain: 5001 });
    assert.deepEqual(chainOf('https://e.com/p/5001', { pattern: '/p/#', chain: 5000 }, 100, 2026), { chain: 5001 });
    assert.equal(farYear('https://e.com/archive/1850/05', 2026), 1850);
    assert.equal(farYear('https://e.com/archive/1999/05?page=12345', 2026), undefined);
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
  async function crawl(options: Partial<CrawlOptions> = {}, route = trapSite) {
    const site = await serveSite(route);
    const http = new HttpClient({ retries: 0 });
    try {
      const store = await crawlRun({
        startUrl: `${site.origin}/`,
        fetcher: httpPageFetcher(http),
        robots: robotsTxtPolicy(http, 'sitemapkit-test'),
        concurrency: 8,
        ...options,
      });
      const rows = store.outcomes().map((row) => ({ ...row, path: row.url.slice(site.origin.length) }));
      const summary = store.summary;
      return { rows, summary, origin: site.origin, requests: site.requests.filter((path) => path !== '/robots.txt') };
    } finally {
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
        detail:
          'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before: pages alike but for their numbers',
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
          'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before: pages alike but for their numbers',
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

describe('a crawl of a real blog (issue 23 §8)', () => {
  it('crawls thousands of posts, pagination pages and a chain of products whole, and stops the endless calendars', async () => {
    const site = await serveSite(blogSite);
    const http = new HttpClient({ retries: 0 });
    try {
      const store = await crawlRun({
        startUrl: `${site.origin}/`,
        fetcher: httpPageFetcher(http),
        robots: robotsTxtPolicy(http, 'sitemapkit-test'),
        concurrency: 8,
      });
      const rows = store.outcomes().map((row) => ({ ...row, path: row.url.slice(site.origin.length) }));
      const listed = (prefix: string) =>
        rows.filter((row) => row.path.startsWith(prefix) && row.outcome === 'listed').length;
      assert.equal(listed('/blog/posts/'), BLOG.posts);
      assert.equal(listed('/blog/page/'), BLOG.posts / BLOG.perPage);
      assert.equal(listed('/shop/p/'), BLOG.products);
      // Each calendar: its first month (found on home) and the 100 of the chain the limit allows.
      assert.equal(listed('/calendar/'), DEFAULT_TRAP_LIMITS.maxChain + 1);
      assert.equal(listed('/events/'), DEFAULT_TRAP_LIMITS.maxChain + 1);
      const summary = store.summary;
      assert.deepEqual(
        summary.leftOut
          .find((group) => group.reason === 'trap')
          ?.spaces?.map(({ detail, count, example }) => [detail, count, example.slice(site.origin.length)])
          .sort(),
        [
          [
            'more than --max-chain 100 pages of the pattern /calendar/#-# in a row, each found on the one before: pages alike but for their numbers',
            1,
            '/calendar/2032-06',
          ],
          [
            'more than --max-chain 100 pages of the pattern /events/#-# in a row, each found on the one before: dated 2098, far from the present',
            1,
            '/events/2098-06',
          ],
        ],
      );
      assert.deepEqual(
        rows.filter((row) => row.outcome !== 'listed' && row.outcome !== 'trap').map((row) => [row.path, row.outcome]),
        [],
      );
    } finally {
      await http.close();
      await site.close();
    }
  });
});
