/**
 * writeSitemaps with a ledger of earlier runs: stable shards, shards left as they are on disk,
 * pages dated by their content, and the changes recorded — always on top of atomic publication.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { UrlEntry } from '../../src/core/index.js';
import {
  GenerateError,
  writeSitemaps,
  type GeneratorInput,
  type WriteSitemapsOptions,
  type WriteSummary,
} from '../../src/generate/index.js';
import { Publication } from '../../src/generate/publication.js';
import { GenerateLedger } from '../../src/store/generate-ledger.js';
import { validateManyAgainstXsd } from '../helpers/xsd.js';
import { BASE_URL, locsOf } from './entries.js';
import { servedSet } from './served-set.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-incremental-'));
after(() => rm(scratch, { recursive: true, force: true }));
let sites = 0;

const LONG_AGO = new Date('2001-01-01T00:00:00Z');

/** One site: an output directory and the ledger of its runs. */
function site() {
  const n = ++sites;
  const outDir = join(scratch, `out-${n}`);
  const ledger = new GenerateLedger(join(scratch, `state-${n}`, 'generate.sqlite'));
  after(() => ledger.close());
  return {
    outDir,
    ledger,
    run: (entries: Iterable<GeneratorInput>, options: Partial<WriteSitemapsOptions> = {}) =>
      writeSitemaps(entries, { outDir, baseUrl: BASE_URL, ledger, ...options }),
  };
}

/** Sets every file of `dir` to a time long ago, so that a file written again shows it. */
async function ageFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir)) await utimes(join(dir, name), LONG_AGO, LONG_AGO);
}

/** The names of the files of `dir` not touched since ageFiles, and those rewritten or new. */
async function touchedFiles(dir: string): Promise<{ untouched: string[]; written: string[] }> {
  const untouched: string[] = [];
  const written: string[] = [];
  for (const name of (await readdir(dir)).filter((name) => !name.startsWith('.')).sort()) {
    ((await stat(join(dir, name))).mtimeMs === LONG_AGO.getTime() ? untouched : written).push(name);
  }
  return { untouched, written };
}

const urlsPerFile = (summary: WriteSummary): number[] => summary.files.map((file) => file.urls);
const entries = (locs: string[], lastmod = '2024-01-01'): UrlEntry[] =>
  locs.map((loc) => ({ kind: 'url', loc: `${BASE_URL}${loc}`, lastmod }));
const names = (from: number, to: number): string[] =>
  Array.from({ length: to - from }, (_, i) => `p${String(from + i).padStart(2, '0')}`);

test('new URLs fill the last shard, then a new one; a removed URL leaves its shard smaller; the other shards stay on disk as they were', async () => {
  const { outDir, run } = site();
  const first = await run(entries(names(0, 10)), { maxUrls: 4 });
  assert.deepEqual(urlsPerFile(first), [4, 4, 2]);
  assert.deepEqual(first.changes, { run: 1, firstRun: true, added: 10, changed: 0, removed: 0 });
  await ageFiles(outDir);
  const before = new Map(
    await Promise.all(first.files.map(async (f) => [f.name, await readFile(join(outDir, f.name))] as const)),
  );

  const next = [...names(0, 10).filter((name) => name !== 'p01'), 'n1', 'n2', 'n3'];
  const progress: number[] = [];
  const second = await run(entries(next), { maxUrls: 4, onProgress: ({ files }) => progress.push(files) });
  assert.deepEqual(urlsPerFile(second), [3, 4, 4, 1]);
  assert.deepEqual(progress, [1, 2, 3], 'progress counts the files written, not those kept');
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 3, changed: 0, removed: 1 });
  const [shard0, shard1, shard2, shard3] = second.files.map((file) => file.name);
  assert.equal(shard1, first.files[1]!.name);
  assert.deepEqual(await readFile(join(outDir, shard1)), before.get(shard1));
  assert.deepEqual(await touchedFiles(outDir), {
    untouched: [shard1],
    written: [shard0!, shard2!, shard3!, 'sitemap.xml'].sort(),
  });
  assert.deepEqual(second.unchanged, [shard1]);
  assert.deepEqual(second.removed.sort(), [first.files[0]!.name, first.files[2]!.name].sort());
  assert.deepEqual(
    (await servedSet(outDir)).locs,
    entries(['p00', ...names(2, 10), 'n1', 'n2', 'n3']).map((e) => e.loc),
  );
});

test('the order of the input moves nothing: a run without changes touches no file, entry point included, and records a run with none', async () => {
  const { outDir, run } = site();
  const first = await run(entries(names(0, 9)), { maxUrls: 4 });
  await ageFiles(outDir);
  const second = await run(entries(names(0, 9)).reverse(), { maxUrls: 4 });
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 0, changed: 0, removed: 0 });
  assert.deepEqual(
    second.files.map((f) => f.name),
    first.files.map((f) => f.name),
  );
  assert.deepEqual((await touchedFiles(outDir)).written, []);
  assert.deepEqual(second.unchanged, [...first.files.map((f) => f.name), 'sitemap.xml']);
  assert.deepEqual(
    (await servedSet(outDir)).locs,
    entries(names(0, 9)).map((e) => e.loc),
  );
});

test('a kept shard is judged by its digest: a zero-filled file of the same size is written again', async () => {
  const { outDir, run } = site();
  const first = await run(entries(names(0, 9)), { maxUrls: 4, gzip: true });
  const zeroed = first.files[1]!.name;
  const bytes = await readFile(join(outDir, zeroed));
  await writeFile(join(outDir, zeroed), Buffer.alloc(bytes.length));
  await ageFiles(outDir);
  const second = await run(entries(names(0, 9)), { maxUrls: 4, gzip: true });
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 0, changed: 0, removed: 0 });
  assert.deepEqual((await touchedFiles(outDir)).written, [zeroed]);
  assert.deepEqual(await readFile(join(outDir, zeroed)), bytes);
  assert.deepEqual(
    (await servedSet(outDir)).locs,
    entries(names(0, 9)).map((e) => e.loc),
  );
});

test('a changed entry is rewritten in its own shard, and the index gives each shard the newest lastmod in it', async () => {
  const { outDir, run } = site();
  const list = entries(names(0, 12));
  list.forEach((entry, i) => (entry.lastmod = `2024-01-${String(10 + i).padStart(2, '0')}`));
  await run(list, { maxUrls: 4 });
  await ageFiles(outDir);
  list[5] = { ...list[5]!, lastmod: '2024-03-01T12:00:00+01:00' };
  const second = await run(list, { maxUrls: 4 });
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 0, changed: 1, removed: 0 });
  assert.deepEqual((await touchedFiles(outDir)).written, [second.files[1]!.name, 'sitemap.xml'].sort());
  const index = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    [...index.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]),
    ['2024-01-13', '2024-03-01T12:00:00+01:00', '2024-01-21'],
  );
});

test('an entry that grows past the byte limit hands the last URLs of its shard on: no file is ever over a limit', async () => {
  const { outDir, run } = site();
  // Room for a handful of entries beside the urlset's opening tag: shard 0 has less room left
  // than one entry takes, so an entry that grows by an image no longer fits in it.
  const maxBytes = 900;
  const list = entries(names(0, 20));
  const first = await run(list, { maxBytes });
  const perFile = urlsPerFile(first);
  assert.ok(perFile.length >= 3);
  await ageFiles(outDir);
  list[1] = { ...list[1]!, images: [{ loc: 'https://cdn.example.com/a-rather-long-image-name-that-takes-room.jpg' }] };
  const second = await run(list, { maxBytes });
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 0, changed: 1, removed: 0 });
  for (const file of [...second.files, second.index!])
    assert.ok((await stat(join(outDir, file.name))).size <= maxBytes, `${file.name} is over the limit`);
  assert.ok(second.files[0]!.urls < perFile[0]!, 'the grown shard handed URLs on');
  assert.deepEqual(new Set((await servedSet(outDir)).locs), new Set(list.map((e) => e.loc)));
  const documents = await Promise.all(
    second.files.map(async (f) => ({ fileName: f.name, contents: await readFile(join(outDir, f.name), 'utf8') })),
  );
  for (const [name, result] of await validateManyAgainstXsd(documents, 'extensions'))
    assert.deepEqual(result.errors, [], name);
  // The shards in the middle did not change: they are still the files of the first run.
  assert.ok((await touchedFiles(outDir)).untouched.length >= 1);
});

test('other options lay the shards out anew (old files removed), after which runs are stable again', async () => {
  const { outDir, run } = site();
  const list = entries(names(0, 10));
  await run(list, { maxUrls: 4 });
  const gzipped = await run(list, { maxUrls: 4, gzip: true });
  assert.deepEqual(gzipped.changes?.added, 0);
  assert.ok(gzipped.files.every((file) => file.name.endsWith('.xml.gz')));
  assert.deepEqual(
    (await readdir(outDir)).filter((name) => /^sitemap-.*\.xml$/.test(name)),
    [],
  );
  assert.deepEqual(
    locsOf(gunzipSync(await readFile(join(outDir, gzipped.files[0]!.name))).toString()),
    list.slice(0, 4).map((e) => e.loc),
  );
  await ageFiles(outDir);
  const again = await run([...list, ...entries(['new'])], { maxUrls: 4, gzip: true });
  assert.deepEqual((await touchedFiles(outDir)).written, [again.files[2]!.name, 'sitemap.xml'].sort());
});

test('a shard that vanished from the output (a build that wiped the folder) is written again, byte for byte', async () => {
  const { outDir, run } = site();
  const list = entries(names(0, 9));
  const first = await run(list, { maxUrls: 4 });
  const bytes = await Promise.all(first.files.map((f) => readFile(join(outDir, f.name))));
  await rm(outDir, { recursive: true });
  const second = await run(list, { maxUrls: 4 });
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 0, changed: 0, removed: 0 });
  assert.deepEqual(
    second.files.map((f) => f.name),
    first.files.map((f) => f.name),
  );
  assert.deepEqual(await Promise.all(second.files.map((f) => readFile(join(outDir, f.name)))), bytes);
});

test('a site that grows past one file and shrinks back keeps its entry point, whole at each step', async () => {
  const { outDir, run } = site();
  const one = await run(entries(names(0, 3)), { maxUrls: 4 });
  assert.deepEqual([one.index, one.files[0]!.name], [undefined, 'sitemap.xml']);
  await ageFiles(outDir);
  assert.deepEqual((await run(entries(names(0, 3)), { maxUrls: 4 })).changes?.changed, 0);
  assert.deepEqual((await touchedFiles(outDir)).written, [], 'one unchanged file is left as it is');
  const two = await run(entries(names(0, 6)), { maxUrls: 4 });
  assert.deepEqual(urlsPerFile(two), [4, 2]);
  assert.equal(two.index?.name, 'sitemap.xml');
  assert.deepEqual(
    (await servedSet(outDir)).locs,
    entries(names(0, 6)).map((e) => e.loc),
  );
  const back = await run(entries(names(0, 2)), { maxUrls: 4 });
  assert.deepEqual(back.changes, { run: 4, firstRun: false, added: 0, changed: 0, removed: 4 });
  assert.deepEqual(
    (await servedSet(outDir)).locs,
    entries(names(0, 2)).map((e) => e.loc),
  );
  assert.deepEqual((await readdir(outDir)).sort(), ['.sitemap-manifest.json', 'sitemap.xml']);
});

test('pages with a content digest are dated by their content: kept while it stays, the run time when it changes or appears', async () => {
  const { outDir, run } = site();
  const page = (loc: string, contentDigest: string, fileTime: string): GeneratorInput => ({
    entry: { kind: 'url', loc: `${BASE_URL}${loc}`, lastmod: fileTime },
    contentDigest,
  });
  const firstRun = new Date('2024-05-01T10:00:00Z');
  const first = await run(
    [page('a.html', 'A1', '2024-04-01T00:00:00Z'), page('b.html', 'B1', '2024-04-02T00:00:00Z')],
    {
      now: firstRun,
    },
  );
  // The site's first run: the input's dates (file times, or last commits) stand.
  assert.deepEqual(first.files[0]!.lastmod, '2024-04-02T00:00:00Z');
  const rebuilt = '2024-06-01T00:00:00Z'; // a new build: every file time moved
  const secondRun = new Date('2024-06-01T00:05:00Z');
  const second = await run(
    [page('a.html', 'A1', rebuilt), page('b.html', 'B2', rebuilt), page('c.html', 'C1', rebuilt)],
    { now: secondRun },
  );
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 1, changed: 1, removed: 0 });
  const served = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    [...served.matchAll(/<loc>([^<]+)<\/loc>\s*<lastmod>([^<]+)<\/lastmod>/g)].map((m) => [m[1], m[2]]),
    [
      [`${BASE_URL}a.html`, '2024-04-01T00:00:00Z'],
      [`${BASE_URL}b.html`, '2024-06-01T00:05:00Z'],
      [`${BASE_URL}c.html`, '2024-06-01T00:05:00Z'],
    ],
  );
});

test('URL lists keep their own lastmod (a new one is a change), and none is invented for entries without one', async () => {
  const { outDir, run } = site();
  await run(
    [
      { kind: 'url', loc: '/a', lastmod: '2024-01-01' },
      { kind: 'url', loc: '/b' },
    ],
    { now: new Date('2030-01-01T00:00:00Z') },
  );
  const second = await run(
    [
      { kind: 'url', loc: '/a', lastmod: '2024-02-01' },
      { kind: 'url', loc: '/b' },
    ],
    {
      now: new Date('2030-02-01T00:00:00Z'),
    },
  );
  assert.deepEqual(second.changes, { run: 2, firstRun: false, added: 0, changed: 1, removed: 0 });
  const xml = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
  assert.match(xml, /<loc>https:\/\/www\.example\.com\/a<\/loc>\s*<lastmod>2024-02-01<\/lastmod>/);
  assert.match(xml, /<loc>https:\/\/www\.example\.com\/b<\/loc>\s*<\/url>/);
});

test('duplicates are found through the ledger: written once, at the first occurrence, and reported', async () => {
  const { outDir, run } = site();
  const problems: string[] = [];
  const summary = await run([...entries(['a', 'b'], '2024-01-01'), ...entries(['a'], '2025-01-01')], {
    onProblem: (problem) => problems.push(`${problem.code} ${problem.url}`),
  });
  assert.equal(summary.duplicates, 1);
  assert.deepEqual(problems, [`URL-006 ${BASE_URL}a`]);
  assert.match(await readFile(join(outDir, 'sitemap.xml'), 'utf8'), /<lastmod>2024-01-01<\/lastmod>/);
});

test('a run that publishes nothing (strict, no URL, aborted) leaves the ledger as it was: the next run reports the same changes', async () => {
  const { run } = site();
  await run(entries(['a', 'b']));
  const next = [...entries(['a', 'c']), { kind: 'url' as const, loc: 'ftp://elsewhere/x' }];
  await assert.rejects(run(next, { strict: true }), GenerateError);
  await assert.rejects(run([]), /no URL could be written/);
  const aborted = new AbortController();
  aborted.abort('interrupted');
  await assert.rejects(run(entries(['a', 'c']), { signal: aborted.signal }), /stopped before the end/);
  const published = await run(next);
  assert.deepEqual(published.changes, { run: 2, firstRun: false, added: 1, changed: 0, removed: 1 });
});

test('a shard the new set keeps but that is gone at the commit stops the run before the entry point switches', async () => {
  const { outDir, run } = site();
  const first = await run(entries(names(0, 9)), { maxUrls: 4 });
  const indexBefore = await readFile(join(outDir, 'sitemap.xml'));
  const publication = await Publication.begin(outDir, 'sitemap');
  await writeFile(publication.tempPath('index'), 'the next index');
  const [gone, ...others] = first.files;
  await rm(join(outDir, gone!.name));
  await assert.rejects(
    publication.commit(
      first.files.map((file) => ({ tempName: undefined, name: file.name, size: file.bytes })),
      { tempName: 'index', name: 'sitemap.xml', size: 14 },
    ),
    /which the new set keeps from the last run, was removed or changed while the run was writing; run again/,
  );
  await publication.abort();
  assert.deepEqual(await readFile(join(outDir, 'sitemap.xml')), indexBefore, 'the entry point did not switch');
  for (const file of others) assert.ok((await stat(join(outDir, file.name))).isFile(), `${file.name} stays`);
});
