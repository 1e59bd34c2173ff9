import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { Diagnostic, UrlEntry } from '../../src/core/index.js';
import {
  GenerateError,
  serializeUrlEntry,
  writeSitemaps,
  type GeneratorInput,
  type WriteSitemapsOptions,
} from '../../src/generate/index.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { BASE_URL, locsOf, plainEntries } from './entries.js';
import { servedSet } from './served-set.js';

/** The record of a run's own files, kept beside the output. */
const MANIFEST = '.sitemap-manifest.json';
/** A shard's name: its position, then the first 12 hex digits of its content's SHA-256. */
const shardName = (position: number, extension: string): RegExp =>
  new RegExp(`^sitemap-${position}-[0-9a-f]{12}\\.${extension.replace('.', '\\.')}$`);
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-write-'));
after(() => rm(scratch, { recursive: true, force: true }));
let runs = 0;
const freshDir = (): string => join(scratch, `run-${++runs}`);

async function write(
  entries: Iterable<GeneratorInput> | AsyncIterable<GeneratorInput>,
  options: Partial<WriteSitemapsOptions> = {},
) {
  const outDir = options.outDir ?? freshDir();
  const problems: Diagnostic[] = [];
  const summary = await writeSitemaps(entries, {
    outDir,
    baseUrl: BASE_URL,
    onProblem: (p) => problems.push(p),
    ...options,
  });
  return { outDir, summary, problems, files: (await readdir(outDir)).sort() };
}

/** Name → bytes of every file in a directory, to compare states byte for byte. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir)).sort();
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name))] as const)));
}

test('50,000 URLs make one file and no index; 50,001 make two shards named by content, and the index is sitemap.xml', async () => {
  const one = await write(plainEntries(50_000));
  assert.deepEqual(one.files, [MANIFEST, 'sitemap.xml']);
  assert.equal(one.summary.index, undefined);
  assert.equal(one.summary.files[0]!.urls, 50_000);
  assert.deepEqual(one.summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);

  const two = await write(plainEntries(50_001));
  const shards = two.summary.files.map((f) => f.name);
  assert.deepEqual(two.files, [MANIFEST, ...shards, 'sitemap.xml']);
  assert.match(shards[0]!, shardName(0, 'xml'));
  assert.match(shards[1]!, shardName(1, 'xml'));
  assert.deepEqual(
    two.summary.files.map((f) => f.urls),
    [50_000, 1],
  );
  assert.equal(two.summary.index?.name, 'sitemap.xml');
  assert.deepEqual(two.summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);
  const index = await readFile(join(two.outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    locsOf(index),
    shards.map((name) => `${BASE_URL}${name}`),
  );
  assert.deepEqual((await validateAgainstXsd(index, 'siteindex')).errors, []);
  const first = await readFile(join(two.outDir, shards[0]!), 'utf8');
  const second = await readFile(join(two.outDir, shards[1]!), 'utf8');
  assert.equal(locsOf(first).length, 50_000);
  assert.deepEqual(locsOf(second), [`${BASE_URL}page/50000`]);
  assert.equal(Buffer.byteLength(first), two.summary.files[0]!.bytes);
  // The name carries the SHA-256 of the document it names.
  assert.equal(shards[1]!.slice('sitemap-1-'.length, -'.xml'.length), sha256(second).slice(0, 12));
  assert.deepEqual((await validateAgainstXsd(first, 'extensions')).errors, []);
  assert.deepEqual((await validateAgainstXsd(second, 'extensions')).errors, []);
});

test('a byte limit splits on bytes (UTF-8, closing tag included): no file exceeds it and each is full', async () => {
  const maxBytes = 1500;
  // Captions of 0 to 3 repeats of multi-byte text: bytes, not characters, must be counted.
  const entries = Array.from({ length: 60 }, (_, i): UrlEntry => {
    const caption = 'Zürich — Grüße '.repeat(i % 4);
    return {
      kind: 'url',
      loc: `${BASE_URL}p/${i}`,
      images: [
        caption ? { loc: `https://cdn.example.com/${i}.jpg`, caption } : { loc: `https://cdn.example.com/${i}.jpg` },
      ],
    };
  });
  const { outDir, summary } = await write(entries, { maxBytes, namespaces: ['image'] });
  assert.ok(summary.files.length > 3, `${summary.files.length} files`);
  let next = 0;
  for (const [i, file] of summary.files.entries()) {
    const xml = await readFile(join(outDir, file.name), 'utf8');
    assert.equal(Buffer.byteLength(xml), file.bytes);
    assert.ok(file.bytes <= maxBytes, `${file.name} has ${file.bytes} bytes`);
    assert.deepEqual(
      locsOf(xml),
      entries.slice(next, next + file.urls).map((e) => e.loc),
    );
    next += file.urls;
    // Every file but the last was closed only because the next entry would not fit.
    if (i < summary.files.length - 1) {
      const room = maxBytes - file.bytes;
      assert.ok(
        Buffer.byteLength(serializeUrlEntry(entries[next]!)) > room,
        `${file.name} had room for the next entry`,
      );
    }
    if (i === 0 || i === summary.files.length - 1)
      assert.deepEqual((await validateAgainstXsd(xml, 'extensions')).errors, []);
  }
  assert.equal(next, 60);
});

test('each index lastmod is the newest lastmod of its shard (by instant), omitted when none has one', async () => {
  const entries: UrlEntry[] = [
    { kind: 'url', loc: `${BASE_URL}a`, lastmod: '2024-05-01T23:00:00-02:00' }, // 2024-05-02T01:00Z: newest
    { kind: 'url', loc: `${BASE_URL}b`, lastmod: '2024-05-02T00:30:00Z' },
    { kind: 'url', loc: `${BASE_URL}c`, lastmod: '2023-01-01' },
    { kind: 'url', loc: `${BASE_URL}d` },
    { kind: 'url', loc: `${BASE_URL}e` },
    { kind: 'url', loc: `${BASE_URL}f`, lastmod: '2022-07' },
  ];
  const { outDir, summary } = await write(entries, { maxUrls: 3 });
  assert.deepEqual(
    summary.files.map((f) => f.lastmod),
    ['2024-05-01T23:00:00-02:00', '2022-07-01'],
  );
  const index = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
  assert.match(
    index,
    /<loc>https:\/\/www\.example\.com\/sitemap-0-[0-9a-f]{12}\.xml<\/loc><lastmod>2024-05-01T23:00:00-02:00<\/lastmod>/,
  );
  const noDates = await write(
    [
      { kind: 'url', loc: `${BASE_URL}a` },
      { kind: 'url', loc: `${BASE_URL}b` },
    ],
    { maxUrls: 1 },
  );
  const plainIndex = await readFile(join(noDates.outDir, 'sitemap.xml'), 'utf8');
  assert.doesNotMatch(plainIndex, /<lastmod>/);
  assert.equal((await validateAgainstXsd(plainIndex, 'siteindex')).valid, true);
});

test('--gzip shards gunzip to the same XML as the plain run, under the same names; the index stays plain unless gzipIndex', async () => {
  const plain = await write(plainEntries(2500), { maxUrls: 1000 });
  const gzipped = await write(plainEntries(2500), { maxUrls: 1000, gzip: true });
  const shards = gzipped.summary.files.map((f) => f.name);
  assert.deepEqual(
    shards,
    plain.summary.files.map((f) => `${f.name}.gz`),
    'named after the same content',
  );
  assert.deepEqual(gzipped.files, [MANIFEST, ...shards, 'sitemap.xml']);
  for (const [i, name] of shards.entries()) {
    assert.match(name, shardName(i, 'xml.gz'));
    const raw = await readFile(join(gzipped.outDir, name));
    assert.deepEqual(raw.subarray(0, 2), Buffer.from([0x1f, 0x8b]));
    assert.equal(gzipped.summary.files[i]!.gzipBytes, raw.length);
    assert.deepEqual(gunzipSync(raw), await readFile(join(plain.outDir, plain.summary.files[i]!.name)));
  }
  const index = await readFile(join(gzipped.outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    locsOf(index),
    shards.map((name) => `${BASE_URL}${name}`),
  );
  const both = await write(plainEntries(2500), { maxUrls: 1000, gzip: true, gzipIndex: true });
  assert.ok(both.files.includes('sitemap.xml.gz') && !both.files.includes('sitemap.xml'));
  assert.deepEqual(both.summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml.gz']);
  const gunzippedIndex = gunzipSync(await readFile(join(both.outDir, 'sitemap.xml.gz'))).toString();
  assert.equal((await validateAgainstXsd(gunzippedIndex, 'siteindex')).valid, true);
});

test('the entry point depends on the options alone: with --gzip it stays sitemap.xml as a site shrinks to one shard and grows again', async () => {
  const outDir = freshDir();
  for (const count of [2500, 3, 1, 1200]) {
    const { summary, files } = await write(plainEntries(count), { outDir, maxUrls: 1000, gzip: true });
    assert.deepEqual(summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml'], `${count} URLs`);
    assert.equal(summary.index?.name, 'sitemap.xml');
    const served = await servedSet(outDir);
    assert.equal(served.kind, 'sitemapindex');
    assert.deepEqual(
      served.locs,
      [...plainEntries(count)].map((e) => e.loc),
    );
    assert.deepEqual(files, [MANIFEST, ...served.shards, 'sitemap.xml'].sort(), 'no file of an earlier run is left');
  }
  // The same holds for text sitemaps and for a gzipped index alone.
  for (const options of [{ format: 'txt' as const }, { gzipIndex: true }]) {
    const dir = freshDir();
    const entryPoint = options.gzipIndex ? 'sitemap.xml.gz' : 'sitemap.xml';
    for (const count of [3, 2500]) {
      const { summary } = await write(plainEntries(count), { outDir: dir, maxUrls: 1000, ...options });
      assert.deepEqual(summary.robotsTxt, [`Sitemap: ${BASE_URL}${entryPoint}`], JSON.stringify(options));
      assert.equal((await servedSet(dir, entryPoint)).locs.length, count);
    }
  }
});

test('a run that fails midway (strict, bad entry late) leaves the previous output byte for byte, and no temporary files', async () => {
  const outDir = freshDir();
  await write(plainEntries(3000), { outDir, maxUrls: 1000, gzip: true });
  await writeFile(join(outDir, 'robots.txt'), 'Sitemap: https://www.example.com/sitemap.xml\n');
  const before = await snapshot(outDir);
  function* badLate(): Generator<GeneratorInput> {
    yield* plainEntries(2500, 'new');
    yield { entry: { kind: 'url', loc: `${BASE_URL}x`, lastmod: 'yesterday' }, source: 'urls.jsonl', line: 2501 };
    yield* plainEntries(10, 'after');
  }
  await assert.rejects(write(badLate(), { outDir, maxUrls: 100, strict: true }), (error: unknown) => {
    assert.ok(error instanceof GenerateError);
    assert.equal(error.diagnostic?.code, 'DATE-001');
    assert.equal(error.diagnostic?.line, 2501);
    assert.equal(error.diagnostic?.source, 'urls.jsonl');
    return true;
  });
  assert.deepEqual(await snapshot(outDir), before);
});

test('a failure from the input itself also leaves the output untouched', async () => {
  const outDir = freshDir();
  await write(plainEntries(10), { outDir });
  const before = await snapshot(outDir);
  // eslint-disable-next-line @typescript-eslint/require-await -- an async input that fails, as a stream can
  async function* failing(): AsyncGenerator<UrlEntry> {
    yield* plainEntries(5, 'new');
    throw new Error('disk read error');
  }
  await assert.rejects(write(failing(), { outDir }), /disk read error/);
  assert.deepEqual(await snapshot(outDir), before);
});

test("only files a previous run recorded as its own are removed: the site's own sitemap-7.xml and other files are kept", async () => {
  const outDir = freshDir();
  await mkdir(outDir);
  const own = {
    'sitemap-7.xml': "the site's own sitemap, never written by sitemapkit",
    'sitemap-0.xml': "also the site's own",
    'sitemap-news.xml': 'not ours by name',
    'index.html': '<p>keep me</p>',
  };
  for (const [name, content] of Object.entries(own)) await writeFile(join(outDir, name), content);
  const first = await write(plainEntries(5000), { outDir, maxUrls: 1000 });
  assert.deepEqual(first.summary.removed, []);
  const firstShards = first.summary.files.map((f) => f.name);
  const second = await write(plainEntries(1500, 'new'), { outDir, maxUrls: 1000, gzip: true });
  assert.deepEqual(second.summary.removed, [...firstShards].sort());
  const secondShards = second.summary.files.map((f) => f.name);
  assert.deepEqual(second.files, [MANIFEST, ...Object.keys(own), ...secondShards, 'sitemap.xml'].sort());
  const third = await write(plainEntries(3), { outDir });
  assert.deepEqual(third.summary.removed, [...secondShards].sort());
  assert.deepEqual(third.files, [MANIFEST, ...Object.keys(own), 'sitemap.xml'].sort());
  assert.equal(locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8')).length, 3);
  for (const [name, content] of Object.entries(own)) assert.equal(await readFile(join(outDir, name), 'utf8'), content);
});

test('a manifest that names other files (edited, damaged) never makes a run remove them', async () => {
  const outDir = freshDir();
  await write(plainEntries(3), { outDir });
  const site = join(outDir, 'site');
  await mkdir(site);
  await writeFile(join(site, 'page.html'), 'a page');
  await writeFile(join(outDir, 'about.html'), 'a page');
  await writeFile(join(outDir, 'sitemap-7.xml'), "the site's own");
  await writeFile(
    join(outDir, MANIFEST),
    JSON.stringify({
      files: ['sitemap.xml', 'about.html', 'site', '../outside.xml', 'site/page.html', 'sitemap-7.xml'],
    }),
  );
  const { summary, files } = await write(plainEntries(4), { outDir });
  assert.deepEqual(summary.removed, []);
  assert.deepEqual(files, [MANIFEST, 'about.html', 'site', 'sitemap-7.xml', 'sitemap.xml']);
  assert.equal(await readFile(join(site, 'page.html'), 'utf8'), 'a page');
  await writeFile(join(outDir, MANIFEST), 'not JSON');
  // A damaged manifest records nothing: not even sitemap.xml is known as a run's own any more.
  await assert.rejects(write(plainEntries(5), { outDir }), /sitemap\.xml was not written by sitemapkit/);
  assert.deepEqual((await write(plainEntries(5), { outDir, overwrite: true })).summary.removed, []);
});

test('an unchanged shard is left as it is (same bytes, same modification time); a changed one gets a new name', async () => {
  const outDir = freshDir();
  const first = await write(plainEntries(2500), { outDir, maxUrls: 1000, gzip: true });
  const names = first.summary.files.map((f) => f.name);
  const old = new Date('2020-01-01T00:00:00Z');
  for (const name of names) await utimes(join(outDir, name), old, old);
  const before = await snapshot(outDir);
  // Only the last shard's content changes.
  const entries = [...plainEntries(2500)];
  entries[2400] = { kind: 'url', loc: `${BASE_URL}changed` };
  const second = await write(entries, { outDir, maxUrls: 1000, gzip: true });
  const renamed = second.summary.files.map((f) => f.name);
  assert.deepEqual(renamed.slice(0, 2), names.slice(0, 2));
  assert.notEqual(renamed[2], names[2]);
  assert.deepEqual(second.summary.unchanged, names.slice(0, 2));
  assert.deepEqual(second.summary.removed, [names[2]]);
  for (const name of names.slice(0, 2)) {
    assert.deepEqual(await readFile(join(outDir, name)), before.get(name));
    assert.equal((await stat(join(outDir, name))).mtimeMs, old.getTime(), `${name} was rewritten`);
  }
  assert.deepEqual(
    (await servedSet(outDir)).locs,
    entries.map((e) => e.loc),
  );
});

test('a live shard of the right size holding other bytes (zeros after a power cut) is written again', async () => {
  const outDir = freshDir();
  const first = await write(plainEntries(2500), { outDir, maxUrls: 1000 });
  const names = first.summary.files.map((f) => f.name);
  const before = await snapshot(outDir);
  await writeFile(join(outDir, names[1]!), Buffer.alloc(before.get(names[1]!)!.length));
  const second = await write(plainEntries(2500), { outDir, maxUrls: 1000 });
  assert.deepEqual(second.summary.unchanged, [names[0], names[2], 'sitemap.xml']);
  assert.deepEqual(await readFile(join(outDir, names[1]!)), before.get(names[1]!));
});

test('duplicate URLs are written once (first wins) and counted; bad entries are reported with their place and skipped, bad fields left out', async () => {
  const input: GeneratorInput[] = [
    { entry: { kind: 'url', loc: '/a', lastmod: '2024-01-01' }, source: 'list.jsonl', line: 1 },
    { entry: { kind: 'url', loc: `${BASE_URL}a`, lastmod: '2025-01-01' }, source: 'list.jsonl', line: 2 },
    { entry: { kind: 'url', loc: `${BASE_URL}b`, priority: 7 }, source: 'list.jsonl', line: 3 },
    { problem: { code: 'INPUT-001', severity: 'error', message: 'not valid JSON', source: 'list.jsonl', line: 4 } },
    { kind: 'url', loc: `${BASE_URL}c` },
    { kind: 'url', loc: 'https://elsewhere.example/c' },
  ];
  const { outDir, summary, problems } = await write(input);
  assert.equal(summary.urls, 3);
  assert.equal(summary.duplicates, 1);
  assert.equal(summary.skipped, 2, 'the bad priority leaves out the field, not the URL');
  assert.deepEqual(summary.problems, { errors: 3, warnings: 1 });
  assert.deepEqual(
    problems.map((p) => [p.code, p.severity, p.source, p.line]),
    [
      ['URL-006', 'warning', 'list.jsonl', 2],
      ['PRIO-001', 'error', 'list.jsonl', 3],
      ['INPUT-001', 'error', 'list.jsonl', 4],
      ['URL-004', 'error', undefined, undefined],
    ],
  );
  assert.equal(problems[3]!.url, 'https://elsewhere.example/c');
  const xml = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(xml), [`${BASE_URL}a`, `${BASE_URL}b`, `${BASE_URL}c`]);
  assert.match(xml, /<url><loc>https:\/\/www\.example\.com\/b<\/loc><\/url>/, 'written without its priority');
  assert.match(
    xml,
    /<loc>https:\/\/www\.example\.com\/a<\/loc><lastmod>2024-01-01<\/lastmod>/,
    'the first occurrence wins',
  );
});

test("a placed entry's problem names its column when the reader knew it, else the start of its line", async () => {
  const { problems } = await write([
    { entry: { kind: 'url', loc: `${BASE_URL}a`, priority: 7 }, source: 'pages.csv', line: 3, column: 12 },
    { entry: { kind: 'url', loc: `${BASE_URL}b`, priority: 8 }, source: 'pages.csv', line: 4 },
  ]);
  assert.deepEqual(
    problems.map((p) => [p.code, p.source, p.line, p.column]),
    [
      ['PRIO-001', 'pages.csv', 3, 12],
      ['PRIO-001', 'pages.csv', 4, 1],
    ],
  );
});

test('other hosts are written when allowed', async () => {
  const { outDir, summary } = await write([{ kind: 'url', loc: 'https://shop.example.org/x' }], {
    allowOtherHosts: true,
  });
  assert.equal(summary.skipped, 0);
  assert.deepEqual(locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8')), ['https://shop.example.org/x']);
});

test('text format: one URL per line, same sharding, listed by an XML index even when one file holds all', async () => {
  const single = await write(plainEntries(3), { format: 'txt' });
  const [only] = single.summary.files;
  assert.match(only!.name, shardName(0, 'txt'));
  assert.deepEqual(single.files, [MANIFEST, only!.name, 'sitemap.xml']);
  assert.equal(
    await readFile(join(single.outDir, only!.name), 'utf8'),
    [0, 1, 2].map((i) => `${BASE_URL}page/${i}\n`).join(''),
  );
  const sharded = await write(plainEntries(5), { format: 'txt', maxUrls: 2, stylesheet: '/ignored-for-text.xsl' });
  const shards = sharded.summary.files.map((f) => f.name);
  assert.equal(shards.length, 3);
  assert.deepEqual(sharded.files, [MANIFEST, ...shards, 'sitemap.xml']);
  assert.equal(await readFile(join(sharded.outDir, shards[2]!), 'utf8'), `${BASE_URL}page/4\n`);
  const index = await readFile(join(sharded.outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    locsOf(index),
    shards.map((name) => `${BASE_URL}${name}`),
  );
  assert.equal((await validateAgainstXsd(index, 'siteindex')).valid, true);
  // 10 lines of about 33 bytes split into files of at most 100 bytes: 3 lines each, the URLs in order.
  const bytes = await write(plainEntries(10), { format: 'txt', maxBytes: 100 });
  const texts = await Promise.all(bytes.summary.files.map((file) => readFile(join(bytes.outDir, file.name), 'utf8')));
  assert.deepEqual(
    texts.map((text) => text.split('\n').length - 1),
    [3, 3, 3, 1],
  );
  for (const [i, text] of texts.entries()) {
    assert.ok(Buffer.byteLength(text) <= 100, `${bytes.summary.files[i]!.name}: ${Buffer.byteLength(text)} bytes`);
    assert.equal(Buffer.byteLength(text), bytes.summary.files[i]!.bytes);
  }
  assert.equal(texts.join(''), Array.from(plainEntries(10), (e) => `${e.loc}\n`).join(''));
});

test('news sitemaps split at 1,000 news entries; other URLs do not count toward that', async () => {
  const entries = Array.from({ length: 2100 }, (_, i): UrlEntry =>
    i % 2 === 0
      ? {
          kind: 'url',
          loc: `${BASE_URL}news/${i}`,
          news: {
            publication: { name: 'Example Times', language: 'en' },
            publicationDate: '2024-05-01',
            title: `Story ${i}`,
          },
        }
      : { kind: 'url', loc: `${BASE_URL}page/${i}` },
  );
  const { summary, outDir } = await write(entries);
  // The 1,001st news entry (index 2000) starts the second file.
  assert.deepEqual(
    summary.files.map((f) => f.urls),
    [2000, 100],
  );
  // What is on disk: two files, 1,000 and 50 news entries, every URL once and in order.
  const xmls = await Promise.all(summary.files.map((file) => readFile(join(outDir, file.name), 'utf8')));
  assert.deepEqual(
    xmls.map((xml) => xml.split('<news:news>').length - 1),
    [1000, 50],
  );
  assert.deepEqual(
    xmls.flatMap(locsOf),
    entries.map((e) => e.loc),
  );
  for (const xml of xmls) assert.deepEqual((await validateAgainstXsd(xml, 'extensions')).errors, []);
});

test('an input with no writable URL publishes nothing (an empty urlset fails the XSD); async iterables are read as well', async () => {
  const outDir = freshDir();
  await write(plainEntries(2), { outDir });
  const before = await snapshot(outDir);
  await assert.rejects(write([], { outDir }), /no URL could be written/);
  await assert.rejects(
    write([{ kind: 'url', loc: 'ftp://files.example.com/a' }], { outDir }),
    /no URL could be written/,
  );
  assert.deepEqual(await snapshot(outDir), before);
  async function* slowly(): AsyncGenerator<UrlEntry> {
    for (const entry of plainEntries(3)) {
      await new Promise((resolve) => setImmediate(resolve));
      yield entry;
    }
  }
  assert.equal((await write(slowly())).summary.urls, 3);
});

test('the options name their limits', async () => {
  await assert.rejects(write(plainEntries(1), { maxUrls: 50_001 }), /maxUrls must be a whole number from 1 to 50000/);
  await assert.rejects(write(plainEntries(1), { maxBytes: 0 }), /maxBytes/);
  await assert.rejects(write(plainEntries(1), { maxBytes: 200 }), /too small for one entry/);
  await assert.rejects(write(plainEntries(1), { fileBaseName: '../x' }), /plain file name/);
});

test('an input needing more files than an index may list is refused, naming the limit; nothing is published', async () => {
  // 50,001 one-URL files take tens of seconds to create, so the limit is lowered here; the
  // default is the protocol's 50,000 and cannot be raised.
  const outDir = freshDir();
  await write(plainEntries(2), { outDir });
  const before = await snapshot(outDir);
  await assert.rejects(write(plainEntries(4), { outDir, maxUrls: 1, maxFiles: 3 }), (error: unknown) => {
    assert.ok(error instanceof GenerateError);
    assert.match(error.message, /the input needs more than 3 sitemap files, the maxFiles option; raise --max-urls/);
    return true;
  });
  assert.deepEqual(await snapshot(outDir), before);
  await assert.rejects(write(plainEntries(1), { maxFiles: 50_001 }), /maxFiles must be a whole number from 1 to 50000/);
  assert.equal((await write(plainEntries(3), { maxUrls: 1, maxFiles: 3 })).summary.files.length, 3);
});
