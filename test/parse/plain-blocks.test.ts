/**
 * The fast path for plain `<url>` and `<sitemap>` blocks (src/parse/formats/plain-blocks.ts) must
 * be invisible: every document reads the same, entries, positions and diagnostics, with the fast
 * path on and off.
 */
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import fc from 'fast-check';
import { PlainBlockReader, type PlainRun } from '../../src/parse/formats/plain-blocks.js';
import { parseSitemap } from '../../src/parse/index.js';
import { documentBytesOf, loadManifest } from '../helpers/conformance.js';
import { damagedDocuments } from './damage.js';
import { documentSpec, writeDocument } from './generated-documents.js';
import { inPieces, parseAll, urlset } from './helpers.js';

type Summary = { entries: unknown; diagnostics: unknown };

/**
 * Reads `xml` with the fast path (located and as plain entries, which leave positions out) and
 * without it; the plain read must agree with the located one.
 */
async function readBothWays(xml: string | Buffer, cuts: number[] = []): Promise<{ fast: Summary; general: Summary }> {
  const bytes = typeof xml === 'string' ? Buffer.from(xml) : xml;
  const read = async () => {
    const r = await parseAll(inPieces(bytes, cuts));
    return { entries: r.located, diagnostics: r.diagnostics };
  };
  const fast = await read();
  const plain = parseSitemap(inPieces(bytes, cuts), { limits: { maxDiagnostics: 100_000 } });
  const entries = [];
  for await (const entry of plain) entries.push(entry);
  assert.deepEqual(
    { entries, diagnostics: plain.diagnostics },
    { entries: fast.entries.map((l) => l.entry), diagnostics: fast.diagnostics },
  );
  // Without the fast path: it hands every block back to the lexer.
  const handBack = mock.method(PlainBlockReader.prototype, 'read', (_text: string, start: number): PlainRun => ({
    end: start,
    next: 'general',
  }));
  try {
    return { fast, general: await read() };
  } finally {
    handBack.mock.restore();
  }
}

const PAD = `<!--${'p'.repeat(1100)}-->`;

const BLOCKS = [
  '<url><loc>https://example.com/a</loc></url>',
  '<url>\n  <loc>https://example.com/b?x=1&amp;y=2</loc>\n  <lastmod>2024-05-01</lastmod>\n</url>',
  '<url><loc>https://example.com/c</loc><lastmod>2024-05-01T10:00:00+02:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>',
  '<url>\r\n\t<loc>https://example.com/d</loc>\r\n\t<priority>1.0</priority>\r\n</url>',
  // Each of these must fall back to the general path, which reports something or reads differently.
  '<url><loc> https://example.com/e </loc></url>',
  '<url><loc>https://example.com/f&b</loc></url>',
  '<url><loc>https://example.com/ü</loc></url>',
  '<url><loc>relative/g</loc></url>',
  '<url><loc>https://example.com/h%zz</loc></url>',
  '<url><lastmod>2024-05-01</lastmod><loc>https://example.com/i</loc></url>',
  '<url><loc>https://example.com/j</loc><loc>https://example.com/j2</loc></url>',
  '<url><loc>https://example.com/k</loc><lastmod>yesterday</lastmod></url>',
  '<url><loc>https://example.com/l</loc><changefreq>Daily</changefreq><priority>2</priority></url>',
  '<url><loc>https://example.com/m</loc><!-- c --></url>',
  '<url><loc><![CDATA[https://example.com/n]]></loc></url>',
  '<url><loc>https://example.com/o</loc><image:image><image:loc>https://example.com/o.jpg</image:loc></image:image></url>',
  '<url><loc>https://example.com/o2</loc>\n  <image:image>\n    <image:loc>https://example.com/o2.jpg?a=1&amp;b=2</image:loc>\n  </image:image>\n  <image:image><image:loc>https://example.com/o3.jpg</image:loc></image:image>\n</url>',
  '<url><loc>https://example.com/o4</loc><image:image><image:loc>https://example.com/o4.jpg</image:loc><image:title>T</image:title></image:image></url>',
  '<url><loc>https://example.com/o5</loc><image:image><image:loc>o5.jpg</image:loc></image:image></url>',
  '<url><loc>https://example.com/o6</loc><image:image></image:image></url>',
  '<url><loc>https://example.com/o7</loc><image:image><image:loc>https://example.com/o7.jpg</image:loc></image:image><lastmod>2024-05-01</lastmod></url>',
  // Images with their optional children: in the schema's order, plain text, `&amp;` decoded.
  '<url><loc>https://example.com/i1</loc><image:image><image:loc>https://example.com/i1.jpg</image:loc><image:caption>A &amp; B</image:caption><image:geo_location>Limerick, Ireland</image:geo_location><image:title>Straße\n2</image:title><image:license>https://example.com/l?a=1&amp;b=2</image:license></image:image></url>',
  '<url><loc>https://example.com/i2</loc><image:image>\n <image:loc>https://example.com/i2.jpg</image:loc>\n <image:title> padded </image:title>\n</image:image></url>',
  '<url><loc>https://example.com/i3</loc><image:image><image:loc>https://example.com/i3.jpg</image:loc><image:title>T</image:title><image:caption>C</image:caption></image:image></url>',
  '<url><loc>https://example.com/i4</loc><image:image><image:loc>https://example.com/i4.jpg</image:loc><image:caption>   </image:caption></image:image></url>',
  '<url><loc>https://example.com/i5</loc><image:image><image:loc>https://example.com/i5.jpg</image:loc><image:caption>a &lt; b</image:caption></image:image></url>',
  '<url><loc>https://example.com/i6</loc><image:image><image:loc>https://example.com/i6.jpg</image:loc><image:caption>line\r\nbreak</image:caption></image:image></url>',
  '<url><loc>https://example.com/i7</loc><image:image><image:loc>https://example.com/i7.jpg</image:loc><image:title>T</image:title><image:title>T2</image:title></image:image></url>',
  '<url><loc>https://example.com/i8</loc><image:image><image:loc>https://example.com/i8.jpg</image:loc><image:license>/relative</image:license></image:image></url>',
  '<url><loc>https://example.com/i9</loc><image:image><image:loc>https://example.com/i9.jpg</image:loc><image:caption>tab\there \u0001</image:caption></image:image></url>',
  '<url><image:image><image:loc>https://example.com/o8.jpg</image:loc></image:image><loc>https://example.com/o8</loc></url>',
  '<url><loc>https://example.com/o9</loc><image:image><image:loc>https://example.com/o9.jpg</image:loc></image:image>\n<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/></url>',
  '<url><loc>https://example.com/h1</loc>\n  <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/h1?a=1&amp;b=2"/>\n  <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/h1" />\n</url>',
  '<url><loc>https://example.com/h2</loc><xhtml:link rel="alternate" hreflang="en" href="https://example.com/en"/><image:image><image:loc>https://example.com/h2.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr"/></url>',
  '<url><loc>https://example.com/h3</loc><xhtml:link hreflang="de" rel="alternate" href="https://example.com/de"/></url>',
  "<url><loc>https://example.com/h4</loc><xhtml:link rel='alternate' hreflang='de' href='https://example.com/de'/></url>",
  '<url><loc>https://example.com/h5</loc><xhtml:link rel="alternate" hreflang="" href="https://example.com/de"/></url>',
  '<url><loc>https://example.com/h6</loc><xhtml:link rel="alternate" hreflang="de" href="/relative"/></url>',
  '<url><loc>https://example.com/h7</loc><xhtml:link rel="alternate" hreflang="de" href=" https://example.com/de "/></url>',
  '<url><loc>https://example.com/h8</loc><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"></xhtml:link></url>',
  '<url><loc>https://example.com/h9</loc><xhtml:link rel="alternate" hreflang="de&amp;" href="https://example.com/de"/></url>',
  '<url><loc>https://example.com/p</loc><foo>x</foo></url>',
  // Values at the edges of what the fast path matches as valid.
  '<url><loc>https://example.com/v1</loc><priority>+.5</priority></url>',
  '<url><loc>https://example.com/v2</loc><priority>1.</priority></url>',
  '<url><loc>https://example.com/v3</loc><priority>00.50</priority></url>',
  '<url><loc>https://example.com/v4</loc><priority>1.5</priority></url>',
  '<url><loc>https://example.com/v5</loc><priority>-0</priority></url>',
  '<url><loc>https://example.com/v6</loc><priority>1e-1</priority></url>',
  '<url><loc>https://example.com/v7</loc><lastmod>2024-02-29</lastmod></url>',
  '<url><loc>https://example.com/v8</loc><lastmod>2023-02-29</lastmod></url>',
  '<url><loc>https://example.com/v9</loc><lastmod>2024-04-31T10:00Z</lastmod></url>',
  '<url><loc>https://example.com/va</loc><lastmod>2024-01-31T23:59:59.123-14:00</lastmod></url>',
  '<url><loc>https://example.com/vb</loc><lastmod>2024-01-30T10:00:00+14:30</lastmod></url>',
  '<url><loc>https://example.com/vc</loc><lastmod>2024-01-30T10:00:00</lastmod></url>',
  '<url><loc>https://example.com/vd</loc><lastmod>2024-01-30T24:00Z</lastmod></url>',
  '<url><loc>https://example.com/ve</loc><lastmod>2024-13</lastmod></url>',
  '<url><loc>https://example.com/vf</loc><lastmod>2024</lastmod><changefreq>never</changefreq></url>',
  '<url><loc></loc></url>',
  '<url></url>',
  '<url>https://example.com/q</url>',
  '<url><loc>https://example.com/r</loc ></url>',
  '<url><LOC>https://example.com/s</LOC></url>',
  '<url><loc>https://example.com/t&#x41;</loc></url>',
];

test('plain url blocks: each shape reads the same with and without the fast path', async () => {
  for (const block of BLOCKS) {
    const { fast, general } = await readBothWays(urlset(block));
    assert.deepEqual(fast, general, block);
  }
});

/** An index around `body`. */
const sitemapindex = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;

const INDEX_BLOCKS = [
  '<sitemap><loc>https://example.com/s1.xml</loc></sitemap>',
  '<sitemap>\n  <loc>https://example.com/s2.xml.gz?a=1&amp;b=2</loc>\n  <lastmod>2024-05-01T10:00:00+02:00</lastmod>\n</sitemap>',
  '<sitemap><loc>https://example.com/s3.xml</loc><lastmod>2023-02-29</lastmod></sitemap>',
  '<sitemap><lastmod>2024-05-01</lastmod><loc>https://example.com/s4.xml</loc></sitemap>',
  '<sitemap><loc>https://example.com/s5.xml</loc><loc>https://example.com/s6.xml</loc></sitemap>',
  '<sitemap><loc> https://example.com/s7.xml </loc></sitemap>',
  '<sitemap><loc>https://example.com/s8.xml</loc><changefreq>daily</changefreq></sitemap>',
  '<sitemap><loc>https://example.com/s9.xml</loc><priority>0.5</priority></sitemap>',
  '<sitemap><loc>/relative.xml</loc></sitemap>',
  '<sitemap>https://example.com/bare.xml</sitemap>',
  '<sitemap></sitemap>',
  '<url><loc>https://example.com/not-in-an-index</loc></url>',
];

test('plain sitemap blocks: each shape of an index reads the same with and without the fast path, cut anywhere', async () => {
  for (const block of INDEX_BLOCKS) {
    const { fast, general } = await readBothWays(sitemapindex(block));
    assert.deepEqual(fast, general, block);
  }
  const xml = sitemapindex(`${PAD}\n${INDEX_BLOCKS.join('\n  ')}`);
  for (let cut = 1000; cut < Buffer.byteLength(xml); cut += 5) {
    const { fast, general } = await readBothWays(xml, [cut]);
    assert.deepEqual(fast, general, `cut at ${cut}`);
  }
});

test('plain url blocks: images under any prefix the root binds, and none without one', async () => {
  const block =
    '<url><loc>https://example.com/a</loc><pic:image><pic:loc>https://example.com/a.jpg</pic:loc></pic:image></url>';
  const bound = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:pic="http://www.google.com/schemas/sitemap-image/1.1">${block}</urlset>`;
  const other = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:pic="https://example.com/not-images">${block}</urlset>`;
  const unbound = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${block}</urlset>`;
  for (const xml of [bound, other, unbound]) {
    const { fast, general } = await readBothWays(xml);
    assert.deepEqual(fast, general, xml);
  }
});

test('plain url blocks: alternates under any prefix the root binds to XHTML', async () => {
  const block =
    '<url><loc>https://example.com/a</loc><h:link rel="alternate" hreflang="de" href="https://example.com/de"/></url>';
  for (const declaration of ['xmlns:h="http://www.w3.org/1999/xhtml"', 'xmlns:h="https://example.com/not-xhtml"', '']) {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ${declaration}>${block}</urlset>`;
    const { fast, general } = await readBothWays(xml);
    assert.deepEqual(fast, general, xml);
  }
});

test('plain url blocks: a whole document cut anywhere past the sniffed head reads the same both ways', async () => {
  const xml = urlset(`${PAD}\n${BLOCKS.join('\n  ')}`);
  for (let cut = 1000; cut < Buffer.byteLength(xml); cut += 7) {
    const { fast, general } = await readBothWays(xml, [cut]);
    assert.deepEqual(fast, general, `cut at ${cut}`);
  }
});

test('plain url blocks: generated documents read the same both ways', async () => {
  await fc.assert(
    fc.asyncProperty(documentSpec, async (spec) => {
      const { fast, general } = await readBothWays(writeDocument(spec));
      assert.deepEqual(fast, general);
    }),
    { numRuns: 200 },
  );
});

test('plain url blocks: a diagnostic about an entry read without positions still names its line and column', async () => {
  // URL-009 is reported at the 50,001st entry, which the fast path reads.
  const blocks = Array.from({ length: 50_001 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`);
  const xml = urlset(blocks.join('\n'));
  const plain = parseSitemap({ text: xml });
  for await (const _ of plain);
  const located = await parseAll({ text: xml });
  const over = plain.diagnostics.find((d) => d.code === 'URL-009');
  assert.deepEqual(
    over,
    located.diagnostics.find((d) => d.code === 'URL-009'),
  );
  assert.equal(over?.line, 3 + 50_000);
  assert.equal(over?.column, 1);
});

test('plain blocks: every XML document of the conformance corpus reads the same both ways', async () => {
  const seen = new Set<string>();
  let read = 0;
  for (const c of loadManifest()) {
    if (seen.has(c.file) || !['urlset', 'sitemapindex'].includes(c.format)) continue;
    seen.add(c.file);
    const bytes = documentBytesOf(c);
    // The 50,000-entry cases are covered by the generated documents and the benchmark.
    if (bytes.length > 1_000_000) continue;
    const { fast, general } = await readBothWays(bytes);
    assert.deepEqual(fast, general, c.id);
    read++;
  }
  assert.ok(read >= 80, `only ${read} documents`);
});

test('plain blocks: real documents with random damage, cut anywhere, read the same both ways', async () => {
  await fc.assert(
    fc.asyncProperty(damagedDocuments(['urlset', 'sitemapindex']), async ({ bytes, cuts }) => {
      const { fast, general } = await readBothWays(bytes, cuts);
      assert.deepEqual(fast, general);
    }),
    { numRuns: 300 },
  );
});

test('plain blocks: a broken namespace declaration on the root never breaks the fast path', async () => {
  // A lenient read of `xmlns:im[age=…` binds the prefix "im[age", which is no XML name.
  for (const prefix of ['im[age', 'i(m)g', 'a*b', 'x\\y']) {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:${prefix}="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://example.com/a</loc></url></urlset>`;
    const { fast, general } = await readBothWays(xml);
    assert.deepEqual(fast, general, prefix);
    assert.equal((fast.entries as unknown[]).length, 1, prefix);
  }
});

/** A urlset's start, its root left open, then `body`: a document for more chunks to follow. */
const openUrlset = (body = ''): string => urlset(body).replace(/\n<\/urlset>\n$/, '');

/**
 * Runs `work` with every read of the plain-block fast path told to `onRead`: the text it was given
 * from `start`, and the run it read.
 */
async function watchingReads<T>(
  onRead: (text: string, start: number, run: PlainRun) => void,
  work: () => Promise<T>,
): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own `this` below
  const read = PlainBlockReader.prototype.read;
  const watching = mock.method(
    PlainBlockReader.prototype,
    'read',
    function (this: PlainBlockReader, text: string, start: number, base: number, final: boolean) {
      const run = read.call(this, text, start, base, final);
      onRead(text, start, run);
      return run;
    },
  );
  try {
    return await work();
  } finally {
    watching.mock.restore();
  }
}

test('plain blocks: whitespace between blocks is read once and let go, however much of it streams in', async () => {
  // A gzip bomb of spaces and line breaks after the root: read again at every chunk, it made the
  // reading quadratic (minutes for the 200 MiB cap) and held it all in memory.
  const chunk = Buffer.from(`${' '.repeat(65_535)}\n`);
  const chunks = 256; // 16 MiB
  // eslint-disable-next-line @typescript-eslint/require-await -- async, as a stream is
  async function* stream(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(openUrlset('<url><loc>https://example.com/a</loc></url>'));
    for (let i = 0; i < chunks; i++) yield chunk;
    yield Buffer.from('<url><loc>https://example.com/b</loc></url></urlset>');
  }
  let scanned = 0;
  const { located, diagnostics } = await watchingReads(
    (text, start) => (scanned += text.length - start),
    () => parseAll(stream()),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    located.map((l) => [l.entry.loc, l.location.line]),
    [
      ['https://example.com/a', 3],
      ['https://example.com/b', 3 + chunks],
    ],
  );
  assert.ok(scanned < 2 * chunks * chunk.length, `${scanned} characters scanned for ${chunks * chunk.length}`);
});

test('plain blocks: runs of white space of every length and kind between blocks read the same both ways', async () => {
  // Around the length at which skipping white space turns from a loop to a regular expression. A
  // run is skipped so where a read starts: after the root, or where the text was cut.
  const runs = [1000, 0, 1, 63, 64, 65, 66, 130].map((length) => ' \t\r\n'.repeat(length).slice(0, length));
  const head = openUrlset();
  let body = '';
  const cuts: number[] = [];
  for (const [i, run] of runs.entries()) {
    cuts.push(Buffer.byteLength(head + body) + 1); // just inside the run, or at the block
    body += `${run}<url><loc>https://example.com/w${i}</loc></url>`;
  }
  const xml = `${head}${body}${' '.repeat(70)}\n</urlset>\n`;
  for (const cut of [[], cuts]) {
    const { fast, general } = await readBothWays(xml, cut);
    assert.deepEqual(fast, general, `cut at ${cut.join(', ')}`);
    assert.equal((fast.entries as unknown[]).length, runs.length);
  }
  // And the fast path reads every block itself, past each run, handing none back.
  let readFast = 0;
  await watchingReads(
    (_text, start, run) => (readFast += run.end - start),
    () => parseAll(inPieces(Buffer.from(xml), cuts)),
  );
  assert.ok(readFast >= body.length - 1, `the fast path read ${readFast} of ${body.length} characters`);
});
