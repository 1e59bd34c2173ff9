/**
 * entryBatches and locatedEntryBatches, the fast way to read a parse: the same entries, in the
 * same order, with the same positions and problems, as reading them one by one; leaving early
 * stops the read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentBytesOf, loadManifest } from '../helpers/conformance.js';
import { entryBatches, locatedEntryBatches, parseSitemap } from '../../src/parse/index.js';
import type { Diagnostic, Entry, LocatedEntry } from '../../src/index.js';

async function flattened<T>(batches: AsyncIterable<readonly T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

async function oneByOne<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

test('every document of the conformance corpus reads the same in batches as one by one, plain and located', async () => {
  const cases = loadManifest();
  assert.ok(cases.length > 50, `${cases.length} documents`);
  for (const c of cases) {
    const bytes = documentBytesOf(c);
    const read = (
      how: (parsed: ReturnType<typeof parseSitemap>) => Promise<unknown[]>,
    ): Promise<{ entries: unknown[]; problems: Diagnostic[] }> => {
      const problems: Diagnostic[] = [];
      const parsed = parseSitemap(bytes, { onDiagnostic: (d) => problems.push(d) });
      return how(parsed).then(
        (entries) => ({ entries, problems }),
        (error: Error) => ({ entries: [error.message], problems }),
      );
    };
    const plain = await read((parsed) => oneByOne<Entry>(parsed));
    assert.deepEqual(await read((parsed) => flattened(entryBatches(parsed))), plain, c.id);
    const located = await read((parsed) => oneByOne<LocatedEntry>(parsed.located()));
    assert.deepEqual(await read((parsed) => flattened(locatedEntryBatches(parsed))), located, c.id);
  }
});

test('leaving the batches early stops the read of a long document and closes its source', async () => {
  const urls = Array.from({ length: 200_000 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>\n`).join('');
  const document = Buffer.from(
    `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`,
  );
  const source = { pulled: 0, closed: false };
  async function* pieces(): AsyncGenerator<Uint8Array> {
    try {
      for (let at = 0; at < document.length; at += 65_536) {
        source.pulled++;
        await Promise.resolve(); // a source that reads, as a file or a socket does
        yield document.subarray(at, at + 65_536);
      }
    } finally {
      source.closed = true;
    }
  }
  const parsed = parseSitemap(pieces());
  let seen = 0;
  for await (const batch of entryBatches(parsed)) {
    seen += batch.length;
    break;
  }
  assert.ok(seen > 0 && seen < 200_000, `${seen} entries`);
  assert.ok(source.closed, 'the source is closed');
  const total = Math.ceil(document.length / 65_536);
  assert.ok(source.pulled < total / 10, `${source.pulled} of ${total} pieces pulled`);
  assert.ok(parsed.stats.bytesDecoded < document.length / 10, `${parsed.stats.bytesDecoded} bytes decoded`);
});
