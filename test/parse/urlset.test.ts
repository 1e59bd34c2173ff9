import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NS } from '../../src/core/namespaces.js';
import { ParseError } from '../../src/parse/index.js';
import { parseAll, parseText, urlset } from './helpers.js';

test('a urlset with every core field, positions of the entry and of each value', async () => {
  const xml = urlset(`  <url>
    <loc>https://example.com/a</loc>
    <lastmod>2024-05-01T10:00:00+02:00</lastmod>
    <changefreq>daily</changefreq>
    <priority>0.8</priority>
  </url>`);
  const result = await parseText(xml);
  assert.equal(result.kind, 'urlset');
  assert.deepEqual(result.entries, [
    {
      kind: 'url',
      loc: 'https://example.com/a',
      lastmod: '2024-05-01T10:00:00+02:00',
      changefreq: 'daily',
      priority: 0.8,
    },
  ]);
  assert.deepEqual(result.diagnostics, []);
  const { location } = result.located[0]!;
  assert.deepEqual([location.line, location.column], [3, 3]);
  assert.deepEqual(location.fields, {
    loc: { line: 4, column: 10 },
    lastmod: { line: 5, column: 14 },
    changefreq: { line: 6, column: 17 },
    priority: { line: 7, column: 15 },
  });
});

test('elements are matched by namespace URI, whatever the prefix', async () => {
  const xml = `<sm:urlset xmlns:sm="${NS.sitemap}" xmlns:pic="${NS.image}"><sm:url><sm:loc>https://example.com/p</sm:loc>
    <pic:image><pic:loc>https://example.com/p.jpg</pic:loc></pic:image></sm:url></sm:urlset>`;
  const { entries, diagnostics } = await parseText(xml);
  assert.deepEqual(entries, [
    { kind: 'url', loc: 'https://example.com/p', images: [{ loc: 'https://example.com/p.jpg' }] },
  ]);
  assert.deepEqual(diagnostics, []);
  // A prefix that names another namespace is not the image extension, whatever it is called.
  const other = `<urlset xmlns="${NS.sitemap}" xmlns:image="urn:other"><url><loc>https://example.com/q</loc><image:image><image:loc>https://example.com/q.jpg</image:loc></image:image></url></urlset>`;
  assert.deepEqual((await parseText(other)).entries, [{ kind: 'url', loc: 'https://example.com/q' }]);
});

test('a missing, legacy or misspelt core namespace is read with XML-004', async () => {
  for (const ns of ['', 'http://www.google.com/schemas/sitemap/0.84', 'https://www.sitemaps.org/schemas/sitemap/0.9']) {
    const xml = `<urlset${ns ? ` xmlns="${ns}"` : ''}><url><loc>https://example.com/x</loc></url></urlset>`;
    const { entries, codes } = await parseText(xml);
    assert.deepEqual(entries, [{ kind: 'url', loc: 'https://example.com/x' }], ns);
    assert.deepEqual(codes, ['XML-004'], ns);
  }
});

test('upper-case core names are read with XML-007; undeclared extension prefixes with XML-001', async () => {
  const upper = await parseText(`<urlset xmlns="${NS.sitemap}"><URL><LOC>https://example.com/u</LOC></URL></urlset>`);
  assert.deepEqual(upper.entries, [{ kind: 'url', loc: 'https://example.com/u' }]);
  assert.ok(upper.codes.includes('XML-007'));
  const undeclared = await parseText(
    `<urlset xmlns="${NS.sitemap}"><url><loc>https://example.com/i</loc><image:image><image:loc>https://example.com/i.png</image:loc></image:image></url></urlset>`,
  );
  assert.deepEqual(undeclared.entries[0], {
    kind: 'url',
    loc: 'https://example.com/i',
    images: [{ loc: 'https://example.com/i.png' }],
  });
  assert.deepEqual(undeclared.codes, ['XML-001']);
});

test('CDATA, character references and the five entities are decoded; a raw & is kept with XML-005', async () => {
  const { entries, diagnostics } = await parseText(
    urlset(`<url><loc><![CDATA[https://example.com/?a=1&b=2]]></loc></url>
<url><loc>https://example.com/&#x3F;q=&#49;&amp;r=&lt;&gt;&quot;&apos;</loc></url>
<url><loc>https://example.com/?a=1&b=2</loc></url>`),
  );
  assert.deepEqual(
    entries.map((e) => e.loc),
    ['https://example.com/?a=1&b=2', `https://example.com/?q=1&r=<>"'`, 'https://example.com/?a=1&b=2'],
  );
  const raw = diagnostics.find((d) => d.code === 'XML-005');
  assert.ok(raw);
  assert.deepEqual([raw.line, raw.column], [5, 35]);
});

test('whitespace around a loc is trimmed with URL-003 (warning); forbidden characters are kept with URL-003', async () => {
  const { entries, diagnostics } = await parseText(urlset('<url><loc>\n  https://example.com/a b\u00a0</loc></url>'));
  assert.deepEqual(
    entries.map((e) => e.loc),
    ['https://example.com/a b'],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity]),
    [
      ['URL-003', 'warning'],
      ['URL-003', 'error'],
    ],
  );
});

test('relative locs resolve against baseUrl with URL-001; without one, and non-http locs, are dropped', async () => {
  const xml = urlset(
    '<url><loc>/p/1</loc></url><url><loc>javascript:alert(1)</loc></url><url><loc>ftp://example.com/f</loc></url>',
  );
  const withBase = await parseText(xml, { baseUrl: 'https://example.com/dir/sitemap.xml' });
  assert.deepEqual(
    withBase.entries.map((e) => e.loc),
    ['https://example.com/p/1'],
  );
  assert.equal(withBase.codes.filter((c) => c === 'URL-001').length, 3);
  const withoutBase = await parseText(xml);
  assert.deepEqual(withoutBase.entries, []);
});

test('invalid lastmod, changefreq and priority drop the field, never the entry', async () => {
  const { entries, codes } = await parseText(
    urlset(`<url><loc>https://example.com/1</loc><lastmod>2024-13-01</lastmod><changefreq>sometimes</changefreq><priority>1.5</priority></url>
<url><loc>https://example.com/2</loc><lastmod>2024-05-01T10:00</lastmod><changefreq>Daily</changefreq><priority>0,5</priority></url>
<url><loc>https://example.com/3</loc><lastmod>21/05/2026</lastmod><lastmod>2024</lastmod><priority>.5</priority></url>`),
  );
  assert.deepEqual(entries, [
    { kind: 'url', loc: 'https://example.com/1' },
    { kind: 'url', loc: 'https://example.com/2', changefreq: 'daily' },
    { kind: 'url', loc: 'https://example.com/3', priority: 0.5 },
  ]);
  assert.deepEqual(codes, [
    'DATE-003',
    'FREQ-001',
    'PRIO-001',
    'DATE-002',
    'FREQ-001',
    'PRIO-001',
    'XML-008',
    'DATE-001',
  ]);
});

test('a url without loc is dropped with XML-009; empty values with XML-010; order with XML-011; repeats with XML-008', async () => {
  const { entries, codes } = await parseText(
    urlset(`<url><lastmod>2024-01-01</lastmod></url>
<url><loc>https://example.com/b</loc><lastmod/></url>
<url><lastmod>2024-01-01</lastmod><loc>https://example.com/c</loc><loc>https://example.com/d</loc></url>`),
  );
  assert.deepEqual(
    entries.map((e) => e.loc),
    ['https://example.com/b', 'https://example.com/c'],
  );
  assert.deepEqual(codes, ['XML-009', 'XML-010', 'XML-008', 'XML-011']);
});

test('every video tag and attribute, news, images and alternates map to the entry model; an incomplete video keeps what it has', async () => {
  const xml = urlset(`<url><loc>https://example.com/v</loc>
  <image:image><image:loc>https://example.com/i.jpg</image:loc><image:caption>Cap</image:caption><image:title>T</image:title><image:geo_location>Limerick</image:geo_location><image:license>https://example.com/lic</image:license></image:image>
  <image:image><image:caption>no loc</image:caption></image:image>
  <video:video>
    <video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>
    <video:title>Grilling</video:title>
    <video:description><![CDATA[Steaks & <more>]]></video:description>
    <video:content_loc>https://example.com/v.mp4</video:content_loc>
    <video:player_loc>https://example.com/player?v=1</video:player_loc>
    <video:duration>99999</video:duration>
    <video:expiration_date>2030-11-05T19:20:30+08:00</video:expiration_date>
    <video:rating>4.2</video:rating>
    <video:view_count>12345</video:view_count>
    <video:publication_date>2007-11-05T19:20:30+08:00</video:publication_date>
    <video:family_friendly>yes</video:family_friendly>
    <video:restriction relationship="allow">IE GB US</video:restriction>
    <video:platform relationship="deny">web tv</video:platform>
    <video:requires_subscription>no</video:requires_subscription>
    <video:uploader info="https://example.com/u">Grilly</video:uploader>
    <video:live>no</video:live>
    <video:tag>steak</video:tag><video:tag>summer</video:tag>
  </video:video>
  <video:video><video:title>no thumbnail</video:title></video:video>
  <news:news><news:publication><news:name>The Times</news:name><news:language>en</news:language></news:publication>
    <news:publication_date>2024-05-01</news:publication_date><news:title>Merger</news:title>
    <news:keywords>business, merger</news:keywords><news:genres>PressRelease, Blog</news:genres><news:stock_tickers>NASDAQ:A, NASDAQ:B</news:stock_tickers></news:news>
  <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/v"/>
  <xhtml:link rel="alternate" href="https://example.com/x"/>
  <xhtml:link rel="amphtml" href="https://example.com/amp"/>
</url>`);
  const { entries, codes, located } = await parseText(xml);
  assert.deepEqual(entries, [
    {
      kind: 'url',
      loc: 'https://example.com/v',
      images: [
        {
          loc: 'https://example.com/i.jpg',
          caption: 'Cap',
          title: 'T',
          geoLocation: 'Limerick',
          license: 'https://example.com/lic',
        },
      ],
      videos: [
        {
          thumbnailLoc: 'https://example.com/t.jpg',
          title: 'Grilling',
          description: 'Steaks & <more>',
          contentLoc: 'https://example.com/v.mp4',
          playerLoc: 'https://example.com/player?v=1',
          duration: 99999,
          expirationDate: '2030-11-05T19:20:30+08:00',
          rating: 4.2,
          viewCount: 12345,
          publicationDate: '2007-11-05T19:20:30+08:00',
          familyFriendly: true,
          requiresSubscription: false,
          live: false,
          restriction: { relationship: 'allow', countries: ['IE', 'GB', 'US'] },
          platform: { relationship: 'deny', platforms: ['web', 'tv'] },
          uploader: { name: 'Grilly', info: 'https://example.com/u' },
          tags: ['steak', 'summer'],
        },
        { title: 'no thumbnail' },
      ],
      news: {
        publication: { name: 'The Times', language: 'en' },
        publicationDate: '2024-05-01',
        title: 'Merger',
        keywords: ['business', 'merger'],
        genres: ['PressRelease', 'Blog'],
        stockTickers: ['NASDAQ:A', 'NASDAQ:B'],
      },
      alternates: [{ hreflang: 'de', href: 'https://example.com/de/v' }],
    },
  ]);
  assert.deepEqual(codes, ['IMG-001', 'VID-001', 'HREF-001']);
  const fields = located[0]!.location.fields;
  assert.deepEqual(fields['videos.0.duration'], { line: 12, column: 21 });
  assert.deepEqual(fields['news.publicationDate'], { line: 27, column: 28 });
  assert.deepEqual(fields['alternates.0'], { line: 29, column: 3 });
  assert.deepEqual(fields['images.0.loc'], { line: 4, column: 27 });
});

test('bad video values drop only that field; deprecated tags are reported', async () => {
  const xml = urlset(`<url><loc>https://example.com/v</loc><video:video>
    <video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>
    <video:player_loc allow_embed="yes">https://example.com/p</video:player_loc>
    <video:family_friendly>maybe</video:family_friendly><video:live>YES</video:live>
    <video:restriction>US</video:restriction><video:platform relationship="allow">web phone</video:platform>
    <video:duration>two</video:duration><video:category>Food</video:category>
  </video:video></url>`);
  const { entries, codes } = await parseText(xml);
  assert.deepEqual(entries[0], {
    kind: 'url',
    loc: 'https://example.com/v',
    videos: [
      {
        thumbnailLoc: 'https://example.com/t.jpg',
        title: 'T',
        description: 'D',
        playerLoc: 'https://example.com/p',
        live: true,
      },
    ],
  });
  assert.deepEqual(codes.sort(), ['VID-005', 'VID-006', 'VID-006', 'VID-007', 'VID-008', 'VID-011', 'VID-011']);
});

test('a sitemap index: refs with lastmod; foreign content is IDX-001; a second loc starts another ref', async () => {
  const xml = `<?xml version="1.0"?><sitemapindex xmlns="${NS.sitemap}">
<sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2024-05-01</lastmod></sitemap>
<sitemap><loc>https://example.com/s2.xml</loc><loc>https://example.com/s3.xml</loc><lastmod>2024-05-02</lastmod></sitemap>
<url><loc>https://example.com/not-here</loc></url>
</sitemapindex>`;
  const { entries, codes, kind } = await parseText(xml);
  assert.equal(kind, 'sitemapindex');
  assert.deepEqual(entries, [
    { kind: 'sitemap', loc: 'https://example.com/s1.xml.gz', lastmod: '2024-05-01' },
    { kind: 'sitemap', loc: 'https://example.com/s2.xml' },
    { kind: 'sitemap', loc: 'https://example.com/s3.xml', lastmod: '2024-05-02' },
  ]);
  assert.deepEqual(codes, ['XML-008', 'IDX-001']);
});

test('strict mode throws ParseError at the first protocol error, with its place', async () => {
  const xml = urlset(
    '<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc><priority>2</priority></url>',
  );
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const entry of (await import('../../src/parse/index.js')).parseSitemap(
        { text: xml },
        { strict: true },
      ))
        seen.push(entry.loc);
    })(),
    (error: unknown) =>
      error instanceof ParseError && error.diagnostic.code === 'PRIO-001' && error.diagnostic.line === 4,
  );
  assert.deepEqual(seen, ['https://example.com/a']);
  // Warnings do not stop a strict read.
  const warned = await parseAll({ text: urlset('<url><loc> https://example.com/w </loc></url>') }, { strict: true });
  assert.deepEqual(warned.codes, ['URL-003']);
});

test('a document cut off keeps the entries before the cut (XML-014), the unfinished one is left out', async () => {
  const full = urlset('<url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url>');
  const cut = full.slice(0, full.indexOf('example.com/2') + 5);
  const { entries, diagnostics } = await parseText(cut);
  assert.deepEqual(
    entries.map((e) => e.loc),
    ['https://example.com/1'],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.line]),
    [['XML-014', 3]],
  );
});

test('a misspelt root end tag at the very end is an XML error, not a cut-off: every entry is read', async () => {
  const xml = urlset('<url><loc>https://example.com/1</loc></url>').replace('</urlset>', '</urlsett>');
  const { entries, diagnostics } = await parseText(xml);
  assert.deepEqual(
    entries.map((e) => e.loc),
    ['https://example.com/1'],
  );
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['XML-001'],
  );
  assert.match(diagnostics[0]!.message, /<\/urlsett> does not match <urlset>/);
});

test('junk before the XML declaration is XML-002; not well-formed markup is XML-001 and reading goes on', async () => {
  const junk = await parseText(
    `garbage\n<?xml version="1.0"?><urlset xmlns="${NS.sitemap}"><url><loc>https://example.com/j</loc></url></urlset>`,
  );
  assert.deepEqual(
    junk.entries.map((e) => e.loc),
    ['https://example.com/j'],
  );
  assert.deepEqual(junk.codes, ['XML-002', 'XML-002']);
  const broken = await parseText(
    urlset(
      '<url><loc>https://example.com/1</loc></lastmod></url><url><loc>https://example.com/2</loc><changefreq>daily<</changefreq></url>',
    ),
  );
  assert.deepEqual(
    broken.entries.map((e) => e.loc),
    ['https://example.com/1', 'https://example.com/2'],
  );
  assert.deepEqual(broken.codes, ['XML-001', 'XML-005', 'FREQ-001']);
});

test('an HTML page yields no entries and one FETCH-007; an unknown root yields XML-004', async () => {
  const html = await parseText('<!DOCTYPE html>\n<html><body><a href="https://example.com/">x</a></body></html>');
  assert.deepEqual([html.kind, html.entries, html.codes], ['html', [], ['FETCH-007']]);
  const other = await parseText('<?xml version="1.0"?><some><tag>https://example.com/</tag></some>');
  assert.deepEqual([other.kind, other.entries, other.codes], ['unknown', [], ['XML-004']]);
  const empty = await parseText('  \n');
  assert.deepEqual([empty.kind, empty.codes], ['unknown', ['FETCH-001']]);
});

test('problems inside a <url> name its URL: markup met before the loc is known, misplaced elements, sitemap elements in an extension', async () => {
  const xml = urlset(`<url>
  <loc>https://example.com/a?x=1&y=2</loc>
  <foo>bar</foo>
  <news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>
    <news:publication_date>2024-05-01</news:publication_date><news:title>T</news:title><loc>https://example.com/stray</loc></news:news>
</url>`);
  const { entries, diagnostics } = await parseText(xml);
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.kind === 'url' && entries[0]!.news?.title, 'T');
  const named = diagnostics.map((d) => [d.code, d.line, d.url]);
  assert.deepEqual(named, [
    ['XML-005', 4, 'https://example.com/a?x=1&y=2'],
    ['XML-007', 5, 'https://example.com/a?x=1&y=2'],
    ['XML-007', 7, 'https://example.com/a?x=1&y=2'],
  ]);
});
