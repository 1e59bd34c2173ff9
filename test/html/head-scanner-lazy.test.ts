import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadReferenceDecoder, ReferenceDecoderNotLoaded, scanPageHead } from '../../src/html/head-scanner.js';

// Its own file, so its own process: htmlparser2 is not loaded by any other test first.

const PAGE_URL = 'https://www.example.com/a/b.html';

test('a head with no character reference is read without htmlparser2; one with a reference asks for it', async () => {
  const plain = scanPageHead(['<head><title>Tom and Jerry</title><link rel=canonical href="/a/"></head>'], PAGE_URL);
  assert.equal(plain.title, 'Tom and Jerry');
  assert.deepEqual(plain.canonicals, ['https://www.example.com/a/']);
  const withReference = '<head><title>Tom &amp; Jerry</title><link rel=canonical href="/a/?x=1&amp;y=2"></head>';
  assert.throws(() => scanPageHead([withReference], PAGE_URL), ReferenceDecoderNotLoaded);
  await loadReferenceDecoder();
  const read = scanPageHead([withReference], PAGE_URL);
  assert.equal(read.title, 'Tom & Jerry');
  assert.deepEqual(read.canonicals, ['https://www.example.com/a/?x=1&y=2']);
});
