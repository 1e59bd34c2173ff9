/**
 * The compact structures cross-file rules keep for a whole run: texts packed into a few strings,
 * and a map from fingerprints to record numbers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fingerprint } from '../../src/core/fingerprint.js';
import { FingerprintMap } from '../../src/core/fingerprint-map.js';
import { PackedTexts } from '../../src/core/packed-texts.js';

test('packed texts give back each text as it was given, across packs and before the first is made', () => {
  const texts = new PackedTexts();
  const given = [
    '',
    'é',
    'https://例え.jp/😀', // two-byte text, with a surrogate pair
    'a'.repeat(70_000),
    ...Array.from({ length: 20_000 }, (_, i) => `https://www.example.com/${i}`),
  ];
  const ids = given.map((text) => texts.add(text));
  assert.deepEqual(
    ids,
    given.map((_, i) => i),
  );
  assert.equal(texts.get(ids.at(-1)!), given.at(-1), 'a text still pending');
  for (let i = 0; i < given.length; i += 7) assert.equal(texts.get(ids[i]!), given[i]);
  assert.equal(texts.get(2), given[2], 'two-byte text');
  assert.equal(texts.get(3), given[3], 'a text longer than a pack');
  const late = texts.add('https://www.example.com/late');
  assert.equal(texts.get(late), 'https://www.example.com/late', 'added after reading');
});

test('the fingerprint map keeps the first value of each fingerprint, across growth, and finds nothing else', () => {
  const map = new FingerprintMap();
  const hash = new Uint32Array(2);
  const key = (text: string): [number, number] => (fingerprint(text, hash), [hash[0]!, hash[1]!]);
  for (let i = 0; i < 50_000; i++) assert.equal(map.putIfAbsent(...key(`https://www.example.com/${i}`), i), -1);
  assert.equal(map.size, 50_000);
  assert.equal(map.putIfAbsent(...key('https://www.example.com/7'), 99), 7, 'answers the value it holds');
  for (let i = 0; i < 50_000; i += 13) assert.equal(map.get(...key(`https://www.example.com/${i}`)), i);
  assert.equal(map.get(...key('https://www.example.com/50000')), -1);
  map.putIfAbsent(...key('max'), 0xffff_ffff);
  assert.equal(map.get(...key('max')), 0xffff_ffff, 'any unsigned 32-bit value');
});
