/**
 * The audit's book of listed URLs (audit/listings.ts): the first listing of each URL kept, its
 * repeats once per place, the --max-urls sample by smallest key, and all of it in a scratch file,
 * not the heap: an audit may list millions of URLs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ListingBook, type NewListing } from '../../src/audit/listings.js';

const listing = (n: number, extra: Partial<NewListing> = {}): NewListing => ({
  url: `https://www.example.com/page/${n}`,
  sitemap: `https://www.example.com/sitemap-${n % 3}.xml`,
  line: n + 2,
  sampleKey: (n * 7919) % 1000,
  ...extra,
});

const scratchFolders = (directory: string) =>
  readdirSync(directory).filter((name) => name.startsWith('sitemapkit-listings-'));

test('keeps the first listing of a URL and its repeats once per place', () => {
  const book = new ListingBook();
  try {
    const alternates = JSON.stringify([{ hreflang: 'de', href: 'https://www.example.com/de/page/1' }]);
    assert.equal(book.addListings([listing(1, { lastmod: '2024-05-01', alternates }), listing(2)]), 2);
    assert.equal(book.addListings([listing(1, { sitemap: 'https://www.example.com/other.xml' }), listing(3)]), 1);
    book.addRepeat(listing(1).url, { sitemap: 'https://www.example.com/other.xml', line: 9, detail: 'listed twice' });
    book.addRepeat(listing(1).url, { sitemap: 'https://www.example.com/other.xml', line: 9, detail: 'listed twice' });
    book.addRepeat(listing(1).url, { sitemap: 'https://www.example.com/text.txt', line: null, detail: 'twin' });
    book.addRepeat(listing(1).url, { sitemap: 'https://www.example.com/text.txt', line: null, detail: 'twin' });
    assert.equal(book.listedCount, 3);
    assert.equal(book.hasAlternates, true);
    assert.deepEqual(
      [...book.sample()],
      [
        {
          url: 'https://www.example.com/page/1',
          sitemap: 'https://www.example.com/sitemap-1.xml',
          line: 3,
          lastmod: '2024-05-01',
          alternates: [{ hreflang: 'de', href: 'https://www.example.com/de/page/1' }],
          repeats: [
            { sitemap: 'https://www.example.com/other.xml', line: 9, detail: 'listed twice' },
            { sitemap: 'https://www.example.com/text.txt', line: null, detail: 'twin' },
          ],
        },
        { url: 'https://www.example.com/page/2', sitemap: 'https://www.example.com/sitemap-2.xml', line: 4 },
        { url: 'https://www.example.com/page/3', sitemap: 'https://www.example.com/sitemap-0.xml', line: 5 },
      ],
    );
    assert.deepEqual([...book.unsampled()], []);
  } finally {
    book.close();
  }
});

test('the sample is the listings of smallest key (ties: first met), the rest in the order met', () => {
  const book = new ListingBook();
  try {
    book.addListings([
      listing(1, { sampleKey: 50 }),
      listing(2, { sampleKey: 10 }),
      listing(3, { sampleKey: 30 }),
      listing(4, { sampleKey: 10 }),
      listing(5, { sampleKey: 90 }),
    ]);
    book.chooseSample(3);
    assert.equal(book.sampledCount, 3);
    assert.deepEqual(
      [...book.sample()].map((each) => each.url.slice(-1)),
      ['2', '3', '4'],
    );
    assert.deepEqual(
      [...book.unsampled()].map((url) => url.slice(-1)),
      ['1', '5'],
    );
  } finally {
    book.close();
  }
});

test('its scratch file is deleted on close', () => {
  // A folder of its own: other test files running at once make scratch folders in the system's.
  const directory = mkdtempSync(join(tmpdir(), 'sitemapkit-listings-test-'));
  try {
    const book = new ListingBook(directory);
    book.addListings([listing(1)]);
    assert.equal(scratchFolders(directory).length, 1);
    book.close();
    book.close();
    assert.deepEqual(scratchFolders(directory), []);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('200,000 listed URLs hold almost nothing in the heap', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const book = new ListingBook();
  try {
    let next = 0;
    const list = (count: number) => {
      for (const end = next + count; next < end; next += 1_000)
        book.addListings(Array.from({ length: 1_000 }, (_, k) => listing(next + k)));
    };
    list(20_000);
    gc();
    const start = process.memoryUsage().heapUsed;
    list(200_000);
    gc();
    const perUrl = (process.memoryUsage().heapUsed - start) / 200_000;
    // A Map of the listings held about 300 bytes a URL.
    assert.ok(perUrl < 20, `${perUrl.toFixed(1)} bytes of heap a listed URL`);
    assert.equal(book.listedCount, 220_000);
    let sampled = 0;
    for (const _ of book.sample()) sampled += 1;
    assert.equal(sampled, 220_000);
  } finally {
    book.close();
  }
});
