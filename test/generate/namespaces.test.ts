/**
 * A urlset declares the extension namespaces its entries use, no more: a plain sitemap names the
 * sitemap namespace alone. The root is decided when a shard's first chunk is written; an
 * extension first met after that is declared on its own <url>, so every file stays valid against
 * the schemas and reads back as written.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import { writeSitemaps } from '../../src/generate/index.js';
import { parseSitemap } from '../../src/parse/index.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { BASE_URL, plainEntries } from './entries.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-namespaces-'));
after(() => rm(scratch, { recursive: true, force: true }));
let runs = 0;

async function written(entries: Iterable<UrlEntry>, maxUrls?: number): Promise<string[]> {
  const outDir = join(scratch, `run-${++runs}`);
  const summary = await writeSitemaps(entries, { outDir, baseUrl: BASE_URL, ...(maxUrls ? { maxUrls } : {}) });
  return Promise.all(summary.files.map((file) => readFile(join(outDir, file.name), 'utf8')));
}

const rootOf = (xml: string) => /<urlset[^>]*>/.exec(xml)![0];
const withImage = (entry: UrlEntry): UrlEntry => ({ ...entry, images: [{ loc: `${entry.loc}.jpg` }] });

test('a plain urlset declares the sitemap namespace alone', async () => {
  const [xml] = await written(plainEntries(3));
  assert.equal(rootOf(xml!), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  assert.deepEqual((await validateAgainstXsd(xml!, 'sitemap')).errors, []);
});

test('each shard declares what its own entries use', async () => {
  const entries = [...plainEntries(4)];
  // Shard 1: plain; shard 2: images and an alternate.
  entries[2] = withImage(entries[2]!);
  entries[3] = {
    ...entries[3]!,
    alternates: [
      { hreflang: 'en', href: entries[3]!.loc },
      { hreflang: 'de', href: entries[3]!.loc },
    ],
  };
  const [plain, extended] = await written(entries, 2);
  assert.equal(rootOf(plain!), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  assert.equal(
    rootOf(extended!),
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  );
  assert.doesNotMatch(extended!, /<url xmlns/);
});

test('an extension first met past the first chunk is declared on its <url>: valid, and read back whole', async () => {
  // About 100 bytes an entry: the first chunk (64 Ki characters) is written long before entry 2,000.
  const entries = [...plainEntries(3_000)];
  entries[2_500] = withImage(entries[2_500]!);
  const [xml] = await written(entries);
  assert.equal(rootOf(xml!), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  assert.equal(xml!.match(/<url xmlns:image="http:\/\/www\.google\.com\/schemas\/sitemap-image\/1\.1">/g)?.length, 1);
  assert.deepEqual((await validateAgainstXsd(xml!, 'extensions')).errors, []);
  const read: UrlEntry[] = [];
  for await (const entry of parseSitemap({ text: xml! })) if (entry.kind === 'url') read.push(entry);
  assert.deepEqual(read, entries);
});
