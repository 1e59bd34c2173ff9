import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CommonImages, COMMON_IMAGE_MIN_PAGES, withoutCommonImages } from '../../src/core/common-images.js';
import type { UrlEntry } from '../../src/core/entry.js';
import { LIMITS } from '../../src/core/limits.js';

function page(n: number, images: string[]): UrlEntry {
  return {
    kind: 'url',
    loc: `https://e.com/${n}`,
    ...(images.length > 0 ? { images: images.map((loc) => ({ loc })) } : {}),
  };
}

test('an image on more than half of the pages is left out of every page; one on half of them is kept', () => {
  const pages = Array.from({ length: 10 }, (_, n) =>
    page(n, ['https://e.com/logo.svg', `https://e.com/photo-${n}.jpg`, ...(n < 5 ? ['https://e.com/half.png'] : [])]),
  );
  const out = [...withoutCommonImages(() => pages)];
  assert.deepEqual(out[0]!.images, [{ loc: 'https://e.com/photo-0.jpg' }, { loc: 'https://e.com/half.png' }]);
  assert.deepEqual(out[9]!.images, [{ loc: 'https://e.com/photo-9.jpg' }]);
  assert.deepEqual(
    out.map((entry) => entry.loc),
    pages.map((entry) => entry.loc),
  );
});

test(`a page whose only image is common loses its images field; a site under ${COMMON_IMAGE_MIN_PAGES} pages keeps its images`, () => {
  const out = [
    ...withoutCommonImages(() => [
      page(1, ['https://e.com/logo.svg']),
      page(2, ['https://e.com/logo.svg']),
      page(3, ['https://e.com/logo.svg']),
      page(4, []),
    ]),
  ];
  assert.deepEqual(out, [page(1, []), page(2, []), page(3, []), page(4, [])]);
  const two = [page(1, ['https://e.com/shared.jpg']), page(2, ['https://e.com/shared.jpg'])];
  assert.deepEqual([...withoutCommonImages(() => two)], two);
});

test('an image on most pages is found whatever the number of other images (bounded counters)', () => {
  const census = new CommonImages();
  const pages = 600;
  // Each page shows the most images a sitemap lists, all its own but for the logo on 301 of them.
  const imagesOf = (n: number) => [
    ...Array.from({ length: LIMITS.maxImagesPerUrl - 1 }, (_, i) => `https://e.com/${n}/${i}.jpg`),
    ...(n % 2 === 0 || n === 1 ? ['https://e.com/logo.svg'] : []),
  ];
  for (let n = 0; n < pages; n++) census.nominate(imagesOf(n));
  for (let n = 0; n < pages; n++) census.confirm(imagesOf(n));
  assert.deepEqual([...census.common], ['https://e.com/logo.svg']);
});
