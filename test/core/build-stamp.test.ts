/**
 * The build stamp: the time a build gives every file it writes, told apart from the times pages
 * really changed, among a folder's file times and among a crawl's Last-Modified headers.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { findBuildStamp, findLastModifiedStamp, withoutStampedLastmods } from '../../src/core/build-stamp.js';
import type { UrlEntry } from '../../src/core/entry.js';

const at = (iso: string) => Date.parse(iso);

/** The items as a stream hands them over, one by one. */
const each = <T>(items: T[]): AsyncIterable<T> => Readable.from(items);

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('findBuildStamp', () => {
  it('finds most files written within seconds of each other, and only those', () => {
    const build = ['2024-06-01T12:00:00Z', '2024-06-01T12:00:03Z', '2024-06-01T12:00:08Z'].map(at);
    const stamp = findBuildStamp([...build, at('2023-01-05T00:00:00Z')]);
    assert.equal(stamp?.files, 3);
    assert.equal(stamp.covers(at('2024-06-01T12:00:03Z')), true);
    assert.equal(stamp.covers(at('2023-01-05T00:00:00Z')), false);
  });

  it('finds none in times spread over months, or among many files that gave no time', () => {
    assert.equal(findBuildStamp(['2024-02-03', '2024-03-09', '2024-04-17', '2024-05-21'].map(at)), undefined);
    const same = Array.from({ length: 3 }, () => at('2024-06-01T12:00:00Z'));
    assert.notEqual(findBuildStamp(same), undefined);
    assert.equal(findBuildStamp(same, 26), undefined, '3 of 26 files is no build');
  });
});

describe("a crawl's Last-Modified", () => {
  const built = '2024-06-01T12:00:00Z';
  /** A small built site: two pages date themselves; every file was served with the build's time. */
  const pages: (UrlEntry & { lastModified?: string })[] = [
    { kind: 'url', loc: 'https://example.com/', lastmod: built, lastModified: built },
    { kind: 'url', loc: 'https://example.com/a', lastmod: '2024-01-10T09:00:00Z', lastModified: built },
    { kind: 'url', loc: 'https://example.com/b', lastmod: '2024-02-20', lastModified: built },
  ];

  it("counts every page's header, so one page dated by it alone is seen as the build's", async () => {
    const found = await findLastModifiedStamp(each(pages));
    assert.equal(found?.stamp.files, 3);
    assert.equal(found.lastmods, 1);
    assert.deepEqual(await all(withoutStampedLastmods(each(pages), found.stamp)), [
      { kind: 'url', loc: 'https://example.com/' },
      { kind: 'url', loc: 'https://example.com/a', lastmod: '2024-01-10T09:00:00Z' },
      { kind: 'url', loc: 'https://example.com/b', lastmod: '2024-02-20' },
    ]);
  });

  it('finds none when few pages send one among many that send none, and keeps their lastmods', async () => {
    const many = [
      ...pages,
      ...Array.from({ length: 10 }, (_, i): UrlEntry => ({ kind: 'url', loc: `https://example.com/p${i}` })),
    ];
    assert.equal(await findLastModifiedStamp(each(many)), undefined);
    const kept = await all(withoutStampedLastmods(each(pages), undefined));
    assert.deepEqual(
      kept.map((entry) => entry.lastmod),
      [built, '2024-01-10T09:00:00Z', '2024-02-20'],
    );
    assert.ok(
      kept.every((entry) => !('lastModified' in entry)),
      'the header is never written',
    );
  });
});
