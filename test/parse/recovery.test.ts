/**
 * Recovery from a missing end tag: a block's start tag met where the block cannot be (a `<url>`
 * inside an open `<url>`, or anywhere below the root of a urlset) shows the end tags before it
 * are missing. They are supplied there, with a diagnostic at the place, and the damaged entry
 * keeps what it read: one missing end tag never costs more than the entry it belonged to.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Entry } from '../../src/core/entry.js';
import { parseSitemap } from '../../src/parse/index.js';
import { runCli } from '../helpers/cli.js';
import { documentBytesOf, loadManifest } from '../helpers/conformance.js';
import { parseText, urlset } from './helpers.js';

/** Five URLs, the second without its `</url>` (it has a lastmod, which it keeps). */
const FIVE_URLS = urlset(
  [
    '<url><loc>https://example.com/1</loc></url>',
    '<url><loc>https://example.com/2</loc><lastmod>2024-05-01</lastmod>',
    '<url><loc>https://example.com/3</loc></url>',
    '<url><loc>https://example.com/4</loc></url>',
    '<url><loc>https://example.com/5</loc></url>',
  ].join('\n'),
);

test('a <url> met inside an open <url> closes it: every entry is read, the damage is reported where it is', async () => {
  const { entries, diagnostics } = await parseText(FIVE_URLS);
  assert.deepEqual(entries, [
    { kind: 'url', loc: 'https://example.com/1' },
    { kind: 'url', loc: 'https://example.com/2', lastmod: '2024-05-01' },
    { kind: 'url', loc: 'https://example.com/3' },
    { kind: 'url', loc: 'https://example.com/4' },
    { kind: 'url', loc: 'https://example.com/5' },
  ]);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.url]),
    [['XML-001', 'error', 5, 1, 'https://example.com/2']],
  );
  assert.match(diagnostics[0]!.message, /<url> starts inside <url>, which was never closed/);
  const parsed = parseSitemap({ text: FIVE_URLS });
  for await (const _ of parsed);
  assert.equal(parsed.repairs, 1);
});

test('a <sitemap> met inside an open <sitemap> of an index closes it', async () => {
  const xml = `<?xml version="1.0"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/a.xml</loc><lastmod>2024-05-01</lastmod>
  <sitemap><loc>https://example.com/b.xml</loc></sitemap>
</sitemapindex>`;
  const { entries, diagnostics } = await parseText(xml);
  assert.deepEqual(entries, [
    { kind: 'sitemap', loc: 'https://example.com/a.xml', lastmod: '2024-05-01' },
    { kind: 'sitemap', loc: 'https://example.com/b.xml' },
  ]);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.line, d.column]),
    [['XML-001', 4, 3]],
  );
});

test('a <url> belongs directly in <urlset>: met inside an unclosed element, that element and the open block are closed', async () => {
  const xml = urlset(
    [
      '<foo>stray, never closed',
      '<url><loc>https://example.com/1</loc><image:image><image:loc>https://example.com/1.jpg</image:loc>',
      '<url><loc>https://example.com/2</loc></url>',
    ].join('\n'),
  );
  const { entries, diagnostics } = await parseText(xml);
  assert.deepEqual(entries, [
    { kind: 'url', loc: 'https://example.com/1', images: [{ loc: 'https://example.com/1.jpg' }] },
    { kind: 'url', loc: 'https://example.com/2' },
  ]);
  // A core <foo> has no place in a urlset; then it, the <image:image> and the <url> left open are
  // each said where their end is found missing.
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.line, d.url]),
    [
      ['XML-007', 3, undefined],
      ['XML-001', 4, undefined],
      ['XML-001', 5, 'https://example.com/1'],
      ['XML-001', 5, 'https://example.com/1'],
    ],
  );
});

test('feeds: an <item> or <entry> met inside an open one closes it', async () => {
  const rss = await parseText(
    '<rss version="2.0"><channel><item><link>https://example.com/1</link>' +
      '<item><link>https://example.com/2</link></item></channel></rss>',
  );
  assert.deepEqual(
    rss.entries.map((e) => e.loc),
    ['https://example.com/1', 'https://example.com/2'],
  );
  const atom = await parseText(
    '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/1"/>' +
      '<entry><link href="https://example.com/2"/></entry></feed>',
  );
  assert.deepEqual(
    atom.entries.map((e) => e.loc),
    ['https://example.com/1', 'https://example.com/2'],
  );
});

/** An end tag as written (some may stand in comments or CDATA: deleting those must cost nothing). */
const END_TAG = /<\/[^<>]*>/g;

/** The XML documents of the conformance corpus short enough to read once per damage. */
function corpusDocuments(): string[] {
  return loadManifest()
    .filter((c) => ['urlset', 'sitemapindex', 'rss', 'atom'].includes(c.format))
    .map((c) => documentBytesOf(c).toString('utf8'))
    .filter((xml, i, all) => xml.length < 100_000 && all.indexOf(xml) === i && xml.search(END_TAG) !== -1);
}

/** The length of the longest common subsequence of two lists of entries. */
function commonEntries(a: readonly Entry[], b: readonly Entry[]): number {
  const as = a.map((entry) => JSON.stringify(entry));
  const bs = b.map((entry) => JSON.stringify(entry));
  let previous = new Array<number>(bs.length + 1).fill(0);
  for (const x of as) {
    const row = [0];
    for (let j = 0; j < bs.length; j++) row.push(x === bs[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, row[j]!));
    previous = row;
  }
  return previous[bs.length]!;
}

test('deleting any one end tag from any corpus document loses at most the entry it belonged to', async () => {
  const documents = corpusDocuments();
  assert.ok(documents.length >= 100, `only ${documents.length} documents`);
  const damage = fc.record({ document: fc.nat({ max: documents.length - 1 }), tag: fc.nat() });
  await fc.assert(
    fc.asyncProperty(damage, async ({ document, tag }) => {
      const xml = documents[document]!;
      const endTags = [...xml.matchAll(END_TAG)];
      const deleted = endTags[tag % endTags.length]!;
      const damaged = xml.slice(0, deleted.index) + xml.slice(deleted.index + deleted[0].length);
      const before = (await parseText(xml)).entries;
      const after = await parseText(damaged);
      const kept = commonEntries(before, after.entries);
      const where = `${deleted[0]} deleted at ${deleted.index}`;
      assert.ok(kept >= before.length - 1, `${where}: ${before.length - kept} of ${before.length} entries lost`);
      assert.ok(after.entries.length - kept <= 1, `${where}: ${after.entries.length - kept} entries changed`);
      // The root's end tag deleted leaves a document that ends inside its root: cut off (XML-014).
      assert.ok(after.codes.includes('XML-001') || after.codes.includes('XML-014'), `${where}: the damage is reported`);
    }),
    { numRuns: 400 },
  );
});

test('parse CLI: a missing </url> keeps every entry, prints the diagnostic with its line and column, and exits 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-recovery-'));
  try {
    const file = join(dir, 'sitemap.xml');
    writeFileSync(file, FIVE_URLS);
    const { code, stdout, stderr } = await runCli(['parse', file]);
    assert.equal(code, 1);
    assert.equal(stdout.trim().split('\n').length, 5);
    assert.equal(
      stderr,
      `${file}:5:1: error XML-001 <url> starts inside <url>, which was never closed: it is closed here (add its </url>) (https://example.com/2)\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
