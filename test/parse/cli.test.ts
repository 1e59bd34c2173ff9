/** `sitemapkit parse` as a user runs it (the built binary; run `npx tsc -p tsconfig.json` first). */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { SourcedEntry } from '../../src/core/entry.js';
import { runCli } from '../helpers/cli.js';
import { CONFORMANCE_DIR } from '../helpers/paths.js';
import { startSite } from '../helpers/site-server.js';
import { urlset } from './helpers.js';

const SAMPLE = join(CONFORMANCE_DIR, 'cases/sitemaps.org/sample-multi.xml');
const INDEX = join(CONFORMANCE_DIR, 'cases/sitemaps.org/sample-index.xml');
const lines = (text: string) => text.trim().split('\n');

test('parse FILE prints one JSON entry per line, nothing on stderr', async () => {
  const { code, stdout, stderr } = await runCli(['parse', SAMPLE]);
  assert.equal(code, 0);
  assert.equal(stderr, '');
  const entries = lines(stdout).map((line) => JSON.parse(line) as SourcedEntry);
  assert.equal(entries.length, 5);
  assert.deepEqual(entries[0], {
    kind: 'url',
    loc: 'http://www.example.com/',
    lastmod: '2005-01-01',
    changefreq: 'monthly',
    priority: 0.8,
  });
});

test('--csv prints a header and RFC 4180 rows; several sources add "source"', async () => {
  const csv = await runCli(['parse', '--csv', INDEX]);
  assert.deepEqual(lines(csv.stdout), [
    'kind,loc,lastmod,changefreq,priority,images,videos,news,alternates',
    'sitemap,http://www.example.com/sitemap1.xml.gz,2004-10-01T18:23:17+00:00,,,,,,',
    'sitemap,http://www.example.com/sitemap2.xml.gz,2005-01-01,,,,,,',
  ]);
  const two = await runCli(['parse', INDEX, SAMPLE]);
  const sources = lines(two.stdout).map((line) => (JSON.parse(line) as SourcedEntry).source);
  assert.deepEqual(sources, [INDEX, INDEX, SAMPLE, SAMPLE, SAMPLE, SAMPLE, SAMPLE]);
});

test('stdin (-) with --base-url: relative locs resolve, diagnostics are source:line:column: severity CODE message', async () => {
  const xml = urlset('<url><loc>/a</loc></url>');
  const { code, stdout, stderr } = await runCli(['parse', '-', '--base-url', 'https://example.com/s/sitemap.xml'], {
    input: gzipSync(xml),
  });
  assert.equal(code, 1, 'the relative loc is an error, and --fail-on error is the default');
  assert.deepEqual(JSON.parse(stdout), { kind: 'url', loc: 'https://example.com/a' });
  assert.match(stderr, /^-:3:11: error URL-001 <loc>: "\/a" is relative; read as https:\/\/example\.com\/a/);
});

test('--strict exits 1 at the first error; lenient reading goes on, and --fail-on never exits 0', async () => {
  const bad = join(CONFORMANCE_DIR, 'cases/sitemap.js/bad-tag-sitemap.xml');
  const strict = await runCli(['parse', '--strict', bad]);
  assert.equal(strict.code, 1);
  assert.equal(strict.stdout, '');
  assert.match(strict.stderr, /bad-tag-sitemap\.xml:3:3: error XML-007 /);
  const lenient = await runCli(['parse', bad]);
  assert.equal(lenient.code, 1);
  assert.equal(lines(lenient.stdout).length, 7);
  assert.match(lenient.stderr, /bad-tag-sitemap\.xml:3:3: error XML-007 /);
  const never = await runCli(['parse', bad, '--fail-on', 'never']);
  assert.equal(never.code, 0);
  assert.equal(never.stdout, lenient.stdout);
});

test('exit 1 when a document cannot be read: missing file, HTML page; exit 2 on bad usage', async () => {
  const missing = await runCli(['parse', '/nonexistent/sitemap.xml']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /error FETCH-001 cannot read \/nonexistent\/sitemap\.xml/);
  const html = await runCli(['parse', '-'], { input: '<!doctype html><html><body>hi</body></html>' });
  assert.equal(html.code, 1);
  assert.match(html.stderr, /FETCH-007/);
  assert.equal((await runCli(['parse'])).code, 2);
  assert.equal((await runCli(['parse', '--max-bytes', 'lots', SAMPLE])).code, 2);
});

test('an http(s) URL is fetched and streamed; HTTP errors exit 1', async () => {
  const body = gzipSync(urlset('<url><loc>/relative</loc></url><url><loc>https://example.com/b</loc></url>'));
  const site = await startSite({
    '/sitemap.xml.gz': { body },
    '/moved': { status: 301, headers: { location: '/sitemap.xml.gz' } },
  });
  try {
    const base = site.origin;
    const ok = await runCli(['parse', `${base}/sitemap.xml.gz`, '--fail-on', 'never']);
    assert.equal(ok.code, 0);
    assert.deepEqual(
      lines(ok.stdout).map((line) => (JSON.parse(line) as SourcedEntry).loc),
      [`${base}/relative`, 'https://example.com/b'],
    );
    const moved = await runCli(['parse', `${base}/moved`, '--fail-on', 'never']);
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(
      (JSON.parse(lines(moved.stdout)[0]!) as SourcedEntry).loc,
      `${base}/relative`,
      'relative locs resolve against the URL that answered',
    );
    const missing = await runCli(['parse', `${base}/nothing.xml`, '--fail-on', 'never']);
    assert.equal(missing.code, 1, 'a document not read is a failed run, whatever --fail-on says');
    assert.match(missing.stderr, /answered HTTP 404/);
  } finally {
    await site.close();
  }
});

test('--help explains the command', async () => {
  const { code, stdout } = await runCli(['parse', '--help']);
  assert.equal(code, 0);
  for (const flag of ['--csv', '--strict', '--base-url', '--max-bytes']) assert.ok(stdout.includes(flag), flag);
});
