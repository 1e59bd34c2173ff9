/**
 * The one runner of the integrations on build folders written by the test: what every
 * integration shares (failOn, the ledger's place, the base URL, the URL form, the languages).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { SitemapkitBuildError, generateAfterBuild } from '../../src/integrations/run.js';
import type { BuildFacts, Logger } from '../../src/integrations/options.js';
import { GitRepository } from '../helpers/git-repo.js';
import { writtenSitemaps } from '../helpers/real-build.js';
import { html } from '../helpers/serve-site.js';

let root: string;
let build: string;
const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function page(path: string, head = '<title>Page</title>'): Promise<void> {
  const file = join(build, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, html(head, `<h1>${path}</h1>`));
}

function facts(more: Partial<BuildFacts> = {}): BuildFacts {
  return { framework: 'test', projectRoot: root, buildDir: build, log: quiet, ...more };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sitemapkit-integration-'));
  build = join(root, 'dist');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('problems fail the build only when failOn asks', async () => {
  // about.html and about/index.html are one URL with clean URLs and no trailing slash: URL-006.
  await page('about.html');
  await page('about/index.html');
  const form = { cleanUrls: true, trailingSlash: 'never' as const };
  const { problems } = await generateAfterBuild(facts(form), { baseUrl: 'https://example.com/' });
  assert.deepEqual(
    problems.map((problem) => problem.code),
    ['URL-006'],
  );
  await generateAfterBuild(facts(form), { baseUrl: 'https://example.com/', failOn: 'error' });
  await assert.rejects(
    generateAfterBuild(facts(form), { baseUrl: 'https://example.com/', failOn: 'warning' }),
    (error: unknown) =>
      error instanceof SitemapkitBuildError && /1 problem at or above failOn "warning"/.test(error.message),
  );
});

test('the ledger is kept in node_modules/.cache/sitemapkit of the project, or where `state` says, never in the build', async () => {
  await page('index.html');
  await generateAfterBuild(facts(), { baseUrl: 'https://example.com/' });
  assert.ok(existsSync(join(root, 'node_modules/.cache/sitemapkit/generate.sqlite')));
  await generateAfterBuild(facts(), { baseUrl: 'https://example.com/', state: 'ci-cache/sitemaps' });
  assert.ok(existsSync(join(root, 'ci-cache/sitemaps/generate.sqlite')));
  await assert.rejects(
    generateAfterBuild(facts(), { baseUrl: 'https://example.com/', state: 'dist/.state' }),
    /is inside the build folder .*dist, which each build replaces/,
  );
  await generateAfterBuild(facts(), { baseUrl: 'https://example.com/', state: false, outDir: '../no-ledger' });
  assert.ok(existsSync(join(root, 'no-ledger/sitemap.xml')));
});

test("the base URL is the option, else the framework's site URL; neither is a clear error", async () => {
  await page('index.html');
  await generateAfterBuild(facts({ siteUrl: 'https://site.example.org/docs' }), { state: false });
  assert.deepEqual([...(await writtenSitemaps(build)).keys()], ['https://site.example.org/docs/']);
  await assert.rejects(generateAfterBuild(facts(), { state: false }), /give the "baseUrl" option/);
});

test("a page is never dated by its file's time, which is the build's", async () => {
  await page('index.html');
  await page('news.html', '<title>News</title><meta property="article:modified_time" content="2024-04-01T00:00:00Z">');
  const builtAt = new Date('2025-01-01T00:00:00Z');
  for (const file of ['index.html', 'news.html']) await utimes(join(build, file), builtAt, builtAt);
  await generateAfterBuild(facts(), { baseUrl: 'https://example.com/', state: false });
  for (const entry of (await writtenSitemaps(build)).values()) assert.notEqual(entry.lastmod, '2025-01-01T00:00:00Z');
});

test("gitDir, relative to the project, dates the built pages by their sources' commits", async () => {
  const repo = await GitRepository.init(root);
  await repo.write('.gitignore', 'dist/\nnode_modules/\n');
  await repo.write('src/pages/index.md', '# Home');
  repo.commit(['.gitignore', 'src'], '2020-05-06T07:08:09Z');
  await page('index.html');
  await generateAfterBuild(facts(), { baseUrl: 'https://example.com/', state: false });
  assert.equal((await writtenSitemaps(build)).get('https://example.com/')?.lastmod, undefined, 'dist/ is not in git');
  await generateAfterBuild(facts(), { baseUrl: 'https://example.com/', state: false, gitDir: 'src/pages' });
  assert.equal((await writtenSitemaps(build)).get('https://example.com/')?.lastmod, '2020-05-06T07:08:09+00:00');
});

test('locales give each page the alternates of its translations, both ways, with x-default', async () => {
  for (const path of ['index.html', 'guide.html', 'fr/index.html', 'fr/guide.html', 'pt-br/guide.html', 'only-en.html'])
    await page(path);
  await generateAfterBuild(
    facts({
      cleanUrls: true,
      locales: [
        { hreflang: 'en', prefix: '' },
        { hreflang: 'fr', prefix: 'fr/' },
        { hreflang: 'pt-BR', prefix: 'pt-br/' },
      ],
      defaultLocale: 'en',
    }),
    { baseUrl: 'https://example.com/', state: false },
  );
  const entries = await writtenSitemaps(build);
  const of = (loc: string) =>
    (entries.get(`https://example.com/${loc}`)?.alternates ?? []).map((a) => `${a.hreflang} ${a.href}`).sort();
  const guide = [
    'en https://example.com/guide',
    'fr https://example.com/fr/guide',
    'pt-BR https://example.com/pt-br/guide',
    'x-default https://example.com/guide',
  ];
  assert.deepEqual(of('guide'), guide);
  assert.deepEqual(of('fr/guide'), guide);
  assert.deepEqual(of('pt-br/guide'), guide);
  assert.deepEqual(of('fr/'), [
    'en https://example.com/',
    'fr https://example.com/fr/',
    'x-default https://example.com/',
  ]);
  assert.deepEqual(of('only-en'), []);
});

test('htmlSitemap writes the page for people from the listed pages, titled by their heads', async () => {
  await page('index.html', '<title>Home · Shop</title>');
  await page('tents/washing.html', '<title>Washing a tent · Shop</title>');
  await page('old.html', '<meta http-equiv="refresh" content="0;url=/tents/washing.html"><title>Old</title>');
  await generateAfterBuild(facts(), { baseUrl: 'https://example.com/', htmlSitemap: 'sitemap.html', state: false });
  const written = await readFile(join(build, 'sitemap.html'), 'utf8');
  assert.match(written, /<a href="https:\/\/example\.com\/tents\/washing\.html">Washing a tent<\/a>/);
  assert.match(written, /<a href="https:\/\/example\.com\/">Home<\/a>/);
  assert.doesNotMatch(written, /old\.html/, 'a redirect stub is not a page for people either');
});
