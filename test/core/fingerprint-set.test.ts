import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fingerprint } from '../../src/core/fingerprint.js';
import { FingerprintSet } from '../../src/core/fingerprint-set.js';

const BASE_URL = 'https://www.example.com/';

test('the duplicate set remembers every URL it was given, across growth, and nothing else', () => {
  const set = new FingerprintSet(16);
  for (let i = 0; i < 200_000; i++) assert.equal(set.add(`${BASE_URL}p/${i}`), true);
  assert.equal(set.size, 200_000);
  for (let i = 0; i < 200_000; i += 997) assert.equal(set.add(`${BASE_URL}p/${i}`), false);
  assert.equal(set.add(`${BASE_URL}p/200000`), true);
  assert.equal(set.add(''), true);
  assert.equal(set.add(''), false);
  assert.equal(set.size, 200_002);
});

test('has() finds what was added and nothing else, across growth', () => {
  const set = new FingerprintSet(16);
  for (let i = 0; i < 1000; i++) set.add(`https://example.com/${i}`);
  for (let i = 0; i < 1000; i++) assert.equal(set.has(`https://example.com/${i}`), true);
  for (let i = 1000; i < 2000; i++) assert.equal(set.has(`https://example.com/${i}`), false);
});

test("a string's tail has the fingerprint of the string sliced there", () => {
  const whole = new Uint32Array(2);
  const tail = new Uint32Array(2);
  for (const text of ['https://www.example.com/a?b=1', 'http://x.example/é/ü', 'ab', '']) {
    for (let from = 0; from <= text.length; from++) {
      fingerprint(text.slice(from), whole);
      fingerprint(text, tail, from);
      assert.deepEqual([...tail], [...whole], `${text} from ${from}`);
    }
  }
  fingerprint('https://www.example.com/a', whole);
  fingerprint('https://www.example.com/b', tail);
  assert.notDeepEqual([...tail], [...whole]);
});
