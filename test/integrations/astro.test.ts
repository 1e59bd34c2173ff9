/**
 * sitemapkit/astro on a real Astro build (examples/astro, Astro 5 from npm): `site` as the base
 * URL, `build.format: 'file'` with `trailingSlash: 'never'` (/about, served from about.html),
 * i18n (en without a prefix, fr under /fr) as hreflang both ways, a redirect stub from the
 * `redirects` config, a noindex page and the 404 left out; and what a second build with one page
 * changed changes.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import { copyExample, lastmods, writtenSitemaps, type ExampleCopy } from '../helpers/real-build.js';

const SITE = 'https://www.example.net';
let project: ExampleCopy;
let built: { stdout: string; entries: Map<string, UrlEntry> };

before(async () => {
  project = await copyExample('astro');
  const { stdout } = await project.build();
  built = { stdout, entries: await writtenSitemaps(join(project.dir, 'dist')) };
});
after(async () => {
  await project?.remove();
});

const alternates = (loc: string) =>
  (built.entries.get(loc)?.alternates ?? []).map(({ hreflang, href }) => `${hreflang} ${href}`).sort();

test('astro: the pages as the config serves them, without the stub, the noindex page and the 404', () => {
  assert.deepEqual([...built.entries.keys()].filter((loc) => loc !== `${SITE}/old-about`).sort(), [
    `${SITE}/`,
    `${SITE}/about`,
    `${SITE}/contact`,
    `${SITE}/fr`,
    `${SITE}/fr/about`,
  ]);
  assert.match(built.stdout, /noindex/);
});

test('astro: i18n locales become hreflang alternates, both ways, with x-default', () => {
  const both = [`en ${SITE}/about`, `fr ${SITE}/fr/about`, `x-default ${SITE}/about`];
  assert.deepEqual(alternates(`${SITE}/about`), both);
  assert.deepEqual(alternates(`${SITE}/fr/about`), both);
  assert.deepEqual(alternates(`${SITE}/fr`), [`en ${SITE}/`, `fr ${SITE}/fr`, `x-default ${SITE}/`]);
  assert.deepEqual(alternates(`${SITE}/contact`), []);
});

test('astro: the redirect stub of the redirects config is left out', () => {
  assert.equal(built.entries.has(`${SITE}/old-about`), false);
});

test('astro: lastmod from the page head (article:modified_time)', () => {
  assert.equal(built.entries.get(`${SITE}/about`)?.lastmod, '2024-03-01T10:00:00Z');
});

test('astro: a second build with one page changed changes exactly its lastmod', async () => {
  const before = lastmods(built.entries);
  const page = 'src/pages/contact.astro';
  await project.write(page, (await project.read(page)).replace('Write to us.', 'Write to us, or call.'));
  await project.build();
  const after = lastmods(await writtenSitemaps(join(project.dir, 'dist')));
  const changed = Object.keys(after).filter((loc) => after[loc] !== before[loc]);
  assert.deepEqual(changed, [`${SITE}/contact`]);
  assert.ok(after[`${SITE}/contact`], 'the changed page is dated');
});
