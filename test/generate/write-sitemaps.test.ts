import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
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

test('50,000 URLs make one file and no index; 50,001 make two files and an index', async () => {
  const one = await write(plainEntries(50_000));
  assert.deepEqual(one.files, ['sitemap.xml']);
  assert.equal(one.summary.index, undefined);
  assert.equal(one.summary.files[0]!.urls, 50_000);
  assert.deepEqual(one.summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);

  const two = await write(plainEntries(50_001));
  assert.deepEqual(two.files, ['sitemap-0.xml', 'sitemap-1.xml', 'sitemap.xml']);
  assert.deepEqual(
    two.summary.files.map((f) => f.urls),
    [50_000, 1],
  );
  assert.equal(two.summary.index?.name, 'sitemap.xml');
  assert.deepEqual(two.summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);
  const index = await readFile(join(two.outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(index), ['https://www.example.com/sitemap-0.xml', 'https://www.example.com/sitemap-1.xml']);
  assert.deepEqual((await validateAgainstXsd(index, 'siteindex')).errors, []);
  const first = await readFile(join(two.outDir, 'sitemap-0.xml'), 'utf8');
  const second = await readFile(join(two.outDir, 'sitemap-1.xml'), 'utf8');
  assert.equal(locsOf(first).length, 50_000);
  assert.deepEqual(locsOf(second), [`${BASE_URL}page/50000`]);
  assert.equal(Buffer.byteLength(first), two.summary.files[0]!.bytes);
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
    /<loc>https:\/\/www\.example\.com\/sitemap-0\.xml<\/loc><lastmod>2024-05-01T23:00:00-02:00<\/lastmod>/,
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

test('--gzip shards gunzip to the same XML as the plain run; the index stays plain unless gzipIndex', async () => {
  const plain = await write(plainEntries(2500), { maxUrls: 1000 });
  const gzipped = await write(plainEntries(2500), { maxUrls: 1000, gzip: true });
  assert.deepEqual(gzipped.files, ['sitemap-0.xml.gz', 'sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap.xml']);
  for (let i = 0; i < 3; i++) {
    const raw = await readFile(join(gzipped.outDir, `sitemap-${i}.xml.gz`));
    assert.deepEqual(raw.subarray(0, 2), Buffer.from([0x1f, 0x8b]));
    assert.equal(gzipped.summary.files[i]!.gzipBytes, raw.length);
    assert.deepEqual(gunzipSync(raw), await readFile(join(plain.outDir, `sitemap-${i}.xml`)));
  }
  const index = await readFile(join(gzipped.outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    locsOf(index),
    [0, 1, 2].map((i) => `${BASE_URL}sitemap-${i}.xml.gz`),
  );
  const both = await write(plainEntries(2500), { maxUrls: 1000, gzip: true, gzipIndex: true });
  assert.ok(both.files.includes('sitemap.xml.gz') && !both.files.includes('sitemap.xml'));
  assert.deepEqual(both.summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml.gz']);
  const gunzippedIndex = gunzipSync(await readFile(join(both.outDir, 'sitemap.xml.gz'))).toString();
  assert.equal((await validateAgainstXsd(gunzippedIndex, 'siteindex')).valid, true);
  const single = await write(plainEntries(3), { gzip: true });
  assert.deepEqual(single.files, ['sitemap.xml.gz']);
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

test('files of a previous, larger run are removed after the new set is in place; other files are kept', async () => {
  const outDir = freshDir();
  await write(plainEntries(5000), { outDir, maxUrls: 1000 });
  await writeFile(join(outDir, 'index.html'), '<p>keep me</p>');
  await writeFile(join(outDir, 'sitemap-news.xml'), 'not ours by name');
  const second = await write(plainEntries(1500), { outDir, maxUrls: 1000, gzip: true });
  assert.deepEqual(second.summary.removed, [
    'sitemap-0.xml',
    'sitemap-1.xml',
    'sitemap-2.xml',
    'sitemap-3.xml',
    'sitemap-4.xml',
  ]);
  assert.deepEqual(second.files, [
    'index.html',
    'sitemap-0.xml.gz',
    'sitemap-1.xml.gz',
    'sitemap-news.xml',
    'sitemap.xml',
  ]);
  const third = await write(plainEntries(3), { outDir });
  assert.deepEqual(third.summary.removed, ['sitemap-0.xml.gz', 'sitemap-1.xml.gz']);
  assert.deepEqual(third.files, ['index.html', 'sitemap-news.xml', 'sitemap.xml']);
  assert.equal(locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8')).length, 3);
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

test('other hosts are written when allowed', async () => {
  const { outDir, summary } = await write([{ kind: 'url', loc: 'https://shop.example.org/x' }], {
    allowOtherHosts: true,
  });
  assert.equal(summary.skipped, 0);
  assert.deepEqual(locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8')), ['https://shop.example.org/x']);
});

test('text format: one URL per line, same sharding, an XML index of the text files', async () => {
  const single = await write(plainEntries(3), { format: 'txt' });
  assert.deepEqual(single.files, ['sitemap.txt']);
  assert.equal(
    await readFile(join(single.outDir, 'sitemap.txt'), 'utf8'),
    [0, 1, 2].map((i) => `${BASE_URL}page/${i}\n`).join(''),
  );
  const sharded = await write(plainEntries(5), { format: 'txt', maxUrls: 2, stylesheet: '/ignored-for-text.xsl' });
  assert.deepEqual(sharded.files, ['sitemap-0.txt', 'sitemap-1.txt', 'sitemap-2.txt', 'sitemap.xml']);
  assert.equal(await readFile(join(sharded.outDir, 'sitemap-2.txt'), 'utf8'), `${BASE_URL}page/4\n`);
  const index = await readFile(join(sharded.outDir, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    locsOf(index),
    [0, 1, 2].map((i) => `${BASE_URL}sitemap-${i}.txt`),
  );
  assert.equal((await validateAgainstXsd(index, 'siteindex')).valid, true);
  const bytes = await write(plainEntries(10), { format: 'txt', maxBytes: 100 });
  for (const file of bytes.summary.files) assert.ok(file.bytes <= 100);
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
  const { summary } = await write(entries);
  // The 1,001st news entry (index 2000) starts the second file.
  assert.deepEqual(
    summary.files.map((f) => f.urls),
    [2000, 100],
  );
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
