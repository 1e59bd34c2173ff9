/**
 * `sitemapkit diff OLD NEW` as a user runs it: real corpus documents with edits, gzip against
 * plain, directories of sitemaps written by generate, a site's tree over HTTP, standard input,
 * moves found through redirects on a local site, and sets that could not be read whole.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { UrlEntry } from '../../src/core/entry.js';
import { writeSitemaps } from '../../src/generate/index.js';
import { runCli } from '../helpers/cli.js';
import { CONFORMANCE_DIR } from '../helpers/paths.js';
import { sitemapIndex, startSite, urlset, XML } from '../helpers/site-server.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-diff-cli-'));
after(() => rm(scratch, { recursive: true, force: true }));

const NEWS = join(CONFORMANCE_DIR, 'cases/crawler-commons/extension/hebdenbridgetimes-articles-sitemap.xml');

interface Row {
  change: string;
  loc: string;
  fields?: string[];
  old?: Record<string, unknown>;
  new?: Record<string, unknown>;
  to?: string;
  summary?: Record<string, unknown>;
}

const rowsOf = (stdout: string): Row[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

const locOf = (block: string): string => /<loc>([^<]+)<\/loc>/.exec(block)![1]!.replaceAll('&amp;', '&');

test('a real news sitemap and an edited copy: one lastmod, one caption, one URL gone and one new, exactly, in URL order', async () => {
  const original = await readFile(NEWS, 'utf8');
  const blocks = original.match(/<url>[\s\S]*?<\/url>/g)!;
  assert.equal(blocks.length, 74);
  const [first, second, , third] = blocks as [string, string, string, string];
  const added = 'https://www.hebdenbridgetimes.co.uk/news/a-new-story-1-9999999';
  const edited = original
    .replace(first, first.replace('2015-05-03T18:51:50+01:00', '2015-05-04T08:00:00+01:00'))
    .replace(second, '')
    .replace(third, third.replace('<image:caption>', '<image:caption>Updated: '))
    .replace('</urlset>', `<url><loc>${added}</loc><lastmod>2015-05-05</lastmod></url>\n</urlset>`);
  const old = join(scratch, 'news-old.xml');
  const edit = join(scratch, 'news-new.xml');
  await copyFile(NEWS, old);
  await writeFile(edit, edited);

  const result = await runCli(['diff', old, edit, '--json']);
  assert.equal(result.code, 0, result.stderr);
  const rows = rowsOf(result.stdout);
  const summary = rows.pop()!.summary!;
  assert.deepEqual(
    rows.map(({ change, loc, fields }) => ({ change, loc, ...(fields ? { fields } : {}) })),
    [
      { change: 'changed', loc: locOf(first), fields: ['lastmod'] },
      { change: 'removed', loc: locOf(second) },
      { change: 'changed', loc: locOf(third), fields: ['images'] },
      { change: 'added', loc: added },
    ].sort((a, b) => (a.loc < b.loc ? -1 : 1)),
  );
  const lastmod = rows.find((row) => row.loc === locOf(first))!;
  assert.deepEqual(
    [lastmod.old!.lastmod, lastmod.new!.lastmod],
    ['2015-05-03T18:51:50+01:00', '2015-05-04T08:00:00+01:00'],
  );
  assert.equal(lastmod.old!.changefreq, 'daily', 'old and new are whole entries');
  assert.equal(rows.find((row) => row.change === 'added')!.new!.lastmod, '2015-05-05');
  assert.deepEqual(summary, {
    old: { source: old, documents: 1, urls: 74, duplicates: 0, complete: true },
    new: { source: edit, documents: 1, urls: 74, duplicates: 0, complete: true },
    added: 1,
    removed: 1,
    changed: 2,
    moved: 0,
    unchanged: 71,
    fields: { lastmod: 1, images: 1 },
  });
  assert.equal(
    result.stderr,
    `old  ${old}: 74 URLs in 1 document\nnew  ${edit}: 74 URLs in 1 document\n` +
      '1 added, 1 removed, 2 changed (lastmod 1, images 1); 71 unchanged\n',
  );

  // Exit 0 whatever the differences; --exit-code makes them 1, as git diff does.
  assert.equal((await runCli(['diff', old, edit, '--exit-code', '-q'])).code, 1);
  // The same document gzipped, on standard input: no difference at all.
  const gzipped = join(scratch, 'news-new.xml.gz');
  await writeFile(gzipped, gzipSync(edited));
  const same = await runCli(['diff', gzipped, '-', '--exit-code'], { input: edited });
  assert.deepEqual([same.code, same.stdout], [0, ''], same.stderr);
  assert.match(same.stderr, /no differences: 74 URLs the same\n$/);
});

/** Writes the sitemaps of `entries` into `dir` as generate does, in shards of `maxUrls`. */
async function published(dir: string, entries: UrlEntry[], maxUrls: number, gzip = false): Promise<void> {
  await writeSitemaps(entries, { outDir: dir, baseUrl: 'https://www.example.com/', maxUrls, gzip });
}

const page = (n: number, lastmod = '2024-01-01'): UrlEntry => ({
  kind: 'url',
  loc: `https://www.example.com/p${n}`,
  lastmod,
});

test('two directories written by generate: each read through its index and shards, gzip or not', async () => {
  const before = join(scratch, 'site-before');
  const afterDir = join(scratch, 'site-after');
  const pages = Array.from({ length: 25 }, (_, i) => page(i));
  await published(before, pages, 4);
  const next = pages.filter((_, i) => i !== 7).map((entry, i) => (i === 12 ? page(13, '2024-03-01') : entry));
  next.push(page(40), page(41));
  await published(afterDir, next, 4, true);
  const result = await runCli(['diff', before, afterDir, '--json']);
  assert.equal(result.code, 0, result.stderr);
  const rows = rowsOf(result.stdout);
  const summary = rows.pop()!.summary as { old: { documents: number }; new: { documents: number } };
  assert.deepEqual(
    rows.map((row) => `${row.change} ${row.loc.replace('https://www.example.com/', '')}`),
    ['changed p13', 'added p40', 'added p41', 'removed p7'],
  );
  assert.deepEqual([summary.old.documents, summary.new.documents], [1 + 7, 1 + 7]);

  // A shard missing beside its index: the set was not read whole, and the run says so (exit 1).
  const index = await readFile(join(afterDir, 'sitemap.xml'), 'utf8');
  const shard = /<loc>https:\/\/www\.example\.com\/([^<]+)<\/loc>/.exec(index)![1]!;
  await rm(join(afterDir, shard));
  const broken = await runCli(['diff', before, afterDir]);
  assert.equal(broken.code, 1);
  assert.match(
    broken.stderr,
    new RegExp(`error FETCH-001 https://www\\.example\\.com/${shard.replace('.', '\\.')} was looked for at`),
  );
  assert.match(broken.stderr, /was not read whole \(see above\): the URLs it did not give show as removed\n$/);
});

test("a site's whole tree over HTTP against a local copy; moves found through the removed URLs' redirects", async () => {
  const site = await startSite((origin) => ({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `Sitemap: ${origin}/sitemap_index.xml\n` },
    '/sitemap_index.xml': { headers: XML, body: sitemapIndex([`${origin}/a.xml`, `${origin}/b.xml`]) },
    '/a.xml': { headers: XML, body: urlset([`${origin}/kept`, `${origin}/old-name`]) },
    '/b.xml': { headers: XML, body: urlset([`${origin}/gone`, `${origin}/also-moved`]) },
    '/old-name': { status: 301, headers: { location: '/new-name' } },
    '/also-moved': { status: 302, headers: { location: `${origin}/hop` } },
    '/hop': { status: 301, headers: { location: `${origin}/renamed` } },
    '/gone': { status: 404 },
  }));
  try {
    const local = join(scratch, 'staging');
    await mkdir(local, { recursive: true });
    const o = site.origin;
    await writeFile(join(local, 'sitemap.xml'), urlset([`${o}/kept`, `${o}/new-name`, `${o}/renamed`, `${o}/fresh`]));
    const plain = await runCli(['diff', o.replace('http://', ''), local]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(
      rowsOf(plain.stdout).map((row) => `${row.change} ${row.loc.replace(o, '')}`),
      [
        'removed /also-moved',
        'added /fresh',
        'removed /gone',
        'added /new-name',
        'removed /old-name',
        'added /renamed',
      ],
    );
    const checked = await runCli(['diff', site.url('/sitemap_index.xml'), local, '--check-redirects', '--json']);
    assert.equal(checked.code, 0, checked.stderr);
    const rows = rowsOf(checked.stdout);
    const summary = rows.pop()!.summary!;
    assert.deepEqual(rows, [
      { change: 'moved', loc: `${o}/also-moved`, to: `${o}/renamed` },
      { change: 'added', loc: `${o}/fresh`, new: {} },
      { change: 'removed', loc: `${o}/gone`, old: {} },
      { change: 'moved', loc: `${o}/old-name`, to: `${o}/new-name` },
    ]);
    assert.deepEqual(
      [summary.added, summary.removed, summary.moved, summary.unchanged, summary.unchecked],
      [1, 1, 2, 1, 0],
    );
    assert.match(checked.stderr, /1 added, 1 removed, 0 changed, 2 moved; 1 unchanged\n/);
  } finally {
    await site.close();
  }
});

test('bad usage and missing sources are refused before any work', async () => {
  const one = await runCli(['diff', 'a.xml']);
  assert.deepEqual(
    [one.code, one.stderr.split('\n')[0]],
    [2, 'sitemapkit diff: give two sets to compare: OLD NEW (files, directories, URLs, sites or -)'],
  );
  assert.equal((await runCli(['diff', '-', '-'])).code, 2);
  const missing = await runCli(['diff', join(scratch, 'nowhere.xml'), NEWS]);
  assert.deepEqual([missing.code, missing.stdout], [1, '']);
  assert.match(missing.stderr, /cannot read .*nowhere\.xml: no such file or directory/);
  const help = await runCli(['diff', '--help']);
  assert.match(help.stdout, /--check-redirects {6}request every removed URL/);
  assert.match(
    (await runCli(['--help'])).stdout,
    /\n {2}diff {6}Compare two sets of sitemaps: the URLs added, removed, changed \(and moved\)\.\n/,
  );
});

test('a URL list line without loc is an error with its file and line, and the set is not read whole (exit 1, no crash)', async () => {
  const old = join(scratch, 'no-loc-old.jsonl');
  const edit = join(scratch, 'no-loc-new.jsonl');
  await writeFile(old, '{"loc":"https://www.example.com/a"}\n{"loc":"https://www.example.com/b"}\n');
  await writeFile(edit, '{"loc":"https://www.example.com/a"}\n{"lastmod":"2024-05-01"}\n');
  const result = await runCli(['diff', old, edit]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(`${edit.replaceAll('\\', '\\\\')}:2:1: error INPUT-001 the entry has no "loc"`),
  );
  assert.match(result.stderr, /was not read whole/);
  assert.doesNotMatch(result.stderr, /Cannot read properties/);
});
