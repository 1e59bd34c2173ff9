import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CrawlStore } from '../../src/store/crawl-store.js';
import { siteDatabasePath } from '../../src/store/site-database.js';

const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('CrawlStore', () => {
  it('queues each URL once, in the order met, and hands the queue out after a cursor', () => {
    const store = new CrawlStore(':memory:');
    assert.equal(
      store.enqueue([
        { url: 'https://e.com/', depth: 0 },
        { url: 'https://e.com/a', depth: 1 },
        { url: 'https://e.com/', depth: 3 },
      ]),
      2,
    );
    const first = store.nextQueued(0, 10);
    assert.deepEqual(
      first.map((q) => [q.url, q.depth]),
      [
        ['https://e.com/', 0],
        ['https://e.com/a', 1],
      ],
    );
    assert.deepEqual(
      store.nextQueued(first[0]!.seq, 10).map((q) => q.url),
      ['https://e.com/a'],
    );
    assert.equal(store.queuedCount(), 2);
    store.close();
  });

  it('records a finished page with the URLs it led to, and settles out-of-scope ones at once', () => {
    const store = new CrawlStore(':memory:');
    store.enqueue([{ url: 'https://e.com/', depth: 0 }]);
    const queued = store.finish(
      {
        url: 'https://e.com/',
        outcome: 'listed',
        fetched: true,
        entry: { kind: 'url', loc: 'https://e.com/', lastmod: '2024-01-01' },
      },
      [
        { url: 'https://e.com/b', depth: 1 },
        { url: 'https://other.com/', depth: 1, outcome: 'out-of-scope', detail: 'not on https://e.com' },
        { url: 'https://e.com/', depth: 1 },
      ],
    );
    assert.equal(queued, 1);
    assert.deepEqual(
      [...store.outcomes()],
      [
        { url: 'https://e.com/', outcome: 'listed', detail: null },
        { url: 'https://e.com/b', outcome: null, detail: null },
        { url: 'https://other.com/', outcome: 'out-of-scope', detail: 'not on https://e.com' },
      ],
    );
    assert.equal(store.fetchedCount(), 1);
    assert.deepEqual([...store.listedEntries()], [{ kind: 'url', loc: 'https://e.com/', lastmod: '2024-01-01' }]);
    store.close();
  });

  it('settles URLs met only beyond the depth limit, unless a shallower path queued them', () => {
    const store = new CrawlStore(':memory:');
    store.enqueue([{ url: 'https://e.com/', depth: 0 }]);
    store.finish(
      { url: 'https://e.com/', outcome: 'listed', fetched: true, entry: { kind: 'url', loc: 'https://e.com/' } },
      [
        { url: 'https://e.com/deep', depth: 3, beyondDepth: true },
        { url: 'https://e.com/both', depth: 3, beyondDepth: true },
        { url: 'https://e.com/both', depth: 1 },
      ],
    );
    store.settleRemaining({ outcome: 'max-pages', detail: 'limit' }, { outcome: 'max-depth', detail: 'too deep' });
    assert.deepEqual(Object.fromEntries([...store.outcomes()].map((row) => [row.url, row.outcome])), {
      'https://e.com/': 'listed',
      'https://e.com/both': 'max-pages',
      'https://e.com/deep': 'max-depth',
    });
    assert.deepEqual(
      store.outcomeCounts(),
      new Map([
        ['listed', 1],
        ['max-pages', 1],
        ['max-depth', 1],
      ]),
    );
    assert.deepEqual(store.examples('max-depth', 5), [{ url: 'https://e.com/deep', detail: 'too deep' }]);
    store.close();
  });

  it('keeps its state across reopening, and forgets it when opened fresh', () => {
    const file = join(dir, 'state', 'site.sqlite');
    const store = new CrawlStore(file);
    store.enqueue([
      { url: 'https://e.com/', depth: 0 },
      { url: 'https://e.com/a', depth: 1 },
    ]);
    store.finish({
      url: 'https://e.com/',
      outcome: 'listed',
      fetched: true,
      entry: { kind: 'url', loc: 'https://e.com/' },
    });
    store.setMeta('start-url', 'https://e.com/');
    store.close();

    const reopened = new CrawlStore(file);
    assert.equal(reopened.getMeta('start-url'), 'https://e.com/');
    assert.deepEqual(
      reopened.nextQueued(0, 10).map((q) => q.url),
      ['https://e.com/a'],
    );
    reopened.close();

    const fresh = new CrawlStore(file, { fresh: true });
    assert.equal(fresh.getMeta('start-url'), undefined);
    assert.equal(fresh.queuedCount(), 0);
    fresh.close();
  });

  it('reads every left-out URL back with the page it was found on, in the order met', () => {
    const store = new CrawlStore(':memory:');
    store.enqueue([{ url: 'https://e.com/', depth: 0 }]);
    const home = store.nextQueued(0, 1)[0]!;
    store.finish({ url: home.url, outcome: 'listed', fetched: true, entry: { kind: 'url', loc: home.url } }, [
      { url: 'https://e.com/gone', depth: 1, chain: 0, foundOn: home.seq },
      { url: 'https://x.com/', depth: 1, foundOn: home.seq, outcome: 'out-of-scope', detail: 'not on https://e.com' },
      { url: 'https://e.com/deep', depth: 9, foundOn: home.seq, beyondDepth: true },
    ]);
    store.finish({ url: 'https://e.com/gone', outcome: 'http-error', detail: 'HTTP 404', fetched: true });
    store.settleRemaining(
      { outcome: 'max-pages', detail: 'not fetched' },
      { outcome: 'max-depth', detail: 'too deep' },
    );
    assert.deepEqual(
      [...store.leftOut()],
      [
        { url: 'https://e.com/gone', outcome: 'http-error', detail: 'HTTP 404', foundOn: 'https://e.com/' },
        { url: 'https://x.com/', outcome: 'out-of-scope', detail: 'not on https://e.com', foundOn: 'https://e.com/' },
        { url: 'https://e.com/deep', outcome: 'max-depth', detail: 'too deep', foundOn: 'https://e.com/' },
      ],
    );
    store.close();
  });

  it('hands out the failures marked to be tried again, and forgets the mark once they are', () => {
    const store = new CrawlStore(':memory:');
    store.enqueue(['/a', '/b', '/c'].map((path) => ({ url: `https://e.com${path}`, depth: 1, chain: 2 })));
    store.finish({ url: 'https://e.com/a', outcome: 'server-error', detail: 'HTTP 503', fetched: true, retry: true });
    store.finish({ url: 'https://e.com/b', outcome: 'http-error', detail: 'HTTP 404', fetched: true });
    store.finish({ url: 'https://e.com/c', outcome: 'fetch-error', detail: 'reset', fetched: true, retry: true });
    assert.deepEqual(
      store.nextRetry(0, 10).map(({ url, depth, chain }) => [url, depth, chain]),
      [
        ['https://e.com/a', 1, 2],
        ['https://e.com/c', 1, 2],
      ],
    );
    store.finish({
      url: 'https://e.com/a',
      outcome: 'listed',
      fetched: true,
      entry: { kind: 'url', loc: 'https://e.com/a' },
    });
    assert.deepEqual(
      store.nextRetry(0, 10).map((row) => row.url),
      ['https://e.com/c'],
    );
    store.close();
  });

  it('records the parameters stripped from each URL once, name by name', () => {
    const store = new CrawlStore(':memory:');
    const shop = {
      from: 'https://e.com/shop?utm_source=nl&gclid=1',
      to: 'https://e.com/shop',
      names: ['utm_source', 'gclid'],
    };
    store.recordStripped(shop);
    store.recordStripped(shop);
    store.recordStripped({ from: 'https://e.com/?utm_source=x', to: 'https://e.com/', names: ['utm_source'] });
    assert.deepEqual(
      [...store.stripped()],
      [
        { from: shop.from, to: shop.to, name: 'utm_source' },
        { from: shop.from, to: shop.to, name: 'gclid' },
        { from: 'https://e.com/?utm_source=x', to: 'https://e.com/', name: 'utm_source' },
      ],
    );
    store.close();
  });

  it('counts the query variants fetched by path, for a resumed crawl', () => {
    const store = new CrawlStore(':memory:');
    store.enqueue(['/s?q=1', '/s?q=2', '/t?x', '/s'].map((path) => ({ url: `https://e.com${path}`, depth: 1 })));
    for (const path of ['/s?q=1', '/s?q=2', '/t?x', '/s'])
      store.finish({ url: `https://e.com${path}`, outcome: 'listed', fetched: true });
    assert.deepEqual(
      store.queryVariantCounts(),
      new Map([
        ['https://e.com/s', 2],
        ['https://e.com/t', 1],
      ]),
    );
    store.close();
  });

  it('refuses to resume from a state file of another layout, and starts afresh when told to', () => {
    const file = join(dir, 'old', 'site.sqlite');
    mkdirSync(dirname(file), { recursive: true });
    const old = new Database(file);
    old.exec('CREATE TABLE crawl_urls (seq INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, depth INTEGER NOT NULL)');
    old.close();
    assert.throws(
      () => new CrawlStore(file),
      /holds tables that are not the crawl state of any version this sitemapkit knows .*: crawl again without --resume/,
    );
    const fresh = new CrawlStore(file, { fresh: true });
    assert.equal(fresh.queuedCount(), 0);
    fresh.close();
  });

  it('lists entries in URL order whatever the order of finishing', () => {
    const store = new CrawlStore(':memory:');
    const urls = ['https://e.com/c', 'https://e.com/a', 'https://e.com/b'];
    store.enqueue(urls.map((url) => ({ url, depth: 0 })));
    for (const url of urls) store.finish({ url, outcome: 'listed', fetched: true, entry: { kind: 'url', loc: url } });
    assert.deepEqual(
      [...store.listedEntries()].map((e) => e.loc),
      ['https://e.com/a', 'https://e.com/b', 'https://e.com/c'],
    );
    store.close();
  });
});

describe('siteDatabasePath', () => {
  it('names one database per scheme, host and port', () => {
    assert.equal(
      siteDatabasePath('.sitemapkit', 'https://Example.com/x'),
      join('.sitemapkit', 'crawl-https-example.com.sqlite'),
    );
    assert.equal(
      siteDatabasePath('/tmp/s', 'http://127.0.0.1:8080/'),
      join('/tmp/s', 'crawl-http-127.0.0.1-8080.sqlite'),
    );
    assert.equal(siteDatabasePath('s', 'http://[::1]:81/'), join('s', 'crawl-http-___1_-81.sqlite'));
  });
});

describe('CrawlStore listed entries and images', () => {
  it('leaves out of every listed entry the image that stands on most pages (the site logo)', () => {
    const store = new CrawlStore(':memory:');
    const urls = ['https://e.com/', 'https://e.com/a', 'https://e.com/b', 'https://e.com/c'];
    store.enqueue(urls.map((url) => ({ url, depth: 0 })));
    for (const [n, url] of urls.entries()) {
      store.finish(
        {
          url,
          outcome: 'listed',
          fetched: true,
          entry: {
            kind: 'url',
            loc: url,
            images: [{ loc: 'https://e.com/logo.png' }, ...(n === 1 ? [{ loc: 'https://e.com/a.jpg' }] : [])],
          },
        },
        [],
      );
    }
    assert.deepEqual(
      [...store.listedEntries()],
      [
        { kind: 'url', loc: 'https://e.com/' },
        { kind: 'url', loc: 'https://e.com/a', images: [{ loc: 'https://e.com/a.jpg' }] },
        { kind: 'url', loc: 'https://e.com/b' },
        { kind: 'url', loc: 'https://e.com/c' },
      ],
    );
    store.close();
  });
});
