/** The crawl is polite: it keeps to its concurrency, and spaces requests by --delay and Crawl-delay. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { httpPageFetcher, robotsTxtPolicy } from '../../src/crawl/adapters.js';
import { HttpClient } from '../../src/http/client.js';
import { crawlRun } from '../helpers/crawled-run.js';
import { startSite, type Route } from '../helpers/site-server.js';
import { html } from './fixtures/server.js';

/** A wide site (home links to `pages` pages) that records when each request came and how many were in flight. */
async function serveWideSite(pages: number, robotsTxt: string, answerMs: number) {
  const log = { starts: [] as number[], maxInFlight: 0 };
  let inFlight = 0;
  const page =
    (links: string): Route =>
    (_request, response) => {
      log.starts.push(performance.now());
      inFlight += 1;
      log.maxInFlight = Math.max(log.maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.writeHead(200, { 'content-type': 'text/html' }).end(html('<title>page</title>', links));
      }, answerMs);
    };
  const routes: Record<string, Route> = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: robotsTxt },
    '/': page(Array.from({ length: pages }, (_, n) => `<a href="/p/${n}">${n}</a>`).join('')),
  };
  for (let n = 0; n < pages; n++) routes[`/p/${n}`] = page('');
  const site = await startSite(routes);
  return { origin: site.origin, log, close: () => site.close() };
}

/**
 * Requests are spaced on a schedule: the k-th may start no earlier than k delays after the first.
 * `starts` are when the crawler sent each request, a moment after the schedule let it go: on a busy
 * machine the first may be sent late and the others look early beside it. `lateMs` (what
 * `measureLateness` saw) is that slack: a few ms on an idle machine, more on a loaded one, and still
 * far below the delays that requests sent without spacing would miss.
 */
function assertSpaced(starts: number[], delayMs: number, lateMs: number): void {
  assert.ok(starts.length > 1);
  starts.forEach((start, k) => {
    const since = start - starts[0]!;
    assert.ok(
      since >= k * delayMs - lateMs,
      `request ${k} sent ${since.toFixed(0)} ms after the first (at least ${k * delayMs} expected, ` +
        `${lateMs.toFixed(0)} ms allowed for a busy machine)`,
    );
  });
}

/**
 * Runs `work`, and says how late at most this process ran its timers and callbacks meanwhile
 * (the event loop's delay, in ms, plus 15 ms for the work between a scheduled start and the request).
 */
async function measureLateness<T>(work: () => Promise<T>): Promise<{ result: T; lateMs: number }> {
  const delays = monitorEventLoopDelay({ resolution: 5 });
  delays.enable();
  try {
    const result = await work();
    return { result, lateMs: 15 + delays.max / 1e6 };
  } finally {
    delays.disable();
  }
}

describe('politeness', () => {
  let http: HttpClient;
  before(() => {
    http = new HttpClient({ retries: 0 });
  });
  after(() => http.close());

  /** Crawls the site; `sent` receives the time the crawler sent each page request. */
  async function crawl(origin: string, options: { concurrency?: number; delayMs?: number }, sent: number[] = []) {
    const pages = httpPageFetcher(http);
    const fetcher = {
      fetch: (url: string) => {
        sent.push(performance.now());
        return pages.fetch(url);
      },
    };
    const store = await crawlRun({
      startUrl: `${origin}/`,
      fetcher,
      robots: robotsTxtPolicy(http, 'sitemapkit'),
      ...options,
    });
    return store.outcomeCounts().get('listed');
  }

  it('keeps at most --concurrency requests in flight, and uses them all', async () => {
    const site = await serveWideSite(24, 'User-agent: *\nDisallow:\n', 40);
    try {
      assert.equal(await crawl(site.origin, { concurrency: 3 }), 25);
      assert.equal(site.log.maxInFlight, 3);
    } finally {
      await site.close();
    }
  });

  it('spaces requests by robots.txt Crawl-delay for its user-agent', async () => {
    const site = await serveWideSite(
      4,
      'User-agent: sitemapkit\nCrawl-delay: 0.15\n\nUser-agent: *\nCrawl-delay: 5\n',
      0,
    );
    try {
      const sent: number[] = [];
      const { result, lateMs } = await measureLateness(() => crawl(site.origin, { concurrency: 4 }, sent));
      assert.equal(result, 5);
      assertSpaced(sent, 150, lateMs);
      assert.equal(site.log.starts.length, 5);
    } finally {
      await site.close();
    }
  });

  it('spends no Crawl-delay on a link robots.txt disallows: no request is made for it', async () => {
    // Home links to 4 pages, the first 3 disallowed: 2 requests, one delay apart. Had the
    // disallowed links spent a turn each, the second would come 4 delays after the first, or later.
    const site = await serveWideSite(
      4,
      'User-agent: *\nCrawl-delay: 0.4\nDisallow: /p/0\nDisallow: /p/1\nDisallow: /p/2\n',
      0,
    );
    try {
      const sent: number[] = [];
      const { result, lateMs } = await measureLateness(() => crawl(site.origin, { concurrency: 1 }, sent));
      assert.equal(result, 2);
      assert.equal(sent.length, 2);
      assertSpaced(sent, 400, lateMs);
      const gap = sent[1]! - sent[0]!;
      assert.ok(gap < 4 * 400, `the second request came ${gap.toFixed(0)} ms after the first`);
    } finally {
      await site.close();
    }
  });

  it('spaces requests by --delay when it is the longer', async () => {
    const site = await serveWideSite(3, 'User-agent: *\nCrawl-delay: 0.01\n', 0);
    try {
      const sent: number[] = [];
      const { result, lateMs } = await measureLateness(() =>
        crawl(site.origin, { concurrency: 4, delayMs: 120 }, sent),
      );
      assert.equal(result, 4);
      assertSpaced(sent, 120, lateMs);
      assert.equal(site.log.starts.length, 4);
    } finally {
      await site.close();
    }
  });
});
