/**
 * The check of one listed URL, a pure function of its listing and its live answer: the cases the
 * fixture site does not reach (Link headers, a noindex for another bot, conflicting canonicals,
 * the day of slack of lastmod-stale, hreflang compared without case), and the return-link check.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkListing, type CheckContext, type Listing } from '../../src/audit/check.js';
import { missingReturnLink } from '../../src/audit/cross-checks.js';
import type { AnsweredPage } from '../../src/audit/live-page.js';
import { noDirectives } from '../../src/html/directives.js';

const URL_A = 'https://www.example.com/a';
const CONTEXT: CheckContext = {
  now: Date.parse('2024-06-01T00:00:00Z'),
  httpsHosts: new Set(['example.com']),
  isListed: (url) => url === 'https://www.example.com/listed',
};

/** An answer; `head` is what its page says, or null for an answer without a page. */
function answer(
  fields: Partial<AnsweredPage> = {},
  head: Partial<NonNullable<AnsweredPage['page']>> | null = {},
): AnsweredPage {
  return {
    kind: 'answered',
    url: URL_A,
    status: 200,
    redirects: [],
    headers: { 'content-type': 'text/html' },
    fetchedAt: Date.parse('2024-06-01T00:00:00Z'),
    ...(head === null ? {} : { page: { directives: noDirectives(), canonicals: [], alternates: [], ...head } }),
    ...fields,
  };
}

const listing = (fields: Partial<Listing> = {}): Listing => ({
  url: URL_A,
  sitemap: 'https://www.example.com/s.xml',
  ...fields,
});

test('a clean page: indexable, no findings', () => {
  const checked = checkListing(listing({ lastmod: '2024-05-01' }), answer(), CONTEXT);
  assert.deepEqual(checked, { status: 200, contentType: 'text/html', indexable: true, findings: [], details: {} });
});

test('the Link header: a canonical elsewhere counts, canonicals that disagree say nothing', () => {
  const elsewhere = checkListing(
    listing(),
    answer({ headers: { link: '<https://www.example.com/b>; rel="canonical"' } }),
    CONTEXT,
  );
  assert.deepEqual(elsewhere.findings, ['canonical-elsewhere']);
  assert.equal(elsewhere.canonical, 'https://www.example.com/b');
  assert.equal(elsewhere.indexable, false);
  const conflicting = checkListing(
    listing(),
    answer({ headers: { link: '</c>; rel=canonical' } }, { canonicals: ['https://www.example.com/b'] }),
    CONTEXT,
  );
  assert.deepEqual(conflicting.findings, []);
  const self = checkListing(listing(), answer({}, { canonicals: [URL_A] }), CONTEXT);
  assert.deepEqual(self.findings, []);
});

test('X-Robots-Tag: for Googlebot or everyone it is noindex, for another bot it is not', () => {
  const header = (value: string) => checkListing(listing(), answer({ headers: { 'x-robots-tag': value } }), CONTEXT);
  assert.deepEqual(header('noindex, nofollow').findings, ['noindex']);
  assert.deepEqual(header('googlebot: none').findings, ['noindex']);
  assert.deepEqual(header('otherbot: noindex').findings, []);
});

test('lastmod-stale: more than a day after lastmod, by the page own date first, else Last-Modified', () => {
  const stale = (lastmod: string, fields: Partial<AnsweredPage>, modified?: string) =>
    checkListing(listing({ lastmod }), answer(fields, modified ? { modified } : {}), CONTEXT).findings;
  const lastModified = (date: string) => ({ headers: { 'content-type': 'text/html', 'last-modified': date } });
  assert.deepEqual(stale('2024-05-01', lastModified('Wed, 01 May 2024 23:00:00 GMT')), [], 'within the day of slack');
  assert.deepEqual(stale('2024-05-01', lastModified('Fri, 03 May 2024 01:00:00 GMT')), ['lastmod-stale']);
  assert.deepEqual(
    stale('2024-05-01', lastModified('Fri, 10 May 2024 01:00:00 GMT'), '2024-05-01T12:00:00+02:00'),
    [],
    "the page's own date wins over a later Last-Modified",
  );
  assert.deepEqual(
    stale('2024-05-01', {}, 'Tue, 14 May 2024 10:00:00 GMT'),
    ['lastmod-stale'],
    'a date as pages write it',
  );
  assert.deepEqual(stale('2024-05-01', {}, 'not a date'), []);
});

test('hreflang-mismatch compares languages without case; a page without links of its own is no mismatch', () => {
  const alternates = [
    { hreflang: 'en-GB', href: 'https://www.example.com/a' },
    { hreflang: 'de', href: 'https://www.example.com/de/a' },
  ];
  const live = [
    { hreflang: 'en-gb', href: 'https://www.example.com/a' },
    { hreflang: 'DE', href: 'https://www.example.com/de/a' },
  ];
  assert.deepEqual(checkListing(listing({ alternates }), answer({}, { alternates: live }), CONTEXT).findings, []);
  assert.deepEqual(checkListing(listing({ alternates }), answer(), CONTEXT).findings, []);
  const other = checkListing(listing({ alternates }), answer({}, { alternates: live.slice(0, 1) }), CONTEXT);
  assert.deepEqual(other.findings, ['hreflang-mismatch']);
  assert.match(other.details['hreflang-mismatch']!, /only in the sitemap: de → https:\/\/www\.example\.com\/de\/a/);
  assert.deepEqual(other.liveHreflang, live.slice(0, 1));
});

test('answers without a page: not HTML by its bytes, a 3xx with nowhere to go, no answer, and a URL that is none', () => {
  const gzip = checkListing(
    listing(),
    answer({ notHtml: 'served as text/html, but the body is gz data' }, null),
    CONTEXT,
  );
  assert.deepEqual(gzip.findings, ['not-html']);
  assert.match(gzip.details['not-html']!, /gz data/);
  assert.deepEqual(checkListing(listing(), answer({ status: 300 }, null), CONTEXT).findings, ['redirect']);
  const failed = checkListing(listing(), { kind: 'failed', message: 'connection refused', redirects: [] }, CONTEXT);
  assert.deepEqual([failed.findings, failed.indexable], [['unreachable'], false]);
  const broken = checkListing(
    listing({ url: '/relative' }),
    { kind: 'failed', message: 'not a URL', redirects: [] },
    CONTEXT,
  );
  assert.deepEqual(broken.findings, ['unreachable']);
});

test('http-on-https by host, www or not; a redirect says whether its target is listed', () => {
  const http = checkListing(
    listing({ url: 'http://example.com/a' }),
    answer({
      redirects: [{ from: 'http://example.com/a', to: 'https://www.example.com/listed', status: 301 }],
      url: 'https://www.example.com/listed',
    }),
    CONTEXT,
  );
  assert.deepEqual(http.findings, ['redirect', 'http-on-https']);
  assert.equal(http.targetListed, true);
  assert.equal(http.indexable, false);
  const elsewhere = checkListing(listing({ url: 'http://other.example/a' }), answer(), CONTEXT);
  assert.deepEqual(elsewhere.findings, []);
});

test('hreflang-no-return: a live page with links of its own that do not name the URL back', () => {
  const alternates = [
    { hreflang: 'en', href: URL_A },
    { hreflang: 'de', href: 'https://www.example.com/de/a' },
  ];
  const live = (links: unknown) => () => (links === undefined || links === null ? links : JSON.stringify(links));
  assert.match(
    missingReturnLink(URL_A, alternates, live([{ hreflang: 'fr', href: 'https://www.example.com/fr/a' }]))!,
    /de\/a declares 1 hreflang link, none back/,
  );
  assert.equal(missingReturnLink(URL_A, alternates, live([{ hreflang: 'en', href: URL_A }])), undefined);
  assert.equal(missingReturnLink(URL_A, alternates, live(null)), undefined, 'no links of its own');
  assert.equal(missingReturnLink(URL_A, alternates, live(undefined)), undefined, 'not checked');
});
