/**
 * Chunk boundaries: every document must read the same however its bytes are cut, since a stream
 * may cut anywhere (inside a tag, a reference, a CDATA terminator, a CRLF, a UTF-8 sequence).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { documentBytesOf, loadManifest } from '../helpers/conformance.js';
import { damagedDocuments } from './damage.js';
import { entryBatches, parseSitemap } from '../../src/parse/index.js';
import { inPieces, parseAll, urlset, type ParseResult } from './helpers.js';

/**
 * The reader looks at the first kilobyte as a whole before streaming, so each document starts
 * with padding: the parts worth cutting lie beyond it, where cuts reach the tokenizer.
 */
const PAD = `<!--${'p'.repeat(1100)}-->`;
const padded = (xml: string) => xml.replace(/^(<\?xml[^>]*>)/, `$1${PAD}`);

const DOCUMENTS: Record<string, Buffer> = {
  urlset: Buffer.from(
    padded(
      urlset(`<!-- a comment with <tags> and ]]> -->
<url>\r\n<loc><![CDATA[https://example.com/ü?a=1&b=2]]></loc><lastmod>2024-05-01T10:00:00+02:00</lastmod>
  <image:image><image:loc>https://example.com/i.jpg</image:loc><image:title>Grüße &amp; 日本 &#128512; &#x1F600;</image:title></image:image>
  <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de?x=1&amp;y=2"/>
</url><?pi some data?>
<url><loc>https://example.com/raw&b</loc><priority>0.5</priority></url>
<url><loc>  https://example.com/padded  </loc><changefreq> daily</changefreq></url>
<url><loc>https://example.com/plain</loc><lastmod>2024-05-01</lastmod></url>`),
    ),
  ),
  sitemapindex: Buffer.from(
    padded(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2024-05-01</lastmod></sitemap>
  <sitemap><loc> https://example.com/s2.xml </loc></sitemap>
  <sitemap><loc>https://example.com/s3.xml</loc></sitemap>
</sitemapindex>`),
  ),
  rss: Buffer.from(
    padded(
      `<?xml version="1.0"?><rss version="2.0"><channel><item><link>https://example.com/r</link><pubDate>Thu, 17 Dec 2009 12:04:56 +0200</pubDate></item></channel></rss>`,
    ),
  ),
  text: Buffer.from(
    `${Array.from({ length: 50 }, (_, i) => `https://example.com/pad/${i}`).join('\n')}\nhttps://example.com/1\r\nnot a url\nhttps://example.com/ü\n`,
  ),
  utf16: Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(padded(urlset('<url><loc>https://example.com/€</loc></url>').replace('UTF-8', 'UTF-16')), 'utf16le'),
  ]),
};

const summary = (r: ParseResult) => ({ entries: r.located, diagnostics: r.diagnostics });

for (const [name, bytes] of Object.entries(DOCUMENTS)) {
  test(`chunk boundaries: ${name} reads the same cut at every offset`, async () => {
    const whole = summary(await parseAll(bytes));
    assert.ok(whole.entries.length > 0);
    assert.ok(bytes.length > 1124, 'the interesting part must lie beyond the first kilobyte');
    // Cuts inside the first kilobyte are joined again before reading; they are tried once a byte at a time below.
    for (let cut = 1000; cut < bytes.length; cut++) {
      assert.deepEqual(summary(await parseAll(inPieces(bytes, [cut]))), whole, `cut at ${cut}`);
    }
    const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
    assert.deepEqual(summary(await parseAll(inPieces(bytes, everyByte))), whole, 'one byte at a time');
  });
}

test('chunk boundaries: gzip cut at every 7th byte', async () => {
  const packed = gzipSync(DOCUMENTS['urlset']!);
  const whole = summary(await parseAll(packed));
  for (let cut = 1; cut < packed.length; cut += 7)
    assert.deepEqual(summary(await parseAll(inPieces(packed, [cut]))), whole, `cut at ${cut}`);
});

test('chunk boundaries: the XML documents of the conformance corpus read the same cut anywhere past the sniffed head', async () => {
  const seen = new Set<string>();
  let cutDocuments = 0;
  for (const c of loadManifest()) {
    if (seen.has(c.file) || !['urlset', 'sitemapindex', 'rss', 'atom'].includes(c.format)) continue;
    seen.add(c.file);
    const bytes = documentBytesOf(c);
    // Long enough to cut past the head, short enough to read once per cut (the long ones hold nothing new).
    if (bytes.length <= 1100 || bytes.length > 64 * 1024) continue;
    cutDocuments++;
    const whole = summary(await parseAll(bytes));
    // An odd step, so that cuts fall at every kind of place across the corpus; at most ~150 cuts a document.
    const step = Math.max(37, Math.floor(bytes.length / 150)) | 1;
    for (let cut = 1024; cut < bytes.length; cut += step) {
      assert.deepEqual(summary(await parseAll(inPieces(bytes, [cut]))), whole, `${c.id} cut at ${cut}`);
    }
  }
  assert.ok(cutDocuments >= 20, `only ${cutDocuments} documents are long enough to cut`);
});

test('chunk boundaries: a long block trickling in one byte at a time reads as it does whole', async () => {
  // A cut block waits for more text; it must still be read right when the text comes a byte at a time.
  const images = Array.from(
    { length: 300 },
    (_, i) => `<image:image><image:loc>https://example.com/${i}.jpg</image:loc></image:image>`,
  ).join('\n');
  const bytes = Buffer.from(
    padded(
      urlset(`<url><loc>https://example.com/a</loc>\n${images}</url>\n<url><loc>https://example.com/b</loc></url>`),
    ),
  );
  const whole = summary(await parseAll(bytes));
  assert.equal(whole.entries[0]!.location.fields['images.299.loc']?.line, 303);
  const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
  assert.deepEqual(summary(await parseAll(inPieces(bytes, everyByte))), whole);
});

test('chunk boundaries: real documents with random damage read the same cut anywhere', async () => {
  await fc.assert(
    fc.asyncProperty(damagedDocuments(['urlset', 'sitemapindex', 'rss', 'atom']), async ({ bytes, cuts }) => {
      assert.deepEqual(summary(await parseAll(inPieces(bytes, cuts))), summary(await parseAll(bytes)));
    }),
    { numRuns: 300 },
  );
});

test(
  'chunk boundaries: a damaged index whose text is placed from behind after a cut reads to its end (it looped forever)',
  { timeout: 10_000 },
  async () => {
    // Found by random damage: crawler-commons' index of bare-text sitemaps, a character dropped,
    // one replaced by ">" and an "&" inserted, cut twice. Counting lines back from a chunk that
    // starts with a line break found that break again and again.
    const original = documentBytesOf(
      loadManifest().find((c) => c.id === 'crawler-commons/sitemap.index-missing-loc')!,
    ).toString('utf8');
    let xml = original.slice(0, 440) + original.slice(441);
    xml = `${xml.slice(0, 669)}>${xml.slice(670)}`;
    xml = `${xml.slice(0, 1314)}&${xml.slice(1314)}`;
    const bytes = Buffer.from(xml);
    const whole = summary(await parseAll(bytes));
    assert.deepEqual(summary(await parseAll(inPieces(bytes, [1165, 1258]))), whole);
  },
);

test('a stream that breaks off: every entry complete before the break is kept, however the bytes were cut', async () => {
  // Plain blocks (the fast path, which waits for 4 KiB more text before it reads a cut block
  // again) and blocks only the general path reads; the break falls anywhere, in the head held for sniffing too.
  const blocks = Array.from({ length: 400 }, (_, i) =>
    i % 3 === 0
      ? `<url><loc>https://example.com/general/${i}</loc><!-- read by the lexer --></url>`
      : `<url><loc>https://example.com/plain/${i}</loc><lastmod>2024-05-01</lastmod></url>`,
  );
  const text = urlset(blocks.join('\n'));
  const bytes = Buffer.from(text);
  const locsBefore = (end: number) =>
    [...text.slice(0, end).matchAll(/<url><loc>([^<]*)<\/loc>.*?<\/url>/g)].map((match) => match[1]);
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: bytes.length - 1 }),
      fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 6 }),
      async (breakAt, cuts) => {
        async function* breaking(): AsyncGenerator<Uint8Array> {
          yield* inPieces(
            bytes.subarray(0, breakAt),
            cuts.filter((cut) => cut < breakAt).sort((a, b) => a - b),
          );
          throw new Error('the connection broke off');
        }
        const kept: string[] = [];
        await assert.rejects(async () => {
          for await (const batch of entryBatches(parseSitemap(breaking())))
            for (const entry of batch) kept.push(entry.loc);
        }, /broke off/);
        assert.deepEqual(kept, locsBefore(breakAt));
      },
    ),
    { numRuns: 150 },
  );
});
