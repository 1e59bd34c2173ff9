import assert from 'node:assert/strict';
import { test } from 'node:test';
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
