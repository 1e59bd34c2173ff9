/**
 * parse(generate(x)) = x: random entries with every extension and hostile characters are written
 * by the generator (src/generate) and read back by the parser, identical.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { News, UrlEntry, Video } from '../../src/core/entry.js';
import { serializeSitemapIndex, serializeUrlEntry, URLSET_CLOSE, urlsetOpen } from '../../src/generate/index.js';
import { parseAll } from './helpers.js';

/** fast-check builds records without a prototype; compare as plain data. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Text as it may appear in titles and captions: markup characters, quotes, CDATA ends, non-ASCII, inner whitespace. */
const hostileText = fc
  .string({
    unit: fc.constantFrom(
      'a',
      'Z',
      '&',
      '<',
      '>',
      '"',
      "'",
      ']]>',
      '&amp;',
      '<![CDATA[',
      ' ',
      '\n',
      '\t',
      'é',
      '日本',
      '😀',
      '\u00a0x',
      '%',
      ';',
      '#',
    ),
    minLength: 1,
    maxLength: 16,
  })
  .map((text) => text.trim())
  .filter((text) => text !== '');

const word = fc.stringMatching(/^[A-Za-z0-9:.&<>'"é-]{1,10}$/);
const url = fc
  .tuple(
    fc.constantFrom('https://example.com', 'http://www.example.org:8080', 'https://xn--bcher-kva.example'),
    fc.array(fc.constantFrom('a', 'b c', 'ü', '&', "'", '"', '<', '%41', '?', '=', '#x', '😀'), { maxLength: 6 }),
  )
  .map(([origin, parts]) => new URL(`${origin}/${parts.join('')}`).href);
const date = fc.constantFrom(
  '2024-05-01',
  '2024-05-01T10:00:00+02:00',
  '1999-12-31T23:59:59Z',
  '2024-02-29T00:00:00-05:00',
);

const video: fc.Arbitrary<Video> = fc
  .record(
    {
      thumbnailLoc: url,
      title: hostileText,
      description: hostileText,
      contentLoc: url,
      playerLoc: url,
      duration: fc.integer({ min: 1, max: 28_800 }),
      expirationDate: date,
      rating: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
      viewCount: fc.nat(),
      publicationDate: date,
      familyFriendly: fc.boolean(),
      restriction: fc.record({
        relationship: fc.constantFrom('allow' as const, 'deny' as const),
        countries: fc.uniqueArray(fc.constantFrom('IE', 'GB', 'US', 'CA', 'DE'), { minLength: 1 }),
      }),
      platform: fc.record({
        relationship: fc.constantFrom('allow' as const, 'deny' as const),
        platforms: fc.uniqueArray(fc.constantFrom('web' as const, 'mobile' as const, 'tv' as const), { minLength: 1 }),
      }),
      requiresSubscription: fc.boolean(),
      uploader: fc.record({ name: hostileText, info: url }, { requiredKeys: ['name'] }),
      live: fc.boolean(),
      tags: fc.array(hostileText, { minLength: 1, maxLength: 4 }),
    },
    { requiredKeys: ['thumbnailLoc', 'title', 'description'] },
  )
  .filter((v) => v.contentLoc !== undefined || v.playerLoc !== undefined);

const news: fc.Arbitrary<News> = fc.record(
  {
    publication: fc.record({ name: hostileText, language: fc.constantFrom('en', 'de', 'zh-cn') }),
    publicationDate: date,
    title: hostileText,
    keywords: fc.array(word, { minLength: 1, maxLength: 4 }),
    genres: fc.array(fc.constantFrom('PressRelease', 'Blog', 'OpEd'), { minLength: 1, maxLength: 3 }),
    stockTickers: fc.array(fc.constantFrom('NASDAQ:A', 'NYSE:B'), { minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: ['publication', 'publicationDate', 'title'] },
);

const urlEntry: fc.Arbitrary<UrlEntry> = fc.record(
  {
    kind: fc.constant('url' as const),
    loc: url,
    lastmod: date,
    changefreq: fc.constantFrom('always' as const, 'daily' as const, 'never' as const),
    priority: fc.integer({ min: 0, max: 10 }).map((n) => n / 10),
    images: fc.array(
      fc.record(
        { loc: url, caption: hostileText, title: hostileText, geoLocation: hostileText, license: url },
        { requiredKeys: ['loc'] },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    videos: fc.array(video, { minLength: 1, maxLength: 2 }),
    news,
    alternates: fc.array(fc.record({ hreflang: fc.constantFrom('de', 'en-GB', 'x-default', 'zh-Hant'), href: url }), {
      minLength: 1,
      maxLength: 3,
    }),
  },
  { requiredKeys: ['kind', 'loc'] },
);

test('round trip: urlset entries with every extension and hostile characters come back identical', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(urlEntry, { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      async (entries, declareOnRoot) => {
        const xml =
          urlsetOpen({ namespaces: declareOnRoot ? ['image', 'video', 'news', 'xhtml'] : [] }) +
          entries.map((e) => serializeUrlEntry(e, declareOnRoot ? 15 : 0)).join('') +
          URLSET_CLOSE;
        const result = await parseAll({ text: xml });
        assert.deepEqual(result.entries, plain(entries), xml);
        assert.deepEqual(
          result.diagnostics.filter((d) => d.code.startsWith('XML')),
          [],
          xml,
        );
      },
    ),
    { numRuns: 200 },
  );
});

test('round trip: sitemap index refs come back identical', async () => {
  const ref = fc.record(
    { kind: fc.constant('sitemap' as const), loc: url, lastmod: date },
    { requiredKeys: ['kind', 'loc'] },
  );
  await fc.assert(
    fc.asyncProperty(fc.array(ref, { minLength: 1, maxLength: 10 }), async (refs) => {
      const result = await parseAll({ text: serializeSitemapIndex(refs) });
      assert.deepEqual(result.entries, plain(refs));
    }),
    { numRuns: 100 },
  );
});
