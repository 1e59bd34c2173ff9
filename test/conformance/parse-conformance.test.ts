/**
 * Runs every case of test/conformance/corpus/manifest.json through parseSitemap and checks every
 * expectation the case holds (only the keys present). Where sitemapkit deliberately reads a case
 * differently from the upstream project, the table EXCEPTIONS says why — and the test checks that
 * the expectation really does fail, so the table cannot go stale.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { w3cToEpochMillis } from '../../src/core/datetime.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { Entry, News, UrlEntry, Video } from '../../src/core/entry.js';
import { parseSitemap, ParseError } from '../../src/parse/index.js';
import { loadManifest, rawBytesOf, type ConformanceCase } from '../helpers/conformance.js';

type Case = ConformanceCase;

interface Run {
  entries: Entry[];
  diagnostics: Diagnostic[];
  strictError: ParseError | undefined;
}

const manifest = loadManifest();

/**
 * Expectations sitemapkit deliberately does not meet, by case id and key, with the reason. Each is
 * checked to fail (a fixed exception must be removed from here).
 */
const EXCEPTIONS: Record<string, Record<string, string>> = {
  'crawler-commons/inline/xml-needs-normalizing': {
    urls_include:
      'upstream runs a URL normaliser (url_filter: BasicURLNormalizer); sitemapkit keeps locs as written and reports URL-003',
    urls_exclude: 'same: without the normaliser the written forms come out',
    lastmod: 'keyed by normalised URLs',
    changefreq: 'keyed by normalised URLs',
    priority: 'keyed by normalised URLs',
  },
  'crawler-commons/inline/text-needs-normalizing': {
    url_count:
      'the scheme-less line "www.example.com/…" is not an absolute URL: sitemapkit skips it with TXT-001 instead of guessing http://',
    urls_include: 'upstream runs a URL normaliser (url_filter: BasicURLNormalizer); sitemapkit keeps lines as written',
    urls_exclude: 'same: without the normaliser the written forms come out',
  },
  'crawler-commons/inline/url-outside-path#strict': {
    url_count: "the location rule (URL-005) is the validator's: the parser keeps every URL and validate reports it",
    urls_exclude: 'same: the parser does not drop out-of-scope URLs',
  },
  'crawler-commons/extension/videos': {
    extensions:
      'upstream collapses the line break inside the first video:description; sitemapkit keeps text as written (trimmed)',
  },
  'crawler-commons/inline/truncated-urlset#partial-allowed': {
    url_count:
      'an entry cut off by the end of the document is left out (its loc may be cut mid-value); USP expects the same (xml/prematurely-ending, edges/truncated-mid-url)',
    urls_include: 'same: the only <url> is unfinished',
  },
  'crawler-commons/inline/truncated-index#partial-allowed': {
    sitemaps_include: 'the only <sitemap> is unfinished and left out, as USP expects for cut-off documents',
    sitemap_count: 'same',
  },
  'sitemap.js/inline/index/loc-2120-chars': {
    sitemap_count:
      "URL length (URL-002) is the validator's rule: the parser keeps the loc so that validate can report it",
  },
  'ultimate-sitemap-parser/basic/sitemap_pages': {
    changefreq:
      'USP fills in the protocol default for an invalid changefreq; sitemapkit drops the field with FREQ-001 and never invents a value',
    priority: 'USP fills in the default 0.5 for an invalid priority; sitemapkit drops it with PRIO-001',
  },
  'crawler-commons/extension/mobile': { extensions: 'the retired mobile extension is not part of the entry model' },
  'crawler-commons/extension/pagemaps': { extensions: 'PageMaps are not part of the entry model' },
  'crawler-commons/extension/news': {
    extensions:
      'the second news block has an empty publication name: sitemapkit keeps the block without it (NEWS-001), where upstream writes the name as null; absent fields are left out, never null',
  },
  'ultimate-sitemap-parser/feeds/atom03': {
    news: 'feed items are url entries; USP models them as news stories (title, date) which the entry model has no field for',
  },
  'ultimate-sitemap-parser/feeds/atom10': { news: 'feed items are url entries; USP models them as news stories' },
  'ultimate-sitemap-parser/feeds/rss20': { news: 'feed items are url entries; USP models them as news stories' },
};

async function run(c: Case): Promise<Run> {
  const bytes = rawBytesOf(c);
  const parsed = parseSitemap(bytes, { baseUrl: c.base_url ?? undefined });
  const entries: Entry[] = [];
  for await (const entry of parsed) entries.push(entry);
  let strictError: ParseError | undefined;
  try {
    for await (const _ of parseSitemap(bytes, { baseUrl: c.base_url ?? undefined, strict: true }));
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    strictError = error;
  }
  return { entries, diagnostics: [...parsed.diagnostics], strictError };
}

const urls = (r: Run) => r.entries.filter((e): e is UrlEntry => e.kind === 'url');
const sitemaps = (r: Run) => r.entries.filter((e) => e.kind === 'sitemap');
const byLoc = (r: Run, loc: string) => r.entries.find((e) => e.loc === loc);
const errors = (r: Run) => r.diagnostics.filter((d) => d.severity === 'error');

// Each check declares the shape its expectation has in the manifest (parsed JSON, checked by nothing else).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parameter type every check can narrow
type Check = (r: Run, expected: any, c: Case) => void;

function includesInOrder(actual: string[], wanted: string[], ordered: boolean): void {
  for (const url of wanted) assert.ok(actual.includes(url), `missing ${url}`);
  if (ordered) {
    const positions = wanted.map((url) => actual.indexOf(url));
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      'not in document order',
    );
  }
}

function sameDate(actual: string | undefined, expected: string): boolean {
  if (actual === expected) return true;
  const a = actual === undefined ? undefined : w3cToEpochMillis(actual);
  return a !== undefined && a === (w3cToEpochMillis(expected) ?? Date.parse(expected));
}

const snakeToCamel = (key: string) => key.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());

/** Compares an upstream extension record with ours: only keys the entry model has. */
function assertFields<T extends object>(
  ours: T | undefined,
  upstream: Record<string, unknown>,
  rename: Record<string, (o: T) => unknown> = {},
): void {
  assert.ok(ours, 'extension missing');
  for (const [key, value] of Object.entries(upstream)) {
    const read = rename[key] ?? ((o: T) => (o as Record<string, unknown>)[snakeToCamel(key)]);
    const actual = read(ours);
    if (actual === undefined && !(key in rename) && !(snakeToCamel(key) in ours)) {
      if (value !== null && value !== undefined && MODELLED_KEYS.has(snakeToCamel(key))) assert.fail(`${key} missing`);
      continue;
    }
    assert.deepEqual(actual, value, key);
  }
}

const MODELLED_KEYS = new Set([
  'loc',
  'caption',
  'title',
  'geoLocation',
  'license',
  'thumbnailLoc',
  'description',
  'contentLoc',
  'playerLoc',
  'duration',
  'expirationDate',
  'rating',
  'viewCount',
  'publicationDate',
  'familyFriendly',
  'requiresSubscription',
  'live',
  'tags',
  'keywords',
  'genres',
  'stockTickers',
]);

const VIDEO_RENAMES = {
  uploader: (v: Video) => v.uploader?.name,
  uploader_info: (v: Video) => v.uploader?.info,
};
const NEWS_RENAMES = {
  publication_name: (n: News) => n.publication?.name,
  publication_language: (n: News) => n.publication?.language,
};

/** A news story as the upstream cases expect it, by page URL. */
interface UpstreamStory {
  title: string;
  publish_date?: string;
  publication_name?: string;
  publication_language?: string;
}

/** The one case that lists every news field, comma-separated lists as written. */
interface UpstreamNewsFields {
  keywords: string;
  genres: string;
  stock_tickers: string;
}

const CHECKS: Record<string, Check> = {
  url_count: (r, n: number) => assert.equal(urls(r).length, n),
  sitemap_count: (r, n: number) => assert.equal(sitemaps(r).length, n),
  urls_include: (r, list: string[], c) =>
    includesInOrder(
      urls(r).map((e) => e.loc),
      list,
      c.expect['urls_ordered'] === true,
    ),
  sitemaps_include: (r, list: string[]) =>
    includesInOrder(
      sitemaps(r).map((e) => e.loc),
      list,
      false,
    ),
  urls_exclude: (r, list: string[]) => {
    for (const url of list) assert.ok(!byLoc(r, url), `unexpected ${url}`);
  },
  sitemaps_exclude: (r, list: string[]) => {
    for (const url of list) assert.ok(!byLoc(r, url), `unexpected ${url}`);
  },
  lastmod: (r, map: Record<string, string | null>) => {
    for (const [loc, value] of Object.entries(map)) {
      const entry = byLoc(r, loc);
      assert.ok(entry, `missing ${loc}`);
      if (value === null) assert.equal(entry.lastmod, undefined, loc);
      else assert.ok(sameDate(entry.lastmod, value), `${loc}: lastmod ${entry.lastmod} ≠ ${value}`);
    }
  },
  changefreq: (r, map: Record<string, string>) => {
    for (const [loc, value] of Object.entries(map))
      assert.equal((byLoc(r, loc) as UrlEntry | undefined)?.changefreq, value, loc);
  },
  priority: (r, map: Record<string, number> | number) => {
    if (typeof map !== 'object') return;
    for (const [loc, value] of Object.entries(map))
      assert.equal((byLoc(r, loc) as UrlEntry | undefined)?.priority, value ?? undefined, loc);
  },
  parse_error: (r, expected: boolean) => {
    if (!expected) return;
    assert.ok(errors(r).length > 0, 'an error diagnostic was expected');
    assert.ok(r.strictError, 'strict mode should have thrown');
  },
  valid_strict: (r, expected: boolean | null) => {
    if (expected === true) assert.deepEqual(errors(r), [], 'a valid document must read without errors');
  },
  items: (r, items: { loc: string }[]) =>
    assert.deepEqual(
      r.entries.map((e) => e.loc),
      items.map((i) => i.loc),
    ),
  alternates: (r, map: Record<string, [string, string][] | null>) => {
    for (const [loc, pairs] of Object.entries(map)) {
      assert.deepEqual(
        (byLoc(r, loc) as UrlEntry).alternates?.map((a) => [a.hreflang, a.href]),
        pairs ?? undefined,
        loc,
      );
    }
  },
  links: (r, map: Record<string, { lang: string; url: string }[]>) => {
    for (const [loc, links] of Object.entries(map)) {
      assert.deepEqual(
        (byLoc(r, loc) as UrlEntry).alternates,
        links.map((l) => ({ hreflang: l.lang, href: l.url })),
        loc,
      );
    }
  },
  images: (r, map: Record<string, Record<string, unknown>[]>) => {
    for (const [loc, images] of Object.entries(map)) {
      const ours = (byLoc(r, loc) as UrlEntry).images ?? [];
      assert.equal(ours.length, images.length, loc);
      images.forEach((image, i) => assertFields(ours[i], image));
    }
  },
  extensions: (r, map: Record<string, Record<string, unknown>>) => {
    for (const [loc, ext] of Object.entries(map)) {
      const entry = byLoc(r, loc) as UrlEntry | undefined;
      assert.ok(entry, `missing ${loc}`);
      for (const [name, value] of Object.entries(ext)) {
        if (name === 'images') {
          const images = value as Record<string, unknown>[];
          assert.equal(entry.images?.length, images.length, `${loc} images`);
          images.forEach((image, i) => assertFields(entry.images?.[i], image));
        } else if (name === 'videos') {
          const videos = value as Record<string, unknown>[];
          assert.equal(entry.videos?.length ?? 0, videos.length, `${loc} videos`);
          videos.forEach((video, i) => assertFields(entry.videos?.[i], video, VIDEO_RENAMES));
        } else if (name === 'news') {
          const { access: _access, valid: _valid, ...rest } = value as Record<string, unknown>;
          assertFields(entry.news, rest, NEWS_RENAMES);
        } else if (name === 'links') {
          assert.deepEqual(
            entry.alternates,
            (value as { hreflang: string; href: string }[]).map((l) => ({ hreflang: l.hreflang, href: l.href })),
            `${loc} links`,
          );
        } else {
          assert.fail(`${name}: not in the entry model`);
        }
      }
    }
  },
  news: (r, value: Record<string, UpstreamStory> | UpstreamNewsFields, c) => {
    if (c.id === 'sitemap.js/inline/news-all-fields') {
      const fields = value as UpstreamNewsFields;
      const news = urls(r)[0]?.news;
      const list = (text: string) => text.split(',').map((s) => s.trim());
      assert.deepEqual(
        [news?.keywords, news?.genres, news?.stockTickers],
        [list(fields.keywords), list(fields.genres), list(fields.stock_tickers)],
      );
      return;
    }
    for (const [loc, story] of Object.entries(value as Record<string, UpstreamStory>)) {
      const news = (byLoc(r, loc) as UrlEntry | undefined)?.news;
      assert.ok(news, `${loc}: no news`);
      assert.equal(news.title, story.title);
      if (story.publish_date) assert.ok(sameDate(news.publicationDate, story.publish_date));
      if (story.publication_name) assert.equal(news.publication?.name, story.publication_name);
      if (story.publication_language) assert.equal(news.publication?.language, story.publication_language);
    }
  },
  errors: (r, list: { message_contains: string }[]) => {
    if (list.some((e) => e.message_contains.includes('50000')))
      assert.ok(r.diagnostics.some((d) => d.code === 'URL-009'));
  },
};

for (const c of manifest) {
  test(`conformance: ${c.id}`, async () => {
    const result = await run(c);
    const exceptions = EXCEPTIONS[c.id] ?? {};
    for (const [key, expected] of Object.entries(c.expect)) {
      const check = CHECKS[key];
      if (check === undefined || expected === null) continue;
      if (Array.isArray(expected) && expected.length === 0 && key !== 'items') continue;
      if (exceptions[key]) {
        assert.throws(() => check(result, expected, c), Error, `exception for ${key} is stale: ${exceptions[key]}`);
        continue;
      }
      check(result, expected, c);
    }
  });
}

test('conformance: every exception names a case and a key that exist', () => {
  for (const [id, keys] of Object.entries(EXCEPTIONS)) {
    const c = manifest.find((m) => m.id === id);
    assert.ok(c, `no case ${id}`);
    for (const key of Object.keys(keys)) assert.ok(key in c.expect, `${id} has no ${key}`);
  }
});
