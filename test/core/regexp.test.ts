import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeRegExp } from '../../src/core/regexp.js';

test('escapeRegExp makes any text a literal: it matches itself and nothing else', () => {
  for (const text of ['.*+?^${}()|[]\\', 'a.b', 'https://example.com/a?b=(1)', 'x-y/z', '']) {
    const exact = new RegExp(`^${escapeRegExp(text)}$`, 'u');
    assert.ok(exact.test(text), text);
    assert.equal(exact.test(`${text}!`), false, text);
  }
  assert.equal(new RegExp(escapeRegExp('a.b')).test('axb'), false);
});
