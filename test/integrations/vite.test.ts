/**
 * sitemapkit/vite on a real Vite build (examples/vite, Vite 6 from npm, a multi-page app): the
 * plugin writes the sitemap of the output folder once the bundle is written.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { copyExample, writtenSitemaps, type ExampleCopy } from '../helpers/real-build.js';

let project: ExampleCopy | undefined;
after(async () => {
  await project?.remove();
});

test('vite: the pages of a multi-page build, folder URLs with their slash, without the noindex page', async () => {
  project = await copyExample('vite');
  const { stdout } = await project.build();
  const entries = await writtenSitemaps(join(project.dir, 'dist'));
  assert.deepEqual([...entries.keys()].sort(), ['https://app.example.com/', 'https://app.example.com/about/']);
  assert.match(stdout, /^Wrote 2 URLs in 1 file to .*dist$/m);
  assert.match(stdout, /1 +noindex/);
});
