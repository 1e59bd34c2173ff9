import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import type { Entry } from '../../src/core/entry.js';
import { csvCell } from '../../src/core/csv.js';
import { entryCsvHeader, entryToCsvRow, entryToJsonLine } from '../../src/report/entries.js';

const ENTRY: Entry = {
  kind: 'url',
  loc: 'https://example.com/a?x=1,2&q="quoted"',
  lastmod: '2024-05-01',
  priority: 0.8,
  images: [{ loc: 'https://example.com/a.jpg', caption: 'line one\nline two' }],
};

test('JSONL: the entry as it is, "source" last when given', () => {
  assert.deepEqual(JSON.parse(entryToJsonLine(ENTRY)), ENTRY);
  const line = entryToJsonLine({ kind: 'sitemap', loc: 'https://example.com/s.xml' }, 'robots.txt');
  assert.equal(line, '{"kind":"sitemap","loc":"https://example.com/s.xml","source":"robots.txt"}');
});

test('JSONL: every line is exactly what JSON.stringify writes, whatever the strings hold', () => {
  const hostile = [
    'plain',
    'quote " and \\ backslash',
    'tab\tnew\nline\u0000',
    'emoji 😀 and lone \ud800',
    'ü € 日本',
    '</script>',
    '',
  ];
  for (const text of hostile) {
    const entry = {
      kind: 'url',
      loc: `https://example.com/${text}`,
      lastmod: text,
      priority: 0.5,
      images: [{ loc: text, title: text }],
    } as Entry;
    assert.equal(entryToJsonLine(entry), JSON.stringify(entry), text);
    assert.equal(entryToJsonLine(entry, text), JSON.stringify({ ...entry, source: text }), text);
    const withSource = { ...entry, source: 'first', changefreq: undefined } as unknown as Entry;
    assert.equal(entryToJsonLine(withSource, text), JSON.stringify({ ...withSource, source: text }), text);
    assert.equal(entryToJsonLine(withSource), JSON.stringify(withSource), text);
  }
  assert.equal(
    entryToJsonLine({ kind: 'url', loc: 'https://example.com/', priority: -0 }),
    JSON.stringify({ kind: 'url', loc: 'https://example.com/', priority: -0 }),
  );
});

test('CSV: header and rows that a CSV reader reads back to the same values', () => {
  const text = `${entryCsvHeader(true)}\n${entryToCsvRow(ENTRY, 'a.xml')}\n${entryToCsvRow({ kind: 'sitemap', loc: 'https://example.com/s.xml' }, undefined, true)}\n`;
  const rows = parseCsv<Record<string, string>>(text, { columns: true });
  assert.equal(rows.length, 2);
  assert.equal(rows[0]!['loc'], ENTRY.loc);
  assert.equal(rows[0]!['priority'], '0.8');
  assert.deepEqual(JSON.parse(rows[0]!['images']!), (ENTRY as { images: unknown }).images);
  assert.equal(rows[0]!['source'], 'a.xml');
  assert.deepEqual(rows[1], {
    kind: 'sitemap',
    loc: 'https://example.com/s.xml',
    lastmod: '',
    changefreq: '',
    priority: '',
    images: '',
    videos: '',
    news: '',
    alternates: '',
    source: '',
  });
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a"b'), '"a""b"');
});

test('JSONL: any entry-like object, its fields in any order and holding anything, is written as JSON.stringify writes it', () => {
  const field = fc.constantFrom(
    'kind',
    'loc',
    'lastmod',
    'changefreq',
    'priority',
    'images',
    'videos',
    'news',
    'alternates',
    'source',
    'other',
  );
  const value = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.constantFrom('url', 'sitemap', 'daily', 'weekly'),
    fc.double(),
    fc.constant(undefined),
    fc.boolean(),
    fc.array(fc.record({ loc: fc.string() }), { maxLength: 2 }),
  );
  fc.assert(
    fc.property(
      fc.array(fc.tuple(field, value), { maxLength: 12 }),
      fc.option(fc.string({ unit: 'binary' })),
      (pairs, source) => {
        const entry = Object.fromEntries(pairs) as unknown as Entry;
        const expected =
          source === null
            ? JSON.stringify(entry)
            : JSON.stringify('source' in entry ? { ...entry, source } : { ...entry, source });
        assert.equal(entryToJsonLine(entry, source ?? undefined), expected);
      },
    ),
    { numRuns: 2_000 },
  );
});
