/**
 * Whatever the generator writes validates with zero errors: a rich set of entries (every
 * extension, hostile characters, IRIs) sharded into an index with gzip children and validated
 * recursively with strict scope, plus random entries from fast-check.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { UrlEntry } from '../../src/core/entry.js';
import { GenerateError, writeSitemaps } from '../../src/generate/index.js';
import { validateSources } from '../../src/validate/index.js';
import type { ValidationResult } from '../../src/validate/types.js';
import { describe } from './expect.js';

const BASE = 'https://www.example.com/sitemaps/';
const NOW = new Date('2024-05-02T12:00:00Z');

function richEntries(count: number): UrlEntry[] {
  return Array.from({ length: count }, (_, i): UrlEntry => {
    const loc = `${BASE}p/${i}?q=a&b="<'>"`;
    const entry: UrlEntry = {
      kind: 'url',
      loc,
      lastmod: `2024-0${(i % 4) + 1}-1${i % 10}`,
      changefreq: 'weekly',
      priority: (i % 10) / 10,
    };
    if (i % 3 === 0) entry.images = [{ loc: `${BASE}img/${i}.jpg` }];
    if (i % 5 === 0) {
      entry.videos = [
        {
          thumbnailLoc: `${BASE}t/${i}.jpg`,
          title: `Video <${i}> & "more"`,
          description: 'A description with ]]> and & inside',
          contentLoc: `${BASE}v/${i}.mp4`,
          duration: 60 + i,
          rating: 4.5,
          viewCount: i,
          familyFriendly: true,
          restriction: { relationship: 'allow', countries: ['DE', 'FR'] },
          platform: { relationship: 'deny', platforms: ['tv'] },
          uploader: { name: 'Grilly', info: `${BASE}users/grilly` },
          tags: ['a', 'b'],
          publicationDate: '2024-04-01T10:00:00+02:00',
        },
      ];
    }
    if (i % 7 === 0) {
      entry.news = {
        publication: { name: 'The Example Times', language: 'en' },
        publicationDate: '2024-05-02T08:00:00Z',
        title: `Story ${i} — ünïcödé`,
      };
    }
    if (i % 2 === 0 && i + 1 < count) {
      const pair = `${BASE}p/${i + 1}?q=a&b="<'>"`;
      entry.alternates = [
        { hreflang: 'en', href: loc },
        { hreflang: 'de', href: pair },
        { hreflang: 'x-default', href: loc },
      ];
    } else if (i % 2 === 1) {
      const pair = `${BASE}p/${i - 1}?q=a&b="<'>"`;
      entry.alternates = [
        { hreflang: 'en', href: pair },
        { hreflang: 'de', href: loc },
        { hreflang: 'x-default', href: pair },
      ];
    }
    return entry;
  });
}

async function writeAndValidate(
  entries: UrlEntry[],
  options: { maxUrls?: number; gzip?: boolean; format?: 'xml' | 'txt' },
): Promise<ValidationResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-generated-'));
  try {
    let summary;
    try {
      summary = await writeSitemaps(entries, { outDir: dir, baseUrl: BASE, ...options });
    } catch (error) {
      // The generator refuses to publish when it rejected every entry: nothing written, nothing to check.
      if (error instanceof GenerateError) return [];
      throw error;
    }
    const top = summary.index ?? summary.files[0]!;
    return await validateSources([join(dir, top.name)], {
      recursive: true,
      location: top.url,
      strictScope: true,
      now: NOW,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function assertNoErrors(results: ValidationResult[]): void {
  for (const result of results) {
    assert.equal(
      result.errors,
      0,
      `${result.source}:\n${describe(result.diagnostics.filter((d) => d.severity === 'error'))}`,
    );
  }
}

test('a sharded, gzipped generator output with every extension validates with zero errors', async () => {
  const results = await writeAndValidate(richEntries(60), { maxUrls: 25, gzip: true });
  assert.equal(results.length, 4, 'the index and its three shards');
  assert.equal(results[0]!.kind, 'sitemapindex');
  assert.equal(
    results.slice(1).reduce((sum, r) => sum + r.urls, 0),
    60,
  );
  assertNoErrors(results);
});

test('a text generator output validates with zero errors', async () => {
  const results = await writeAndValidate(richEntries(10), { format: 'txt' });
  assert.deepEqual(
    results.map((r) => r.kind),
    ['sitemapindex', 'text'],
    'text sitemaps are listed by an index, even one alone',
  );
  assertNoErrors(results);
});

const segment = fc.stringMatching(/^[a-zA-Z0-9._~\- &<>"'ü%]{1,12}$/);
const randomEntry = fc.record({
  path: fc.array(segment, { minLength: 1, maxLength: 3 }),
  lastmod: fc.option(fc.date({ min: new Date('2000-01-01'), max: new Date('2024-05-01'), noInvalidDate: true }), {
    nil: undefined,
  }),
  priority: fc.option(
    fc.integer({ min: 0, max: 10 }).map((n) => n / 10),
    { nil: undefined },
  ),
  images: fc.array(segment, { maxLength: 3 }),
  title: fc.string({ minLength: 1, maxLength: 80 }).filter((title) => title.trim() !== ''),
});

test('random entries (fast-check): what the generator writes has no errors', async () => {
  let written = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(randomEntry, { minLength: 1, maxLength: 30 }), async (records) => {
      const entries = records.map((r): UrlEntry => ({
        kind: 'url',
        loc: `${BASE}${r.path.join('/')}`,
        ...(r.lastmod ? { lastmod: r.lastmod.toISOString() } : {}),
        ...(r.priority === undefined ? {} : { priority: r.priority }),
        ...(r.images.length ? { images: r.images.map((name) => ({ loc: `${BASE}img/${name}.png` })) } : {}),
        videos: [
          {
            thumbnailLoc: `${BASE}t.jpg`,
            title: r.title.trim() || 'x',
            description: r.title,
            playerLoc: `${BASE}player?v=1`,
          },
        ],
      }));
      const results = await writeAndValidate(entries, { maxUrls: 7 });
      if (results.length > 0) written++;
      assertNoErrors(results);
    }),
    { numRuns: 12 },
  );
  assert.ok(written > 0, 'some runs wrote sitemaps');
});
