import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addRobotsHeader, noDirectives } from '../../src/html/directives.js';
import { lastmodFromHeader } from '../../src/crawl/lastmod.js';
import { parseLinkHeader } from '../../src/crawl/link-header.js';

describe('X-Robots-Tag', () => {
  const read = (...values: string[]) => values.reduce(addRobotsHeader, noDirectives());
  it('reads general and bot-addressed directives, ignoring other bots and valued directives', () => {
    assert.deepEqual(read('noindex'), { noindex: true, nofollow: false });
    assert.deepEqual(read('googlebot: nofollow'), { noindex: false, nofollow: true });
    assert.deepEqual(read('otherbot: noindex, nofollow'), { noindex: false, nofollow: false });
    assert.deepEqual(read('unavailable_after: 25 Jun 2010 15:00:00 PST'), { noindex: false, nofollow: false });
    assert.deepEqual(read('max-snippet: 20, NOINDEX'), { noindex: true, nofollow: false });
  });
  it('combines several headers, the most restrictive winning', () => {
    assert.deepEqual(read('index', 'BingBot: none', 'follow'), { noindex: true, nofollow: true });
  });
});

describe('Link header', () => {
  it('reads canonical and hreflang alternates, commas inside URLs and quotes included', () => {
    assert.deepEqual(
      parseLinkHeader(
        '<https://e.com/a,b>; rel="canonical", </de/>; rel=alternate; hreflang="de-AT", <x>; rel="preload"; as="a, b"',
      ),
      [
        { target: 'https://e.com/a,b', rel: ['canonical'] },
        { target: '/de/', rel: ['alternate'], hreflang: 'de-AT' },
        { target: 'x', rel: ['preload'] },
      ],
    );
  });
  it('keeps the first of repeated parameters, splits rel lists and survives junk', () => {
    assert.deepEqual(parseLinkHeader('<a>; REL="Alternate Canonical"; rel=ignored; hreflang=fr'), [
      { target: 'a', rel: ['alternate', 'canonical'], hreflang: 'fr' },
    ]);
    assert.deepEqual(parseLinkHeader('garbage, <ok>; rel=canonical, <broken'), [{ target: 'ok', rel: ['canonical'] }]);
    assert.deepEqual(parseLinkHeader(''), []);
  });
});

describe('lastmod from Last-Modified', () => {
  const fetchedAt = Date.parse('2024-06-01T12:00:00Z');
  it('converts an IMF-fixdate (and the obsolete forms) to YYYY-MM-DDThh:mm:ssZ', () => {
    assert.equal(lastmodFromHeader('Wed, 01 May 2024 10:00:00 GMT', fetchedAt), '2024-05-01T10:00:00Z');
    assert.equal(lastmodFromHeader('Wednesday, 01-May-24 10:00:00 GMT', fetchedAt), '2024-05-01T10:00:00Z');
  });
  it('drops dates in the future, equal to the fetch time or to the Date header, and junk', () => {
    assert.equal(lastmodFromHeader('Sat, 01 Jun 2024 12:00:01 GMT', fetchedAt), undefined);
    assert.equal(lastmodFromHeader('Sat, 01 Jun 2024 12:00:00 GMT', fetchedAt + 400), undefined);
    assert.equal(
      lastmodFromHeader('Fri, 31 May 2024 08:00:00 GMT', fetchedAt, 'Fri, 31 May 2024 08:00:00 GMT'),
      undefined,
    );
    assert.equal(lastmodFromHeader('yesterday', fetchedAt), undefined);
    assert.equal(lastmodFromHeader('2024-05-01', fetchedAt), undefined);
    assert.equal(lastmodFromHeader(undefined, fetchedAt), undefined);
  });
});
