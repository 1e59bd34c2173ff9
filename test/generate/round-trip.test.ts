/**
 * parse(generate(x)) gives back x (docs/architecture.md). Random entries (every field the writer knows,
 * text with XML specials and non-ASCII) are written by the generator and read back by the
 * project's parser.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Entry, UrlEntry } from '../../src/core/index.js';
import { createSitemapWriter, prepareEntry } from '../../src/generate/index.js';
import { parseSitemap } from '../../src/parse/index.js';
import { BASE_URL } from './entries.js';

const pathPart = fc.stringMatching(/^[a-z0-9\-._~!$&'()*+,;=:@]{1,12}$/).filter((part) => !/^\.+$/.test(part)); // no dot segments
const url = (prefix: string) =>
  fc.array(pathPart, { minLength: 1, maxLength: 3 }).map((parts) => `${prefix}${parts.join('/')}`);
const text = fc
  .string({
    unit: fc.constantFrom('a', 'Z', ' ', '&', '<', '>', '"', "'", 'ü', '—', '東', '😀'),
    minLength: 1,
    maxLength: 20,
  })
  .filter((value) => value.trim() === value && value !== '');
const day = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2030-12-31T00:00:00Z'),
  noInvalidDate: true,
});
const dateOnly = day.map((d) => d.toISOString().slice(0, 10));
const dateTime = fc
  .tuple(day, fc.constantFrom('Z', '+02:00', '-05:30'))
  .map(([d, zone]) => `${d.toISOString().slice(0, 19)}${zone}`);
const lastmod = fc.oneof(dateOnly, dateTime);

const image = fc.record(
  { loc: url('https://cdn.example.com/'), caption: text, title: text },
  { requiredKeys: ['loc'] },
);
const video = fc.record(
  {
    thumbnailLoc: url('https://cdn.example.com/t/'),
    title: text,
    description: text,
    contentLoc: url('https://cdn.example.com/v/'),
    duration: fc.integer({ min: 1, max: 28_800 }),
    publicationDate: lastmod,
    familyFriendly: fc.boolean(),
    tags: fc.array(text, { minLength: 1, maxLength: 3 }),
    uploader: fc.record({ name: text }),
  },
  { requiredKeys: ['thumbnailLoc', 'title', 'description', 'contentLoc'] },
);
const news = fc.record({
  publication: fc.record({ name: text, language: fc.constantFrom('en', 'de', 'zh-cn') }),
  publicationDate: lastmod,
  title: text,
});
const alternate = fc.record({
  hreflang: fc.constantFrom('en', 'de-AT', 'x-default', 'zh-Hant'),
  href: url(`${BASE_URL}alt/`),
});

const entry: fc.Arbitrary<UrlEntry> = fc
  .record(
    {
      kind: fc.constant('url' as const),
      loc: url(BASE_URL),
      lastmod,
      changefreq: fc.constantFrom('always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never' as const),
      priority: fc.integer({ min: 0, max: 10 }).map((n) => n / 10),
      images: fc.array(image, { minLength: 1, maxLength: 2 }),
      videos: fc.array(video, { minLength: 1, maxLength: 1 }),
      news,
      alternates: fc.array(alternate, { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: ['kind', 'loc'] },
  )
  // hreflang links name the URL itself too (HREF-003: the generator refuses a cluster without it).
  .map((e) => (e.alternates ? { ...e, alternates: [{ hreflang: 'fr', href: e.loc }, ...e.alternates] } : e))
  .map((e) => JSON.parse(JSON.stringify(e)) as UrlEntry); // plain objects, as from JSON

async function generate(entries: UrlEntry[]): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = createSitemapWriter(out);
  for (const e of entries) writer.write(e);
  await writer.end();
  return Buffer.concat(chunks);
}

test('parse(generate(entries)) gives the entries back', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(entry, { selector: (e) => e.loc, minLength: 1, maxLength: 5 }), async (entries) => {
      const prepared = entries.map((e) => {
        const result = prepareEntry(e, { baseUrl: BASE_URL, allowOtherHosts: true });
        assert.ok(result.ok, JSON.stringify(result));
        return result.entry;
      });
      assert.deepEqual(prepared, entries, 'generated values are already in normal form');
      const parsed: Entry[] = [];
      for await (const e of parseSitemap(await generate(prepared), { strict: true })) parsed.push(e);
      assert.deepEqual(parsed, entries);
    }),
    { numRuns: 150 },
  );
});
