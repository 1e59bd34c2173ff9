import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseCrawlUrl, normalisePercentEncoding, type StrippedUrl } from '../../src/crawl/normalise.js';
import { paramFilter } from '../../src/crawl/tracking-params.js';

describe('normaliseCrawlUrl', () => {
  const cases: [string, string | undefined, string][] = [
    ['HTTP://WWW.Example.COM:80/Path', undefined, 'http://www.example.com/Path'],
    ['https://example.com:443/a#section', undefined, 'https://example.com/a'],
    ['https://example.com:8443/a', undefined, 'https://example.com:8443/a'],
    ['https://example.com/%7euser/caf%c3%a9', undefined, 'https://example.com/~user/caf%C3%A9'],
    ['https://example.com/café', undefined, 'https://example.com/caf%C3%A9'],
    ['https://example.com/a%2fb', undefined, 'https://example.com/a%2Fb'],
    ['https://example.com/a?', undefined, 'https://example.com/a'],
    ['https://example.com/a?q=%41%2b', undefined, 'https://example.com/a?q=A%2B'],
    ['../b?x=1#top', 'https://example.com/dir/page', 'https://example.com/b?x=1'],
    ['https://example.com', undefined, 'https://example.com/'],
    ['https://example.com/a/%2e%2E/b/%2e/c', undefined, 'https://example.com/b/c'],
    ['https://example.com/a%3Fb?c=/d?e#f?g/h', undefined, 'https://example.com/a%3Fb?c=/d?e'],
    ['http://[::1]:8080/%7ex?', undefined, 'http://[::1]:8080/~x'],
    ['https://user:pw@Example.com/a', undefined, 'https://example.com/a'],
    ['#only-a-fragment', 'https://example.com/p?q=1', 'https://example.com/p?q=1'],
    ['?', 'https://example.com/p?q=1', 'https://example.com/p'],
  ];
  for (const [input, base, expected] of cases) {
    it(`${input} → ${expected}`, () => assert.equal(normaliseCrawlUrl(input, base), expected));
  }

  it('refuses what cannot be crawled', () => {
    for (const input of [
      'mailto:a@example.com',
      'javascript:void(0)',
      'ftp://example.com/',
      'http://',
      '',
      'https://exa mple.com/',
    ]) {
      assert.equal(normaliseCrawlUrl(input, 'https://example.com/'), undefined, input);
    }
  });

  it('removes the query parameters named by --strip-param globs, keeping the rest as written', () => {
    const strip = paramFilter({ strip: ['sessionid'] });
    assert.equal(
      normaliseCrawlUrl('https://e.com/a?utm_source=x&id=7&utm_medium=y', undefined, strip),
      'https://e.com/a?id=7',
    );
    assert.equal(
      normaliseCrawlUrl('https://e.com/a?utm_source=x&sessionid=1&fbclid=z', undefined, strip),
      'https://e.com/a',
    );
    assert.equal(
      normaliseCrawlUrl('https://e.com/a?q=a+b&utm%5Fterm=1&empty=', undefined, strip),
      'https://e.com/a?q=a+b&empty=',
    );
    assert.equal(normaliseCrawlUrl('https://e.com/a?utm=1', undefined, strip), 'https://e.com/a?utm=1');
  });

  it('removes the well-known tracking parameters by default, and keeps those named by --keep-param', () => {
    const url = 'https://e.com/shop/?utm_source=nl&gclid=1&FBCLID=2&msclkid=3&_ga=4&mc_eid=5&colour=red';
    assert.equal(normaliseCrawlUrl(url, undefined, paramFilter()), 'https://e.com/shop/?colour=red');
    assert.equal(
      normaliseCrawlUrl(url, undefined, paramFilter({ keep: ['utm_source', 'GCLID'] })),
      'https://e.com/shop/?utm_source=nl&gclid=1&colour=red',
    );
    assert.equal(normaliseCrawlUrl(url, undefined, paramFilter({ keep: ['*'] })), url);
  });

  it('tells which parameters it removed from which URL', () => {
    const told: StrippedUrl[] = [];
    const normalise = (href: string) => normaliseCrawlUrl(href, 'https://e.com/', paramFilter(), (s) => told.push(s));
    assert.equal(normalise('/shop/?utm_source=nl&utm_medium=mail#top'), 'https://e.com/shop/');
    assert.equal(normalise('/shop/?page=2'), 'https://e.com/shop/?page=2');
    assert.deepEqual(told, [
      {
        from: 'https://e.com/shop/?utm_source=nl&utm_medium=mail',
        to: 'https://e.com/shop/',
        names: ['utm_source', 'utm_medium'],
      },
    ]);
  });

  it('is idempotent', () => {
    for (const input of ['https://e.com/%7Ex/%e2%82%ac?a=%2f', 'https://E.com:443/a/../b/./c?x#y']) {
      const once = normaliseCrawlUrl(input)!;
      assert.equal(normaliseCrawlUrl(once), once);
    }
  });
});

describe('normalisePercentEncoding', () => {
  it('decodes unreserved characters and upper-cases the rest', () => {
    assert.equal(normalisePercentEncoding('%41%62%2d%2e%5f%7e%2f%3f%e2%82%ac'), 'Ab-._~%2F%3F%E2%82%AC');
  });
});
