/**
 * `sitemapkit generate --html-sitemap FILE`: the HTML sitemap lists exactly what the published
 * sitemaps list (relative URLs resolved, duplicates and bad lines left out), one version per
 * language, and a run whose HTML sitemap cannot be written says so and fails with the XML published.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-html-sitemap-cli-'));
after(() => rm(scratch, { recursive: true, force: true }));

const BASE = 'https://www.example.com/';
const alternates = (path: string) => [
  { hreflang: 'en', href: `${BASE}en/${path}` },
  { hreflang: 'de', href: `${BASE}de/${path}` },
];
const LINES = [
  { loc: '/en/', alternates: alternates('') },
  { loc: '/de/', alternates: alternates('') },
  { loc: '/en/tents/dome', alternates: alternates('tents/dome') },
  { loc: '/de/tents/dome', alternates: alternates('tents/dome') },
  { loc: '/en/tents/dome' }, // a duplicate
  { loc: 'https://other.example/elsewhere' }, // refused: another host
  { loc: '/imprint', lastmod: 'yesterday' }, // written without its lastmod
].map((line) => JSON.stringify(line));

const hrefsIn = (html: string): string[] =>
  [...html.slice(html.indexOf('<main'), html.indexOf('</main>')).matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);

test('writes the HTML sitemap of exactly the URLs the sitemaps list, one version per language', async () => {
  const input = join(scratch, 'urls.jsonl');
  await writeFile(input, `${LINES.join('\n')}\n`);
  const out = join(scratch, 'out');
  const file = join(out, 'site-map.html');
  const result = await runCli(['generate', input, '--base-url', BASE, '--out', out, '--html-sitemap', file]);
  assert.equal(result.code, 1, 'the refused line fails the run, as without --html-sitemap');
  assert.match(result.stdout, /^HTML sitemap: .*site-map\.html \(5 URLs, 2 files, 2 languages \(en, de\)\)$/m);
  assert.deepEqual((await readdir(out)).filter((name) => name.endsWith('.html')).sort(), [
    'site-map.de.html',
    'site-map.html',
  ]);
  const english = await readFile(file, 'utf8');
  assert.deepEqual(hrefsIn(english), [`${BASE}en/`, `${BASE}imprint`, `${BASE}en/tents/dome`]);
  assert.deepEqual(hrefsIn(await readFile(join(out, 'site-map.de.html'), 'utf8')), [
    `${BASE}de/`,
    `${BASE}de/tents/dome`,
  ]);
  assert.match(english, /<style>/);
});

test('--json carries what was written; --html-stylesheet links the given stylesheet', async () => {
  const input = join(scratch, 'plain.txt');
  await writeFile(input, '/\n/about\n/blog/first\n');
  const out = join(scratch, 'out-json');
  const file = join(out, 'sitemap.html');
  const result = await runCli([
    'generate',
    input,
    '--base-url',
    BASE,
    '--out',
    out,
    '--html-sitemap',
    file,
    '--html-stylesheet',
    '/css/map.css',
    '--json',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout) as { htmlSitemap: unknown };
  assert.deepEqual(summary.htmlSitemap, {
    written: true,
    files: [file],
    urls: 3,
    languages: [],
    skipped: 0,
    removed: [],
  });
  const html = await readFile(file, 'utf8');
  assert.match(html, /<link rel="stylesheet" href="\/css\/map\.css">/);
  assert.doesNotMatch(html, /<style>/);
});

test('a run whose HTML sitemap cannot be written says why and fails, with the sitemaps published', async () => {
  const input = join(scratch, 'one.txt');
  await writeFile(input, '/\n');
  const blocker = join(scratch, 'a-file');
  await writeFile(blocker, '');
  const out = join(scratch, 'out-fail');
  const result = await runCli([
    'generate',
    input,
    '--base-url',
    BASE,
    '--out',
    out,
    '--html-sitemap',
    join(blocker, 'sitemap.html'),
  ]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^sitemapkit generate: the HTML sitemap .*a-file\/sitemap\.html was not written: /m);
  assert.deepEqual(await readdir(out), ['.sitemap-manifest.json', 'sitemap.xml']);
});

test('--html-stylesheet alone, or an --html-sitemap that is no file name, is bad usage', async () => {
  const input = join(scratch, 'usage.txt');
  await writeFile(input, '/\n');
  const out = join(scratch, 'out-usage');
  const alone = await runCli(['generate', input, '--base-url', BASE, '--out', out, '--html-stylesheet', 'a.css']);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--html-stylesheet applies to --html-sitemap FILE/);
  const folder = await runCli(['generate', input, '--base-url', BASE, '--out', out, '--html-sitemap', 'dist/']);
  assert.equal(folder.code, 2);
  assert.match(folder.stderr, /--html-sitemap takes a file name/);
  const help = await runCli(['generate', '--help']);
  assert.match(help.stdout, /--html-sitemap FILE/);
  assert.match(help.stdout, /--html-stylesheet URL/);
});
