/** sitemapStream called as JavaScript may call it: without its options, it says what it needs. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sitemapStream } from '../../src/generate/web-stream.js';

test('sitemapStream(entries) without options, or without baseUrl, says baseUrl is required', () => {
  const call = sitemapStream as (entries: unknown, options?: unknown) => ReadableStream<Uint8Array>;
  for (const options of [undefined, {}, { gzip: true }])
    assert.throws(() => call([{ loc: '/' }], options), {
      name: 'TypeError',
      message: /^sitemapStream\(entries, \{ baseUrl \}\): baseUrl is required/,
    });
  assert.ok(call([{ loc: '/' }], { baseUrl: 'https://www.example.com/' }) instanceof ReadableStream);
});
