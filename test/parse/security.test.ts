/**
 * Hostile input: entity expansion, external entities, gzip bombs, huge values and tags. Each
 * must end quickly, in bounded memory, with a diagnostic, and without touching the file system
 * or the network.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { NS } from '../../src/core/namespaces.js';
import { ParseError, parseSitemap } from '../../src/parse/index.js';
import { startSite } from '../helpers/site-server.js';
import { parseAll, parseText, urlset } from './helpers.js';

test('billion laughs: the DOCTYPE is skipped (SEC-001), nothing is expanded, reading is instant', async () => {
  let lol = '<!ENTITY lol0 "lol">';
  for (let i = 1; i <= 9; i++) lol += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
  const xml = `<?xml version="1.0"?><!DOCTYPE urlset [${lol}]><urlset xmlns="${NS.sitemap}"><url><loc>https://example.com/&lol9;</loc></url></urlset>`;
  const started = performance.now();
  const { entries, codes } = await parseText(xml);
  assert.ok(performance.now() - started < 1000);
  assert.deepEqual(entries, [{ kind: 'url', loc: 'https://example.com/' }]);
  assert.deepEqual(codes, ['SEC-001', 'SEC-001']);
});

test('XXE: an external entity naming a local file is never read, nor a URL fetched', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-xxe-'));
  // A FIFO: opening it for reading would block until a writer comes, so any read hangs the test.
  const fifo = join(dir, 'secret');
  execFileSync('mkfifo', [fifo]);
  // Every request would be counted (and answered 'https://evil.example/').
  const site = await startSite({ '/x': { body: 'https://evil.example/' }, '/p': { body: 'https://evil.example/' } });
  try {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE urlset [
  <!ENTITY file SYSTEM "file://${fifo}">
  <!ENTITY net SYSTEM "${site.url('/x')}">
  <!ENTITY % param SYSTEM "${site.url('/p')}"> %param;
]>
<urlset xmlns="${NS.sitemap}"><url><loc>https://example.com/a&file;</loc></url><url><loc>&net;</loc></url></urlset>`;
    const { entries, diagnostics } = await parseText(xml);
    assert.deepEqual(entries, [{ kind: 'url', loc: 'https://example.com/a' }]);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['SEC-001', 'SEC-001', 'SEC-001', 'XML-010', 'XML-009'],
    );
    assert.deepEqual([...site.hits], []);
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a gzip bomb stops at maxBytes (FETCH-006) after inflating little more than the limit', async () => {
  // 16 gzip members of 64 MiB of spaces each: 1 GiB inflated from about 1 MiB.
  const member = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
  const bomb = Buffer.concat([gzipSync(urlset('').slice(0, -12)), ...Array.from({ length: 16 }, () => member)]);
  assert.ok(bomb.length < 2 * 1024 * 1024);
  const parsed = parseSitemap(bomb, { limits: { maxBytes: 1024 * 1024 } });
  const before = process.memoryUsage().rss;
  for await (const _ of parsed);
  assert.deepEqual(
    parsed.diagnostics.map((d) => d.code),
    ['FETCH-006'],
  );
  assert.equal(parsed.stats.bytesDecoded, 1024 * 1024);
  assert.ok(parsed.stats.bytesIn < bomb.length / 4, `read ${parsed.stats.bytesIn} of ${bomb.length} compressed bytes`);
  assert.ok(process.memoryUsage().rss - before < 48 * 1024 * 1024);
});

test('a huge value is cut at maxValueLength (LIMIT-001); a huge tag stops the document', async () => {
  const long = 'a'.repeat(300_000);
  const value = await parseText(urlset(`<url><loc>https://example.com/${long}</loc></url>`), {
    limits: { maxValueLength: 1000 },
  });
  assert.equal(value.entries[0]!.loc.length, 1000);
  assert.deepEqual(value.codes, ['LIMIT-001']);
  const tag = await parseText(
    urlset(
      `<url><loc>https://example.com/1</loc></url><url ${'x="y" '.repeat(400_000)}><loc>https://example.com/2</loc></url>`,
    ),
  );
  assert.deepEqual(
    tag.entries.map((e) => e.loc),
    ['https://example.com/1'],
  );
  assert.ok(tag.codes.includes('LIMIT-001'));
  const text = await parseText(`https://example.com/1\nhttps://example.com/${long}\nhttps://example.com/3\n`, {
    limits: { maxValueLength: 1000 },
  });
  assert.deepEqual(
    text.entries.map((e) => e.loc),
    ['https://example.com/1', 'https://example.com/3'],
  );
});

test('maxEntries stops with LIMIT-002; past 50,000 entries URL-009 is reported once, every entry still read', async () => {
  const body = Array.from({ length: 50_010 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join('');
  const all = await parseText(urlset(body));
  assert.equal(all.entries.length, 50_010);
  assert.deepEqual(all.codes, ['URL-009']);
  const limited = await parseText(urlset(body), { limits: { maxEntries: 10 } });
  assert.equal(limited.entries.length, 10);
  assert.deepEqual(limited.codes, ['LIMIT-002']);
});

test('maxDiagnostics keeps the first ones, counts and streams all', async () => {
  const lines = Array.from({ length: 50 }, (_, i) => `not a url ${i}`).join('\n');
  let streamed = 0;
  const parsed = parseSitemap({ text: lines }, { limits: { maxDiagnostics: 5 }, onDiagnostic: () => streamed++ });
  for await (const _ of parsed);
  assert.deepEqual([parsed.diagnostics.length, parsed.diagnosticCount, streamed], [5, 50, 50]);
});

test('the problems of one block wait for its URL only up to a bound: past it they go out at once, unnamed', async () => {
  // A hostile block: thousands of raw "&", each a problem, met before the block's URL is known.
  const loc = `https://example.com/?${'a&b'.repeat(3_000)}`;
  const { entries, diagnostics } = await parseText(urlset(`<url><loc>${loc}</loc></url>`), {
    limits: { maxValueLength: 100_000, maxDiagnostics: 10_000 },
  });
  assert.equal(entries.length, 1);
  const raw = diagnostics.filter((d) => d.code === 'XML-005');
  assert.equal(raw.length, 3_000);
  // Those past the bound went out as they were met, before the ones that waited for the URL.
  assert.deepEqual(
    [raw.slice(0, 2_000).every((d) => d.url === undefined), raw.slice(2_000).every((d) => d.url === loc)],
    [true, true],
  );
});

test('a file path source is read, a missing one throws FETCH-001', async () => {
  const { CONFORMANCE_DIR } = await import('../helpers/paths.js');
  const r = await parseAll(join(CONFORMANCE_DIR, 'cases/sitemaps.org/sample-index.xml'));
  assert.equal(r.entries.length, 2);
  await assert.rejects(
    parseAll({ path: '/nonexistent/sitemap.xml' }),
    (error: unknown) => error instanceof ParseError && error.diagnostic.code === 'FETCH-001',
  );
});
