/**
 * sitemapkit/eleventy on a real Eleventy build (examples/eleventy, Eleventy from npm): the
 * sitemaps it writes after the build, and what a second build with one page changed changes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import type { UrlEntry } from '../../src/core/index.js';
import { copyExample, lastmods, writtenSitemaps, type ExampleCopy } from '../helpers/real-build.js';

const SITE = 'https://blog.example.com';
const STUB = `${SITE}/old-blog/`;
let project: ExampleCopy;
let firstBuild: { stdout: string; entries: Map<string, UrlEntry> };

before(async () => {
  project = await copyExample('eleventy');
  const { stdout } = await project.build();
  firstBuild = { stdout, entries: await writtenSitemaps(join(project.dir, '_site')) };
});
after(async () => {
  await project?.remove();
});

test('eleventy: the pages, in the folder form Eleventy writes, without the 404 and noindex pages', () => {
  assert.deepEqual([...firstBuild.entries.keys()].sort(), [
    `${SITE}/`,
    `${SITE}/blog/`,
    `${SITE}/blog/first/`,
    `${SITE}/blog/second/`,
  ]);
  // The summary of generate, printed by the build.
  assert.match(firstBuild.stdout, /^Wrote 4 URLs in 1 file to .*_site$/m);
  assert.match(firstBuild.stdout, /1 +noindex/);
  // No page says when it changed, and page.date is a file's creation time: no lastmod yet.
  assert.deepEqual(Object.values(lastmods(firstBuild.entries)).filter(Boolean), []);
});

test('eleventy: the meta-refresh stub is left out', () => {
  assert.equal(firstBuild.entries.has(STUB), false);
  assert.match(firstBuild.stdout, /redirect/);
});

test('eleventy: a second build with one post changed changes exactly its lastmod', async () => {
  const post = 'content/blog/second.md';
  await project.write(post, `${await project.read(post)}\nAn update.\n`);
  await project.build();
  const again = lastmods(await writtenSitemaps(join(project.dir, '_site')));
  assert.deepEqual(
    Object.keys(again).filter((loc) => again[loc] !== undefined),
    [`${SITE}/blog/second/`],
  );
});
