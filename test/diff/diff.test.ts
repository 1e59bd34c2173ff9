/**
 * The diff engine: the external sorts it stands on (runs on disk, merged back whole), the field
 * comparison, and the diff itself against a plain in-memory diff of the same random sets, with a
 * memory budget small enough that every set goes through many runs on disk.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import type { UrlEntry } from '../../src/core/entry.js';
import { fingerprint } from '../../src/core/fingerprint.js';
import { SitemapDiff, type DiffRow } from '../../src/diff/diff.js';
import { changedFields } from '../../src/diff/fields.js';
import { RunMemory, SetOnDisk } from '../../src/diff/set-on-disk.js';
import { escapeKey, SortedRuns, unescapeKey } from '../../src/diff/sorted-runs.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-diff-'));
after(() => rm(scratch, { recursive: true, force: true }));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

// eslint-disable-next-line @typescript-eslint/require-await -- a set as the sources give it: an async stream
async function* stream<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

test('sorted runs: many runs on disk merge back into one sorted stream, and leave nothing behind', async () => {
  const dir = await mkdtemp(join(scratch, 'sorted-'));
  const runs = new SortedRuns({ tempDir: dir, budgetChars: 2_000 });
  const keys = Array.from({ length: 3_000 }, (_, i) => `https://example.com/${(i * 7919) % 3_000}/é\t${i % 3}`);
  for (const [i, key] of keys.entries()) await runs.add(escapeKey(key), `{"i":${i}}`);
  assert.ok(runs.runsWritten > 10, `${runs.runsWritten} runs`);
  const sorted = await collect(runs.sorted());
  assert.deepEqual(
    sorted.map((record) => unescapeKey(record.key)),
    [...keys].sort((a, b) => (escapeKey(a) < escapeKey(b) ? -1 : 1)),
  );
  assert.deepEqual(await readdir(dir), [], 'the runs are removed');
});

test('a set on disk: its records by URL fingerprint, first added first, through many runs as in one; entries read back whole', async () => {
  const dir = await mkdtemp(join(scratch, 'set-'));
  const big = JSON.stringify({ loc: 'https://example.com/big', caption: 'x'.repeat(3_000_000) });
  // 20,000 records of 200 bytes: the log is written out in several buffers, two at a time in flight.
  const records = Array.from({ length: 20_000 }, (_, i) => ({
    key: `https://example.com/p${i % 16_000}`,
    value: `{"i":${i},"pad":"${'é'.repeat(90)}"}`,
  }));
  records.splice(2_500, 0, { key: 'https://example.com/big', value: big });
  const print = (text: string) => {
    const out = new Uint32Array(2);
    fingerprint(text, out);
    return [out[0]!, out[1]!] as const;
  };
  const expected = records
    .map((record, i) => ({ key: print(record.key), value: record.value, i }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.i - b.i);
  for (const runRecords of [1_000_000, 300]) {
    const set = await SetOnDisk.create(dir, new RunMemory(runRecords));
    for (const { key, value } of records) await set.add(key, value);
    await set.finish();
    assert.equal(set.runsWritten, runRecords === 300 ? 67 : 1);
    const groups = await set.groups();
    const got: { key: readonly [number, number]; value: string; digest: readonly [number, number] }[] = [];
    for (let group = await groups.next(); group !== undefined; group = await groups.next())
      for (let i = 0; i < group.count; i++)
        got.push({
          key: [group.high, group.low],
          value: set.read(group, i),
          digest: [group.digestHigh[i]!, group.digestLow[i]!],
        });
    await groups.close();
    assert.deepEqual(
      got.map(({ key, value }) => ({ key, value })),
      expected.map(({ key, value }) => ({ key, value })),
    );
    assert.ok(got.every(({ value, digest }) => digest[0] === print(value)[0] && digest[1] === print(value)[1]));
    await set.dispose();
  }
  assert.deepEqual(await readdir(dir), [], 'the files are removed');
});

test('fields: what differs, a lastmod naming the same instant being the same', () => {
  assert.deepEqual(
    changedFields(
      { lastmod: '2024-05-01T10:00:00Z', priority: 0.5, images: [{ loc: 'https://example.com/a.jpg' }] },
      { lastmod: '2024-05-01T12:00:00+02:00', priority: 0.5, images: [{ loc: 'https://example.com/b.jpg' }] },
    ),
    ['images'],
  );
  assert.deepEqual(changedFields({ changefreq: 'daily' }, { priority: 0.4 }), ['changefreq', 'priority']);
  assert.deepEqual(changedFields({ lastmod: 'not a date' }, { lastmod: 'not a date' }), []);
  assert.deepEqual(changedFields({ lastmod: '2024-05-01' }, { lastmod: '2024-05-02' }), ['lastmod']);
});

/** The diff as a plain pair of maps would give it: what the engine must agree with. */
function oracle(before: UrlEntry[], after: UrlEntry[]): DiffRow[] {
  const first = (entries: UrlEntry[]) => {
    const map = new Map<string, UrlEntry>();
    for (const entry of entries) if (!map.has(entry.loc)) map.set(entry.loc, entry);
    return map;
  };
  const strip = ({ kind: _k, loc: _l, ...fields }: UrlEntry) => fields;
  const a = first(before);
  const b = first(after);
  const rows: DiffRow[] = [];
  for (const [loc, old] of a) {
    const now = b.get(loc);
    if (now === undefined) rows.push({ change: 'removed', loc, old: strip(old) });
    else {
      const fields = changedFields(strip(old), strip(now));
      if (fields.length > 0) rows.push({ change: 'changed', loc, fields, old: strip(old), new: strip(now) });
    }
  }
  for (const [loc, now] of b) if (!a.has(loc)) rows.push({ change: 'added', loc, new: strip(now) });
  return rows.sort((x, y) => (escapeKey(x.loc) < escapeKey(y.loc) ? -1 : 1));
}

const entryArbitrary: fc.Arbitrary<UrlEntry> = fc.record(
  {
    kind: fc.constant('url' as const),
    loc: fc.integer({ min: 0, max: 60 }).map((n) => `https://example.com/${n % 3 === 0 ? 'ü/' : ''}p${n}`),
    lastmod: fc.constantFrom<string>('2024-01-01', '2024-01-02', '2024-01-01T00:00:00Z'),
    priority: fc.constantFrom<number>(0.1, 0.5),
    images: fc.constantFrom<{ loc: string }[]>(
      [{ loc: 'https://example.com/a.jpg' }],
      [{ loc: 'https://example.com/b.jpg' }],
    ),
  },
  { requiredKeys: ['kind', 'loc'] },
);

test('the diff agrees with a diff of two maps, duplicates and all, however the sets are split into runs', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(entryArbitrary, { maxLength: 80 }),
      fc.array(entryArbitrary, { maxLength: 80 }),
      async (a, b) => {
        const diff = new SitemapDiff(stream(a), stream(b), { tempDir: scratch, recordsPerRun: 7 });
        const rows = await collect(diff);
        const expected = oracle(a, b);
        assert.deepEqual(rows, expected);
        const count = (change: string) => expected.filter((row) => row.change === change).length;
        assert.deepEqual(
          [diff.counts.added, diff.counts.removed, diff.counts.changed],
          [count('added'), count('removed'), count('changed')],
        );
        assert.equal(diff.counts.old.urls, new Set(a.map((e) => e.loc)).size);
        assert.equal(diff.counts.old.duplicates, a.length - diff.counts.old.urls);
        assert.equal(diff.counts.unchanged, diff.counts.old.urls - diff.counts.removed - diff.counts.changed);
      },
    ),
    { numRuns: 60 },
  );
  assert.deepEqual(
    (await readdir(scratch)).filter((name) => name.startsWith('sitemapkit-')),
    [],
    'no run is left behind',
  );
});

test('a diff stopped midway removes its runs', async () => {
  const dir = await mkdtemp(join(scratch, 'stopped-'));
  const many = (from: number) =>
    Array.from({ length: 5_000 }, (_, i): UrlEntry => ({ kind: 'url', loc: `https://example.com/${from + i}` }));
  const diff = new SitemapDiff(stream(many(0)), stream(many(100)), { tempDir: dir, recordsPerRun: 1_000 });
  for await (const _row of diff) break;
  assert.deepEqual(await readdir(dir), []);
});
