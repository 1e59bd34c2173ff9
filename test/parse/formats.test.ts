import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { NS } from '../../src/core/namespaces.js';
import { rfc822ToW3c } from '../../src/parse/index.js';
import { parseAll, parseText, urlset } from './helpers.js';

test('RSS 2.0: item links with pubDate (RFC 822 → W3C, offset kept); guid stands in for a missing link', async () => {
  const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><link>https://example.com/</link>
<item><link>https://example.com/1</link><pubDate>Thu, 17 Dec 2009 12:04:56 +0200</pubDate></item>
<item><guid>https://example.com/2</guid><dc:date>2009-12-17</dc:date></item>
<item><title>no link</title></item>
<item><link>https://example.com/3</link><pubDate>yesterday</pubDate></item>
</channel></rss>`;
  const { kind, entries, codes } = await parseText(rss);
  assert.equal(kind, 'rss');
  assert.deepEqual(entries, [
    { kind: 'url', loc: 'https://example.com/1', lastmod: '2009-12-17T12:04:56+02:00' },
    { kind: 'url', loc: 'https://example.com/2', lastmod: '2009-12-17' },
    { kind: 'url', loc: 'https://example.com/3' },
  ]);
  assert.deepEqual(codes, ['FEED-002', 'FEED-002']);
});

test('RFC 822 dates: zones, two-digit years, no weekday; no zone is not a date', () => {
  assert.equal(rfc822ToW3c('Sun, 06 Sep 2009 16:20:00 +0000'), '2009-09-06T16:20:00+00:00');
  assert.equal(rfc822ToW3c('5 Jan 17 12:34:53 EST'), '2017-01-05T12:34:53-05:00');
  assert.equal(rfc822ToW3c('Thu, 05 Jan 2017 12:34:50 GMT'), '2017-01-05T12:34:50+00:00');
  assert.equal(rfc822ToW3c('Thu, 05 Jan 2017 12:34:50'), undefined);
  assert.equal(rfc822ToW3c('31 Feb 2017 12:00 GMT'), undefined);
});

test('RSS 1.0 (RDF) and Atom 1.0 / 0.3: links and dates', async () => {
  const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://example.com/"><link>https://example.com/</link></channel>
<item rdf:about="https://example.com/a"><link>https://example.com/a</link><dc:date>2024-05-01T10:00:00Z</dc:date></item></rdf:RDF>`;
  const r = await parseText(rdf);
  assert.deepEqual(
    [r.kind, r.entries],
    ['rss', [{ kind: 'url', loc: 'https://example.com/a', lastmod: '2024-05-01T10:00:00Z' }]],
  );
  const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://example.com/"/>
<entry><link rel="edit" href="https://example.com/e?edit"/><link href="https://example.com/e"/><updated>2024-05-01T10:00:00Z</updated></entry>
<entry><link rel="alternate" type="text/html" href="https://example.com/f"/><updated>soon</updated></entry></feed>`;
  const a = await parseText(atom);
  assert.deepEqual(
    [a.kind, a.entries, a.codes],
    [
      'atom',
      [
        { kind: 'url', loc: 'https://example.com/e', lastmod: '2024-05-01T10:00:00Z' },
        { kind: 'url', loc: 'https://example.com/f' },
      ],
      ['FEED-002'],
    ],
  );
  const atom03 = `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" href="https://example.com/o"/><modified>2024-05-01T10:00:00Z</modified></entry></feed>`;
  assert.deepEqual((await parseText(atom03)).entries, [
    { kind: 'url', loc: 'https://example.com/o', lastmod: '2024-05-01T10:00:00Z' },
  ]);
});

test('text sitemaps: one URL per line; other lines are skipped with TXT-001 and their line number', async () => {
  const { kind, entries, diagnostics, located } = await parseText(
    '\uFEFFhttps://example.com/1\r\n  https://example.com/2  \nwww.example.com/3\n\nftp://example.com/4\nhttps://example.com/5',
  );
  assert.equal(kind, 'text');
  assert.deepEqual(
    entries.map((e) => e.loc),
    ['https://example.com/1', 'https://example.com/2', 'https://example.com/5'],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.line]),
    [
      ['XML-002', 1],
      ['URL-003', 2],
      ['TXT-001', 3],
      ['TXT-001', 4],
      ['TXT-001', 5],
    ],
  );
  assert.deepEqual(located[1]!.location, { line: 2, column: 3, fields: { loc: { line: 2, column: 3 } } });
  const bogus = await parseText('this is a bogus sitemap');
  assert.deepEqual([bogus.entries, bogus.codes], [[], ['TXT-001']]);
});

const LATIN = urlset(
  '<url><loc>https://example.com/caf\u00e9</loc><image:image><image:loc>https://example.com/\u20ac.png</image:loc><image:title>Gr\u00fc\u00dfe</image:title></image:image></url>',
);

test('encodings: ISO-8859-1 and Windows-1252 declared, UTF-16 with a BOM, all decoded (XML-003)', async () => {
  const expected = [
    { kind: 'url', loc: 'https://example.com/café', images: [{ loc: 'https://example.com/€.png', title: 'Grüße' }] },
  ];
  const declared = (label: string) => LATIN.replace('encoding="UTF-8"', `encoding="${label}"`);
  const cp1252 = Buffer.from(declared('windows-1252').replace('\u20ac', '\x80'), 'latin1');
  const w = await parseAll(cp1252);
  assert.deepEqual(w.entries, expected);
  assert.deepEqual(w.codes.filter((c) => c === 'XML-003').length, 1);
  const latin1 = Buffer.from(declared('ISO-8859-1').replace('\u20ac', 'E'), 'latin1');
  assert.deepEqual((await parseAll(latin1)).entries[0]!.loc, 'https://example.com/café');
  for (const [bom, encoding] of [
    [[0xff, 0xfe], 'utf16le'],
    [[0xfe, 0xff], 'utf16be'],
  ] as const) {
    const body = Buffer.from(declared('UTF-16'), 'utf16le');
    if (encoding === 'utf16be') body.swap16();
    const r = await parseAll(Buffer.concat([Buffer.from(bom), body]));
    assert.deepEqual(r.entries, expected, encoding);
    assert.ok(r.codes.includes('XML-003'), encoding);
  }
});

test('a UTF-8 BOM is accepted with an info diagnostic (nothing lost); invalid UTF-8 bytes are reported once (XML-003)', async () => {
  const withBom = await parseAll(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LATIN)]));
  assert.equal(withBom.entries.length, 1);
  const xmlDiagnostics = withBom.diagnostics.filter((d) => d.code.startsWith('XML'));
  assert.deepEqual(
    xmlDiagnostics.map((d) => [d.code, d.severity, d.line, d.column]),
    [['XML-002', 'info', 1, 1]],
  );
  const broken = Buffer.from(LATIN.replace('caf\u00e9', 'cafX'));
  broken[broken.indexOf('cafX') + 3] = 0xe9;
  const r = await parseAll(broken);
  assert.equal(r.entries[0]!.loc, 'https://example.com/caf\uFFFD');
  assert.ok(r.codes.includes('XML-003'));
});

test('gzip is told from the bytes; gzip inside gzip is unwrapped; corrupt gzip and zip are FETCH-005', async () => {
  const xml = urlset('<url><loc>https://example.com/g</loc></url>');
  const once = await parseAll(gzipSync(xml), { source: 'sitemap.xml' });
  assert.deepEqual(
    once.entries.map((e) => e.loc),
    ['https://example.com/g'],
  );
  const twice = await parseAll(gzipSync(gzipSync(xml)));
  assert.deepEqual(
    twice.entries.map((e) => e.loc),
    ['https://example.com/g'],
  );
  const many = urlset(
    Array.from({ length: 2000 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join('\n'),
  );
  const cut = gzipSync(many).subarray(0, 3000);
  const damaged = await parseAll(cut);
  assert.ok(damaged.entries.length > 0 && damaged.entries.length < 2000);
  assert.ok(damaged.codes.includes('FETCH-005'));
  const zip = await parseAll(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(40)]));
  assert.deepEqual([zip.entries, zip.codes], [[], ['FETCH-005']]);
});

test('stats count bytes in and out, entries by kind', async () => {
  const { parseSitemap } = await import('../../src/parse/index.js');
  const xml = urlset('<url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url>');
  const packed = gzipSync(xml);
  const parsed = parseSitemap(packed);
  for await (const _ of parsed);
  assert.deepEqual(parsed.stats, {
    bytesIn: packed.length,
    bytesDecoded: Buffer.byteLength(xml),
    gzip: true,
    entries: 2,
    urls: 2,
    sitemaps: 0,
  });
  assert.equal(parsed.kind, 'urlset');
  assert.equal(NS.sitemap.startsWith('http://'), true);
});
