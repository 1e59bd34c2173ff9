import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import {
  createSitemapWriter,
  formatPriority,
  prepareEntry,
  serializeSitemapIndex,
  serializeUrlEntry,
} from '../../src/generate/index.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { BASE_URL, FULL_ENTRY, locsOf } from './entries.js';

async function documentOf(
  entries: Parameters<typeof serializeUrlEntry>[0][],
  options: Parameters<typeof createSitemapWriter>[1] = {},
): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = createSitemapWriter(out, options);
  for (const entry of entries) writer.write(entry);
  const bytes = await writer.end();
  const xml = Buffer.concat(chunks).toString('utf8');
  assert.equal(bytes, Buffer.byteLength(xml), 'end() reports the document size');
  return xml;
}

test('a urlset using every extension tag validates against the official XSDs', async () => {
  const prepared = prepareEntry(FULL_ENTRY, { baseUrl: BASE_URL, allowOtherHosts: false });
  assert.ok(prepared.ok, JSON.stringify(prepared));
  const xml = await documentOf([prepared.entry, { kind: 'url', loc: `${BASE_URL}plain` }]);
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset '), 'declaration at byte 0');
  const result = await validateAgainstXsd(xml, 'extensions');
  assert.deepEqual(result.errors, []);
  assert.equal(result.valid, true);
  assert.deepEqual(locsOf(xml), [FULL_ENTRY.loc, `${BASE_URL}plain`]);
  assert.match(xml, /<image:caption>Tent &lt;front&gt; &amp; &quot;door&quot;<\/image:caption>/);
  assert.match(xml, /<video:restriction relationship="deny">KP IR<\/video:restriction>/);
  assert.match(xml, /<news:genres>Blog, OpEd<\/news:genres>/);
});

test('a plain urlset with no extension namespaces validates against sitemap.xsd alone', async () => {
  const xml = await documentOf(
    [{ kind: 'url', loc: `${BASE_URL}a`, lastmod: '2024-01-02', changefreq: 'daily', priority: 1 }],
    { namespaces: [] },
  );
  assert.doesNotMatch(xml, /xmlns:/);
  assert.match(xml, /<priority>1\.0<\/priority>/);
  assert.equal((await validateAgainstXsd(xml, 'sitemap')).valid, true);
});

test('an extension whose namespace the root does not declare is declared on its own <url>, and still validates', async () => {
  const prepared = prepareEntry(FULL_ENTRY, { baseUrl: BASE_URL, allowOtherHosts: false });
  assert.ok(prepared.ok);
  const xml = await documentOf([prepared.entry, { kind: 'url', loc: `${BASE_URL}b` }], { namespaces: ['image'] });
  assert.match(xml, /<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9" xmlns:image="[^"]+">/);
  assert.match(
    xml,
    /<url xmlns:video="http:\/\/www\.google\.com\/schemas\/sitemap-video\/1\.1" xmlns:news="[^"]+" xmlns:xhtml="[^"]+">/,
  );
  assert.match(xml, /<url><loc>https:\/\/www\.example\.com\/b<\/loc><\/url>/, 'a plain URL declares nothing');
  assert.deepEqual((await validateAgainstXsd(xml, 'extensions')).errors, []);
});

test('the stylesheet variant validates and carries the processing instruction (XSL or CSS by extension)', async () => {
  const xsl = await documentOf([{ kind: 'url', loc: `${BASE_URL}a` }], {
    stylesheet: 'https://www.example.com/sitemap.xsl?v=1&x=2',
  });
  assert.match(
    xsl,
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<\?xml-stylesheet type="text\/xsl" href="https:\/\/www\.example\.com\/sitemap\.xsl\?v=1&amp;x=2"\?>\n<urlset/,
  );
  assert.equal((await validateAgainstXsd(xsl, 'extensions')).valid, true);
  const css = await documentOf([{ kind: 'url', loc: `${BASE_URL}a` }], { stylesheet: '/sitemap.css' });
  assert.match(css, /<\?xml-stylesheet type="text\/css" href="\/sitemap\.css"\?>/);
  const index = serializeSitemapIndex([{ loc: `${BASE_URL}sitemap-0.xml` }], { stylesheet: '/index.xsl' });
  assert.match(index, /<\?xml-stylesheet type="text\/xsl" href="\/index\.xsl"\?>\n<sitemapindex/);
  assert.equal((await validateAgainstXsd(index, 'siteindex')).valid, true);
});

test('a sitemap index validates against siteindex.xsd, lastmod only where given', async () => {
  const xml = serializeSitemapIndex([
    { loc: `${BASE_URL}sitemap-0.xml.gz`, lastmod: '2024-05-01T10:00:00+02:00' },
    { loc: `${BASE_URL}sitemap-1.xml.gz` },
  ]);
  assert.deepEqual(locsOf(xml), [`${BASE_URL}sitemap-0.xml.gz`, `${BASE_URL}sitemap-1.xml.gz`]);
  assert.match(xml, /<sitemap><loc>[^<]+<\/loc><\/sitemap>/);
  assert.deepEqual((await validateAgainstXsd(xml, 'siteindex')).errors, []);
});

test('text that XML forbids is removed and the five specials escaped, so no input breaks the document', async () => {
  const xml = await documentOf([
    {
      kind: 'url',
      loc: `${BASE_URL}a`,
      images: [{ loc: 'https://cdn.example.com/i.jpg', caption: 'bell\u0007 and <b>&amp;</b> \ud800 done' }],
    },
  ]);
  assert.match(xml, /<image:caption>bell and &lt;b&gt;&amp;amp;&lt;\/b&gt; {2}done<\/image:caption>/);
  assert.equal((await validateAgainstXsd(xml, 'extensions')).valid, true);
});

test('write() returns the exact UTF-8 bytes it added; text format writes one URL per line', async () => {
  const out = new PassThrough();
  const writer = createSitemapWriter(out, { format: 'txt' });
  assert.equal(writer.write({ kind: 'url', loc: `${BASE_URL}z%C3%BCrich` }), `${BASE_URL}z%C3%BCrich\n`.length);
  writer.write({ kind: 'url', loc: `${BASE_URL}b` });
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writer.end();
  assert.equal(Buffer.concat(chunks).toString(), `${BASE_URL}z%C3%BCrich\n${BASE_URL}b\n`);
  const xmlWriter = createSitemapWriter(new PassThrough());
  assert.equal(
    xmlWriter.write({ kind: 'url', loc: `${BASE_URL}a`, images: [{ loc: `${BASE_URL}i.jpg`, title: 'Zürich' }] }),
    Buffer.byteLength(
      serializeUrlEntry({ kind: 'url', loc: `${BASE_URL}a`, images: [{ loc: `${BASE_URL}i.jpg`, title: 'Zürich' }] }),
    ),
  );
});

test('priority is written as the XSD decimal', () => {
  assert.equal(formatPriority(1), '1.0');
  assert.equal(formatPriority(0), '0.0');
  assert.equal(formatPriority(0.85), '0.85');
});
