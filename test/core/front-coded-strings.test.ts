/** FrontCodedStrings: every string back as it was given, in a few bytes each. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FrontCodedStrings } from '../../src/core/front-coded-strings.js';

describe('FrontCodedStrings', () => {
  it('gives back every string, whatever it shares with the one before', () => {
    const texts = [
      '',
      'https://www.example.com/sitemap-1.xml',
      'https://www.example.com/sitemap-1.xml', // the same again
      'https://www.example.com/sitemap-10.xml',
      'https://www.example.com/',
      'https://www.exämple.com/ä', // shares a prefix that ends inside a two-byte character
      'https://www.exämple.com/ö',
      'https://例え.jp/サイトマップ.xml',
      'https://例え.jp/サイトマップ2.xml',
      '😀 https://example.com/😀',
      '😁 https://example.com/😁',
      `https://example.com/${'a'.repeat(70_000)}b`, // a prefix longer than two bytes count
      `https://example.com/${'a'.repeat(70_000)}c`,
      ...Array.from({ length: 100 }, (_, i) => `https://cdn.example.org/maps/${i}/part-${i * 7}.xml.gz`),
    ];
    const list = new FrontCodedStrings();
    texts.forEach((text, i) => assert.equal(list.append(text), i));
    assert.equal(list.size, texts.length);
    texts.forEach((text, i) => assert.equal(list.at(i), text, `string ${i}`));
    assert.throws(() => list.at(texts.length), RangeError);
    assert.throws(() => list.at(-1), RangeError);
  });

  it('keeps 200,000 sitemap URLs in under 40 bytes each, where strings take over 100', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const url = (i: number) => `https://www.example.com/sitemaps/products/${Math.floor(i / 1000)}/${i}.xml`;
    const held = (fill: () => unknown) => {
      gc();
      const before = process.memoryUsage();
      const kept = fill();
      gc();
      const after = process.memoryUsage();
      assert.ok(kept);
      return (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 200_000;
    };
    const compact = held(() => {
      const list = new FrontCodedStrings();
      for (let i = 0; i < 200_000; i++) list.append(url(i));
      return list;
    });
    const strings = held(() => Array.from({ length: 200_000 }, (_, i) => url(i)));
    assert.ok(compact < 40, `${Math.round(compact)} bytes a string`);
    assert.ok(strings > 100, `the measure sees strings (${Math.round(strings)} bytes each)`);
  });
});
