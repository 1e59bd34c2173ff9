/**
 * The JSONL reader's hot path (a line matched in the text) against JSON.parse of every line: the
 * same items, entries and problems alike, however the lines are written and the text is cut.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import { diagnostic } from '../../src/core/index.js';
import { readLines, type ReadItem } from '../../src/input/index.js';
import { readJsonLineBatches } from '../../src/input/json-lines.js';

/** Every line through JSON.parse: what the reader gave before its hot path. */
async function byJsonParse(text: string): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  for await (const { text: line, number } of numbered(text)) {
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const position = /position (\d+)/.exec((error as Error).message);
      items.push({
        problem: diagnostic('INPUT-001', `not valid JSON: ${(error as Error).message}`, {
          source: 'in.jsonl',
          line: number,
          ...(position ? { column: Number(position[1]) + 1 } : {}),
        }),
      });
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      items.push({
        problem: diagnostic('INPUT-001', 'each line must be one JSON object, such as {"loc":"https://example.com/"}', {
          source: 'in.jsonl',
          line: number,
        }),
      });
      continue;
    }
    const object = value as Record<string, unknown>;
    if (typeof object.loc !== 'string') {
      items.push({
        problem: diagnostic(
          'INPUT-001',
          `the entry has no "loc"${object.loc === undefined ? '' : ' string'}: each line needs one, such as {"loc":"https://example.com/"}`,
          { source: 'in.jsonl', line: number },
        ),
      });
      continue;
    }
    items.push({
      entry: ('kind' in object ? object : { kind: 'url', ...object }) as never,
      source: 'in.jsonl',
      line: number,
    });
  }
  return items;
}

async function* numbered(text: string): AsyncGenerator<{ text: string; number: number }> {
  for await (const { text: line, line: number } of readLines([Buffer.from(text)] as unknown as AsyncIterable<Buffer>))
    yield { text: line, number };
}

/** The reader under test, the text cut into chunks at `cuts` (byte offsets). */
async function byReader(text: string, cuts: number[]): Promise<ReadItem[]> {
  const bytes = Buffer.from(text);
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks = [0, ...points, bytes.length]
    .slice(1)
    .map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end));
  const items: ReadItem[] = [];
  for await (const batch of readJsonLineBatches(Readable.from(chunks, { objectMode: true }), 'in.jsonl'))
    items.push(...batch);
  return items;
}

/** Lines as files hold them: most in JSON.stringify's form, some in any other. */
const line = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          kind: fc.constantFrom('url', 'sitemap'),
          loc: fc.oneof(fc.webUrl(), fc.string({ unit: 'binary' })),
          lastmod: fc.oneof(fc.constantFrom('2024-05-01', '2024-05-01T10:00:00+02:00'), fc.string()),
          changefreq: fc.oneof(fc.constantFrom('daily', 'Weekly'), fc.string()),
          priority: fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0.5, 1, 0)),
          images: fc.array(fc.record({ loc: fc.webUrl() }), { maxLength: 2 }),
        },
        { requiredKeys: [] },
      )
      .map((entry) => JSON.stringify(entry)),
  },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.constantFrom('', '# a comment', '  {"loc": "https://a.example/"}', '{"loc":"x",}') },
);

test('reads every line as JSON.parse does, however the text is cut into chunks', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(line, { maxLength: 20 }),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 6 }),
      async (lines, newline, bom, lastNewline, cuts) => {
        // A line may not hold a line break of its own: JSON Lines puts one object on each.
        const text =
          (bom ? '\ufeff' : '') +
          lines.map((l) => l.replace(/[\r\n]/g, ' ')).join(newline) +
          (lastNewline ? newline : '');
        assert.deepEqual(await byReader(text, cuts), await byJsonParse(text));
      },
    ),
    { numRuns: 1_500 },
  );
});

test('the hot path gives the values JSON.parse gives, fields in the same order', async () => {
  const text = [
    '{"loc":"https://a.example/x?a=1&b=2","lastmod":"2024-05-01","changefreq":"daily","priority":0.5}',
    '{"kind":"url","loc":"https://a.example/ü","priority":1e-1}',
    '{"loc":"https://a.example/y","changefreq":"hourly"}',
  ].join('\n');
  const items = await byReader(text, []);
  const expected = await byJsonParse(text);
  assert.deepEqual(items, expected);
  // deepEqual does not compare the order of fields, which JSON output keeps.
  assert.deepEqual(
    items.map((item) => ('entry' in item ? Object.keys(item.entry) : [])),
    expected.map((item) => ('entry' in item ? Object.keys(item.entry) : [])),
  );
});
