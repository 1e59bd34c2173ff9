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
