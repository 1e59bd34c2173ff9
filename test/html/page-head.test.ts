import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readPageHead } from '../../src/html/page-head.js';

const PAGE_URL = 'https://www.example.com/blog/post.html';

test('the head gives the robots directives (general, Googlebot, Bingbot; not other bots) and the canonicals, resolved', async () => {
  const head = await readPageHead(
    [
      '<!doctype html><html><head><base href="/articles/">',
      '<meta name="GoogleBot" content="max-snippet:20, NOINDEX"><meta name="otherbot" content="nofollow">',
      '<link rel="Canonical" href="post#comments"><link rel="alternate canonical" href="https://www.example.com/articles/post">',
      '<link rel="canonical" href="  /elsewhere?id=1 ">',
      '</head><body></body></html>',
    ],
    PAGE_URL,
  );
  assert.deepEqual(head.directives, { noindex: true, nofollow: false });
  assert.deepEqual(head.canonicals, [
    'https://www.example.com/articles/post',
    'https://www.example.com/elsewhere?id=1',
  ]);
  const none = await readPageHead(['<head><meta content="none" name=robots></head>'], PAGE_URL);
  assert.deepEqual(none.directives, { noindex: true, nofollow: true });
  assert.deepEqual(none.canonicals, []);
});

test('reading stops at <body>: what follows is neither read nor believed', async () => {
  function* chunks(): Generator<string> {
    yield '<html><head><meta name="robots" content="index"></head><bo';
    yield 'dy><meta name="robots" content="noindex"><link rel="canonical" href="/other">';
    throw new Error('the reader went on past <body>');
  }
  const head = await readPageHead(chunks(), PAGE_URL);
  assert.deepEqual(head.directives, { noindex: false, nofollow: false });
  assert.deepEqual(head.canonicals, []);
});

test('bytes split anywhere (inside a tag, inside a UTF-8 character) read as the whole page does', async () => {
  const html = Buffer.from('<head><link rel="canonical" href="/zürich/"><meta name="robots" content="noindex"></head>');
  const whole = await readPageHead([html], PAGE_URL);
  assert.deepEqual(whole.canonicals, ['https://www.example.com/z%C3%BCrich/']);
  for (let cut = 1; cut < html.length; cut++) {
    assert.deepEqual(await readPageHead([html.subarray(0, cut), html.subarray(cut)], PAGE_URL), whole, `cut at ${cut}`);
  }
});

test('the head gives hreflang links (resolved, each pair once) and the page own modification date', async () => {
  const head = await readPageHead(
    [
      '<head><link rel="alternate" hreflang="de" href="/de/post.html"><link rel="alternate" hreflang="de" href="/de/post.html#x">',
      '<link rel="alternate" type="application/rss+xml" href="/feed"><link rel="alternate" hreflang=" x-default " href="post.html">',
      '<meta property="article:modified_time" content="2024-05-01T10:00:00+02:00"><meta property="og:updated_time" content="1999-01-01">',
      '</head><body><link rel="alternate" hreflang="fr" href="/fr/"></body>',
    ],
    PAGE_URL,
  );
  assert.deepEqual(head.alternates, [
    { hreflang: 'de', href: 'https://www.example.com/de/post.html' },
    { hreflang: 'x-default', href: 'https://www.example.com/blog/post.html' },
  ]);
  assert.equal(head.modified, '2024-05-01T10:00:00+02:00');
});

test('microdata dateModified in the body (as Docusaurus writes "Last updated on"), after the head and JSON-LD dates', async () => {
  const lastUpdated =
    '<footer><span itemprop="author">x</span> on <b><time datetime="2024-01-10T09:00:00.000Z" itemprop="dateModified">Jan 10, 2024</time></b></footer>';
  const page = [`<head><title>t</title></head><body><article><p>text</p></article>${lastUpdated}</body>`];
  assert.equal((await readPageHead(page, PAGE_URL)).modified, undefined, 'the body is not read by default');
  assert.equal((await readPageHead(page, PAGE_URL, { wholeDocument: true })).modified, '2024-01-10T09:00:00.000Z');
  const meta = ['<body><div itemscope><meta itemprop="datePublished dateModified" content=" 2024-02-02 "></div>'];
  assert.equal((await readPageHead(meta, PAGE_URL, { wholeDocument: true })).modified, '2024-02-02');
  const headFirst = [
    `<head><meta property="article:modified_time" content="2024-05-01"></head><body>${lastUpdated}</body>`,
  ];
  assert.equal((await readPageHead(headFirst, PAGE_URL, { wholeDocument: true })).modified, '2024-05-01');
  const other = ['<body><time itemprop="datemodified" datetime="2024-01-01"></time><span itemprop="dateModified">'];
  assert.equal(
    (await readPageHead(other, PAGE_URL, { wholeDocument: true })).modified,
    undefined,
    'names are case-sensitive',
  );
});

test('JSON-LD dateModified: in the head, or in the body when the whole document is read; bad JSON says nothing', async () => {
  const jsonLd = (data: string) => `<script type="application/ld+json">${data}</script>`;
  const graph = jsonLd(
    '{"@context":"https://schema.org","@graph":[{"@type":"WebSite"},{"@type":"Article","dateModified":"2024-03-15"}]}',
  );
  assert.equal((await readPageHead([`<head>${graph}</head><body></body>`], PAGE_URL)).modified, '2024-03-15');
  const inBody = [`<head><title>t</title></head><body><p>text</p>${graph}</body>`];
  assert.equal((await readPageHead(inBody, PAGE_URL)).modified, undefined, 'the body is not read by default');
  assert.equal((await readPageHead(inBody, PAGE_URL, { wholeDocument: true })).modified, '2024-03-15');
  const broken = [`<head>${jsonLd('{"dateModified": ')}${jsonLd('[{"dateModified":"2024-02-01"}]')}</head>`];
  assert.equal((await readPageHead(broken, PAGE_URL)).modified, '2024-02-01', 'a broken block is skipped');
  const bodyMeta = ['<head></head><body><meta name="robots" content="noindex"></body>'];
  assert.equal((await readPageHead(bodyMeta, PAGE_URL, { wholeDocument: true })).directives.noindex, false);
});

/** The canonical URL the URL parser makes of `href` on `pageUrl` (none when it is not a URL). */
function parsedCanonical(href: string, pageUrl: string): string[] {
  try {
    const url = new URL(href.trim(), pageUrl);
    url.hash = '';
    return [url.href];
  } catch {
    return [];
  }
}

const BASES = [
  PAGE_URL,
  'https://www.example.com/',
  'https://WWW.Example.com/a/',
  'https://www.example.com:443/a.html',
  'http://user:pw@www.example.com/',
  'https://www.example.com?x=/y',
];

async function assertResolvesAsParser(href: string, pageUrl: string): Promise<void> {
  const head = await readPageHead([`<link rel="canonical" href="${href.replace(/"/g, '&quot;')}">`], pageUrl);
  assert.deepEqual(head.canonicals, parsedCanonical(href, pageUrl), `${href} against ${pageUrl}`);
}

test('hrefs resolve as the URL parser resolves them, whatever their form and the base', async () => {
  const hrefs = ['/docs/a.html', '/a/../b', '/a/./b', '/..', '/.', '/a/%2e%2e/b', '/a b', '/a?b#c', '/é', '//other/x'];
  hrefs.push('https://www.example.com/x/', 'https://www.example.com.evil/x', 'HTTPS://www.example.com/x', ' /x ');
  for (const base of BASES) for (const href of hrefs) await assertResolvesAsParser(href, base);
  const piece = fc.constantFrom(
    '/',
    'docs',
    'a-b_c~d',
    '.',
    '..',
    '%2e',
    '%20',
    '?q=1',
    '#top',
    ' ',
    '\t',
    'é',
    ":@!$&'()*+,;=",
    '//',
    '\\',
    '{}',
    'https://www.example.com',
    'HTTPS://www.example.com',
    'https://www.example.com.evil',
    'https://user@www.example.com',
  );
  await fc.assert(
    fc.asyncProperty(fc.array(piece, { maxLength: 6 }), fc.constantFrom(...BASES), async (pieces, pageUrl) =>
      assertResolvesAsParser(pieces.join(''), pageUrl),
    ),
    { numRuns: 3000 },
  );
});
