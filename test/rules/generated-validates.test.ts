/**
 * Whatever generate writes, validate reports with zero errors, and the official schemas accept:
 * arbitrary entries (every extension, good values mixed with the bad ones people write) go
 * through writeSitemaps into a temporary folder, sharded, as XML or text, gzipped or not, and
 * the result is validated as published, recursively from its entry point, and checked against
 * the XSDs.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { UrlEntry } from '../../src/core/index.js';
import { writeSitemaps } from '../../src/generate/index.js';
import { validateSources } from '../../src/validate/index.js';
import { validateManyAgainstXsd } from '../helpers/xsd.js';
import { NOW } from './cases.js';
import { SITE } from './document.js';

const BASE = `${SITE}/`;

/** Good values and the mistakes the rule cases name, side by side. */
const path = fc.stringMatching(/^[a-z0-9\-._~]{1,8}$/).filter((part) => !/^\.+$/.test(part));
const pageUrl = fc.oneof(
  path.map((p) => `${BASE}${p}`),
  path.map((p) => `/${p}`),
  path.map((p) => `${BASE}${p}#top`),
  path.map((p) => `${BASE}${p}?sid=1`),
  path.map((p) => `${BASE}${p} ü`),
  path.map((p) => `https://other.example.org/${p}`),
  fc.constant('ftp://www.example.com/x'),
);
const extensionUrl = fc.oneof(
  path.map((p) => `${BASE}${p}.jpg`),
  path.map((p) => `https://cdn.example.net/${p}.mp4`),
  path.map((p) => `/${p}.jpg`),
  fc.constantFrom('None', 'Free License', 'mailto:a@example.com'),
);
const text = fc.string({
  unit: fc.constantFrom('a', 'Z', ' ', '&', '<', '"', 'ü', '東', '😀'),
  minLength: 0,
  maxLength: 12,
});
const date = fc.constantFrom(
  '2024-05-01',
  '2024-05-02T10:00:00+02:00',
  '2024-05',
  '2024',
  '2024-05-01T10:00Z',
  '2024-04-01T10:00:59.123Z',
  '2099-01-01',
  '21/05/2024',
  '2023-02-29',
  '2024-05-01T10:00',
);
const number = fc.oneof(
  fc.integer({ min: -5, max: 30_000 }),
  fc.double({ min: -1, max: 10, noNaN: true }),
  fc.constantFrom('two', '1.5', ''),
);
const yesNo = fc.constantFrom(true, false, 'yes', 'NO', 'maybe');
const countries = fc.array(fc.constantFrom('GB', 'us', 'DE', 'ZZ', 'UK', 'USA'), { maxLength: 3 });

const image = fc.record({ loc: extensionUrl, caption: text, title: text, license: extensionUrl }, { requiredKeys: [] });
/** A video that is all right, so that some reach the output; `anyVideo` mixes in every mistake. */
const goodVideo = fc.record({
  thumbnailLoc: path.map((p) => `${BASE}${p}.jpg`),
  title: text.filter((t) => t.trim() !== ''),
  description: text.filter((t) => t.trim() !== ''),
  contentLoc: path.map((p) => `https://cdn.example.net/${p}.mp4`),
  duration: fc.integer({ min: 1, max: 28_800 }),
});
const anyVideo = fc.record(
  {
    thumbnailLoc: extensionUrl,
    title: text,
    description: fc.oneof(text, fc.constant('d'.repeat(2049))),
    contentLoc: fc.oneof(extensionUrl, fc.constant(`${BASE}watch.html`)),
    playerLoc: extensionUrl,
    duration: number,
    rating: number,
    viewCount: number,
    publicationDate: date,
    expirationDate: date,
    familyFriendly: yesNo,
    live: yesNo,
    restriction: fc.record(
      { relationship: fc.constantFrom('allow', 'deny', 'maybe'), countries },
      { requiredKeys: ['countries'] },
    ),
    platform: fc.record({
      relationship: fc.constantFrom('allow', 'deny'),
      platforms: fc.array(fc.constantFrom('web', 'tv', 'phone'), { maxLength: 3 }),
    }),
    uploader: fc.record(
      { name: text, info: fc.oneof(extensionUrl, fc.constant('https://other.example.org/u')) },
      { requiredKeys: ['name'] },
    ),
    tags: fc.array(text, { maxLength: 34 }),
  },
  { requiredKeys: [] },
);
const news = fc.record(
  {
    publication: fc.record(
      { name: text, language: fc.constantFrom('en', 'EN', 'zh-cn', 'haw', 'qq', 'english') },
      { requiredKeys: [] },
    ),
    publicationDate: date,
    title: fc.oneof(text, fc.constant('Example Times: 2024-05-01')),
    keywords: fc.array(text, { maxLength: 2 }),
    genres: fc.array(fc.constantFrom('Blog', 'OpEd', 'Gossip'), { maxLength: 2 }),
    stockTickers: fc.array(fc.constantFrom('NASDAQ:A', 'bad ticker'), { maxLength: 6 }),
  },
  { requiredKeys: [] },
);
const alternate = fc.record(
  {
    hreflang: fc.constantFrom('en', 'de-AT', 'x-default', 'zh-Hant-TW', 'xx-ZZ', 'en-UK', 'es-419', 'GB'),
    href: fc.oneof(pageUrl, fc.constant('None')),
  },
  { requiredKeys: [] },
);
const entry = fc
  .record(
    {
      loc: pageUrl,
      lastmod: date,
      changefreq: fc.constantFrom('daily', 'Weekly', 'fortnightly'),
      priority: fc.oneof(number, fc.constantFrom('0.5', '80%', '0,5')),
      images: fc.array(image, { maxLength: 3 }),
      videos: fc.array(fc.oneof(goodVideo, anyVideo), { maxLength: 2 }),
      news,
      alternates: fc.array(alternate, { maxLength: 3 }),
    },
    { requiredKeys: ['loc'] },
  )
  // Half of the clusters name their own page, as most real ones do.
  .chain((e) =>
    fc
      .boolean()
      .map((self) =>
        self && e.alternates ? { ...e, alternates: [{ hreflang: 'fr', href: e.loc }, ...e.alternates] } : e,
      ),
  );

/** Documents written by the property's runs, checked against the schemas in one xmllint run each. */
const written = { shards: [] as XmlFile[], indexes: [] as XmlFile[] };
interface XmlFile {
  fileName: string;
  contents: string;
  /** The entries that produced it, to name a failure. */
  input: string;
}

test('whatever generate writes, validate reports with zero errors and the official schemas accept', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(entry, { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 2, max: 8 }),
      // Every form of output: XML or text shards, gzipped or not, the index too.
      fc.record({ format: fc.constantFrom('xml', 'txt'), gzip: fc.boolean(), gzipIndex: fc.boolean() }),
      async (entries, maxUrls, output) => {
        const outDir = await mkdtemp(join(tmpdir(), 'sitemapkit-rules-'));
        run++;
        try {
          // One plain URL, so that some file is always written; the rest as loosely typed as JSON input.
          const input = [{ loc: `${BASE}home` }, ...entries] as unknown as UrlEntry[];
          const summary = await writeSitemaps(input, { outDir, baseUrl: BASE, now: NOW, maxUrls, ...output });
          const entryPoint = summary.index ?? summary.files[0]!;
          const results = await validateSources([join(outDir, entryPoint.name)], {
            location: entryPoint.url,
            recursive: true,
            now: NOW,
          });
          assert.equal(results.length, summary.files.length + (summary.index ? 1 : 0), 'every file was read');
          for (const result of results) {
            const errors = result.diagnostics.filter((d) => d.severity === 'error');
            assert.deepEqual(errors, [], `${result.source}: ${errors.map((d) => `${d.code} ${d.message}`).join('\n')}`);
          }
          const read = async (name: string): Promise<XmlFile> => {
            const bytes = await readFile(join(outDir, name));
            return {
              fileName: `run-${run}-${name.replace(/\.gz$/, '')}`,
              contents: (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'),
              input: JSON.stringify(input),
            };
          };
          // Text shards have no schema; the XML ones and every index do.
          if (output.format === 'xml')
            written.shards.push(...(await Promise.all(summary.files.map((file) => read(file.name)))));
          if (summary.index) written.indexes.push(await read(summary.index.name));
        } finally {
          await rm(outDir, { recursive: true, force: true });
        }
      },
    ),
    { numRuns: 60, includeErrorInReport: true },
  );
  for (const [files, schema] of [
    [written.shards, 'extensions'],
    [written.indexes, 'siteindex'],
  ] as const) {
    if (files.length === 0) continue;
    for (const [name, result] of await validateManyAgainstXsd(files, schema)) {
      const file = files.find((f) => f.fileName === name)!;
      assert.deepEqual(result.errors, [], `${name} fails the ${schema} schema; written from ${file.input}`);
    }
  }
  assert.ok(written.shards.length >= 20 && written.indexes.length >= 20, 'the runs wrote XML shards and indexes');
  const all = written.shards.map((file) => file.contents).join('');
  for (const tag of ['<image:image>', '<video:video>', '<news:news>', '<xhtml:link ', '<lastmod>', '<priority>'])
    assert.ok(all.includes(tag), `the runs wrote some ${tag}: the property is not vacuous`);
});
