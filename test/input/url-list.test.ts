import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { formatFromContent, readLines, readUrlList, type ReadItem } from '../../src/input/index.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-input-'));
after(() => rm(scratch, { recursive: true, force: true }));

async function fileWith(name: string, content: string | Buffer): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, content);
  return path;
}

async function collect(items: AsyncIterable<ReadItem>): Promise<ReadItem[]> {
  const all: ReadItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Entries as [line, loc] and problems as [line, code, message], in input order. */
function summarise(items: ReadItem[]): unknown[] {
  return items.map((item) =>
    'problem' in item ? [item.problem.line, item.problem.code, item.problem.message] : [item.line, item.entry.loc],
  );
}

test('txt: one URL per line, blank lines and # comments skipped, CRLF and BOM handled, line numbers kept', async () => {
  const path = await fileWith(
    'urls.txt',
    '\ufeffhttps://www.example.com/a\r\n\r\n# a comment\n  /relative  \nhttps://www.example.com/last',
  );
  const items = await collect(readUrlList(path));
  assert.deepEqual(summarise(items), [
    [1, 'https://www.example.com/a'],
    [4, '/relative'],
    [5, 'https://www.example.com/last'],
  ]);
  assert.ok(items.every((item) => 'entry' in item && item.source === path && item.entry.kind === 'url'));
});

test('jsonl: one entry object per line, kind optional; bad JSON and non-objects reported with line and column', async () => {
  const path = await fileWith(
    'urls.jsonl',
    [
      '{"loc":"https://www.example.com/a","lastmod":"2024-05-01","images":[{"loc":"https://cdn.example.com/a.jpg"}]}',
      '{"loc":"https://www.example.com/b",}',
      '',
      '["https://www.example.com/c"]',
      '{"kind":"url","loc":"/d","priority":0.4}',
    ].join('\n'),
  );
  const items = await collect(readUrlList(path));
  assert.equal(items.length, 4);
  assert.deepEqual(items[0], {
    entry: {
      kind: 'url',
      loc: 'https://www.example.com/a',
      lastmod: '2024-05-01',
      images: [{ loc: 'https://cdn.example.com/a.jpg' }],
    },
    source: path,
    line: 1,
  });
  const bad = items[1] as { problem: { code: string; line: number; column?: number; message: string } };
  assert.equal(bad.problem.code, 'INPUT-001');
  assert.equal(bad.problem.line, 2);
  assert.equal(bad.problem.column, 36, 'the column of the stray "}"');
  assert.match(bad.problem.message, /not valid JSON/);
  assert.deepEqual(summarise(items.slice(2)), [
    [4, 'INPUT-001', 'each line must be one JSON object, such as {"loc":"https://example.com/"}'],
    [5, '/d'],
  ]);
});

test('csv: header row (any column order, url as an alias of loc), empty cells absent, bad rows reported', async () => {
  const path = await fileWith(
    'urls.csv',
    'lastmod,URL,priority,changefreq\n2024-05-01,https://www.example.com/a,0.5,daily\n,"https://www.example.com/b?x=1,2",,\n2024-01-01,https://www.example.com/c,0.1,weekly,extra\n',
  );
  const items = await collect(readUrlList(path));
  assert.deepEqual(
    items.map((item) => ('entry' in item ? item.entry : item.problem.code)),
    [
      { kind: 'url', loc: 'https://www.example.com/a', lastmod: '2024-05-01', priority: 0.5, changefreq: 'daily' },
      { kind: 'url', loc: 'https://www.example.com/b?x=1,2' },
      'INPUT-001',
    ],
  );
  assert.equal((items[2] as { problem: { line: number } }).problem.line, 4);
  const noLoc = await fileWith('no-loc.csv', 'page,lastmod\n/a,2024-01-01\n');
  const [problem] = await collect(readUrlList(noLoc));
  assert.match(
    (problem as { problem: { message: string } }).problem.message,
    /must name a "loc" column \(found: page, lastmod\)/,
  );
  const unclosed = await fileWith('unclosed.csv', 'loc\nhttps://www.example.com/a\n"https://www.example.com/b\n');
  const last = (await collect(readUrlList(unclosed))).at(-1) as { problem: { message: string } };
  assert.match(last.problem.message, /CSV cannot be read further: Quote Not Closed/);
});

test('standard input ("-"): the format is sniffed from the first meaningful line, or given', async () => {
  const read = (text: string, format?: 'txt' | 'jsonl' | 'csv') =>
    collect(readUrlList('-', { stdin: Readable.from([Buffer.from(text)]), ...(format ? { format } : {}) }));
  assert.deepEqual(summarise(await read('# list\n{"loc":"/a"}\n')), [[2, '/a']]);
  assert.deepEqual(summarise(await read('loc,lastmod\n/a,2024-01-01\n')), [[2, '/a']]);
  assert.deepEqual(summarise(await read('/a\n/b\n')), [
    [1, '/a'],
    [2, '/b'],
  ]);
  assert.deepEqual(
    (summarise(await read('{"loc":"/a"}\n', 'csv')) as unknown[][]).map((row) => row.slice(0, 2)),
    [[1, 'INPUT-001']],
    'an explicit format wins',
  );
  const items = await read('/a\n');
  assert.equal((items[0] as { source: string }).source, '-', 'named "-", as on the command line and in validate');
  assert.deepEqual(await read(''), []);
});

test('files without a known extension are sniffed too', async () => {
  const path = await fileWith('export.data', '{"loc":"/x"}\n');
  assert.deepEqual(summarise(await collect(readUrlList(path))), [[1, '/x']]);
  assert.equal(formatFromContent('\n\n"loc","lastmod"\n'), 'csv');
  assert.equal(formatFromContent('https://www.example.com/a,b\n'), 'txt');
});

test('lines split across chunks, including inside a multi-byte character, come out whole', async () => {
  const text = Buffer.from('https://www.example.com/zürich\r\nhttps://www.example.com/b');
  const cut = text.indexOf(0xc3) + 1; // inside "ü"
  const chunks = [text.subarray(0, cut), text.subarray(cut, cut + 3), text.subarray(cut + 3)];
  const lines = [];
  for await (const line of readLines(Readable.from(chunks))) lines.push(line);
  assert.deepEqual(lines, [
    { text: 'https://www.example.com/zürich', line: 1 },
    { text: 'https://www.example.com/b', line: 2 },
  ]);
});

test('a file read in many chunks: a character across a chunk boundary and every line come out whole', async () => {
  // The reader takes 64 KiB at a time: the "ü" of line 2,001 (after a 3-byte BOM) is cut by the first boundary.
  const filler = Array.from({ length: 2000 }, (_, i) => `https://www.example.com/${String(i).padStart(7, '0')}`);
  const head = `${filler.join('\n')}\n`;
  const prefix = 'https://www.example.com/z';
  const padding = 64 * 1024 - 3 - Buffer.byteLength(head) - prefix.length - 1;
  const special = `${prefix}${'a'.repeat(padding)}ürich`;
  assert.equal(Buffer.byteLength(`\ufeff${head}${special.slice(0, special.indexOf('ü'))}`), 64 * 1024 - 1);
  const tail = Array.from({ length: 3000 }, (_, i) => `https://www.example.com/t${i}`);
  const path = await fileWith('many-chunks.txt', `\ufeff${head}${special}\n${tail.join('\n')}\n`);
  const items = await collect(readUrlList(path));
  assert.deepEqual(
    items.map((item) => ('entry' in item ? item.entry.loc : item)),
    [...filler, special, ...tail],
  );
  assert.equal((items[2000] as { line: number }).line, 2001);
});

/** `count` chunks of 64 KiB of "a" (one line, never held whole here), then `tail`. */
function* oneLongLine(count: number, tail: string): Generator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  for (let i = 0; i < count; i++) yield chunk;
  yield Buffer.from(tail);
}

for (const [format, tail, limit] of [
  ['txt', '\nhttps://www.example.com/after\n', /longer than 65,536 characters; too long to be a URL/],
  [
    'jsonl',
    '\n{"loc":"https://www.example.com/after"}\n',
    /longer than 8,388,608 characters; a URL list holds one URL/,
  ],
] as const) {
  test(
    `${format}: one 100 MB line is skipped with a limit error, in one pass and bounded memory`,
    { timeout: 120_000 },
    async () => {
      const start = process.memoryUsage().heapUsed;
      let peak = start;
      const chunks = (function* () {
        for (const chunk of oneLongLine(1600, tail)) {
          peak = Math.max(peak, process.memoryUsage().heapUsed);
          yield chunk;
        }
      })();
      const items = await collect(readUrlList('-', { stdin: Readable.from(chunks), format }));
      assert.equal(items.length, 2);
      const [problem, after] = items as [{ problem: { code: string; line: number; message: string } }, ReadItem];
      assert.equal(problem.problem.code, 'INPUT-001');
      assert.equal(problem.problem.line, 1);
      assert.match(problem.problem.message, limit);
      assert.deepEqual(summarise([after]), [[2, 'https://www.example.com/after']]);
      // The line is 100 MiB: holding it (as the reader did) takes at least that much.
      assert.ok(peak - start < 48 * 1024 * 1024, `heap grew by ${Math.round((peak - start) / 2 ** 20)} MiB`);
    },
  );
}

test('a line under the limit that spans many chunks is read whole, CRLF cut at the chunk boundary', async () => {
  const loc = `https://www.example.com/${'b'.repeat(3000)}`;
  const chunks = [loc.slice(0, 10), loc.slice(10, 2000), `${loc.slice(2000)}\r`, '\n/next'].map((part) =>
    Buffer.from(part),
  );
  assert.deepEqual(summarise(await collect(readUrlList('-', { stdin: Readable.from(chunks), format: 'txt' }))), [
    [1, loc],
    [2, '/next'],
  ]);
  const json = [`{"loc":"${loc.slice(0, 100)}`, `${loc.slice(100)}"}\r`, '\n{"loc":"/next"}'].map((part) =>
    Buffer.from(part),
  );
  assert.deepEqual(summarise(await collect(readUrlList('-', { stdin: Readable.from(json), format: 'jsonl' }))), [
    [1, loc],
    [2, '/next'],
  ]);
});

test('UTF-16 lists with a byte order mark (PowerShell) are decoded, little and big endian, files and stdin', async () => {
  const text = 'https://www.example.com/zürich\r\nhttps://www.example.com/b\r\n';
  const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const big = Buffer.from(little);
  big.swap16();
  const expected = [
    [1, 'https://www.example.com/zürich'],
    [2, 'https://www.example.com/b'],
  ];
  assert.deepEqual(summarise(await collect(readUrlList(await fileWith('le.txt', little)))), expected);
  assert.deepEqual(summarise(await collect(readUrlList(await fileWith('be.txt', big)))), expected);
  // One byte at a time: the byte order mark and every character cut between chunks.
  const bytes = [...little].map((byte) => Buffer.from([byte]));
  assert.deepEqual(summarise(await collect(readUrlList('-', { stdin: Readable.from(bytes) }))), expected);
  const jsonl = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"loc":"/a","priority":0.5}\n', 'utf16le')]);
  assert.deepEqual(
    (await collect(readUrlList(await fileWith('le.jsonl', jsonl)))).map((item) => 'entry' in item && item.entry),
    [{ kind: 'url', loc: '/a', priority: 0.5 }],
  );
});

test('bytes that are not UTF-8 (Latin-1) stop the list with an error naming their line; the lines before are read', async () => {
  const latin1 = Buffer.concat([
    Buffer.from('https://www.example.com/a\nhttps://www.example.com/b\nhttps://www.example.com/caf'),
    Buffer.from([0xe9]),
    Buffer.from('\nhttps://www.example.com/d\n'),
  ]);
  for (const name of ['latin1.txt', 'latin1.jsonl', 'latin1.csv']) {
    const content =
      name === 'latin1.txt'
        ? latin1
        : name === 'latin1.csv'
          ? Buffer.concat([Buffer.from('loc\n'), latin1])
          : Buffer.from(latin1.toString('latin1').replace(/^(.+)$/gm, '{"loc":"$1"}'), 'latin1');
    const items = await collect(readUrlList(await fileWith(name, content)));
    const problem = items.find((item) => 'problem' in item) as { problem: { line?: number; message: string } };
    assert.match(problem.problem.message, /byte 0xE9 is not UTF-8: save the list as UTF-8/, name);
    assert.ok(!items.some((item) => 'entry' in item && /caf|%EF%BF%BD|\ufffd/.test(item.entry.loc)), name);
    assert.equal(problem.problem.line, name === 'latin1.csv' ? 4 : 3, name);
    assert.equal(items.filter((item) => 'entry' in item).length, 2, name);
  }
  // A bad byte right after a character cut between two chunks: the line is still named.
  const chunks = [
    Buffer.from('/a\n/z\xc3'.replace('\xc3', ''), 'latin1'),
    Buffer.from([0xc3]),
    Buffer.from([0xbc, 0x0a, 0x2f, 0xff]),
  ];
  const items = await collect(readUrlList('-', { stdin: Readable.from(chunks), format: 'txt' }));
  assert.deepEqual(summarise(items).slice(0, 2), [
    [1, '/a'],
    [2, '/zü'],
  ]);
  assert.deepEqual(
    summarise(items)
      .slice(2)
      .map((row) => (row as unknown[]).slice(0, 2)),
    [[3, 'INPUT-001']],
  );
});

test('txt: lines that are no URL are problems with line and column, never URLs (a CSV export, words, escapes)', async () => {
  const csvAsText = await fileWith('export.txt', 'loc,lastmod\nhttps://www.example.com/a,2024-05-01\n');
  assert.deepEqual(summarise(await collect(readUrlList(csvAsText))), [
    [
      1,
      'INPUT-001',
      '"loc,lastmod" is a CSV header, not a URL: read the list as CSV (name it .csv, or --input-format csv); nothing of it was read',
    ],
  ]);
  const junk = await fileWith(
    'junk.txt',
    '# pages\nhttps://www.example.com/ok\nnot a url at all\nhttps://www.example.com/caf\\u00e9\n\thttps://www.example.com/b\t2024-05-01\n/fine\n',
  );
  const items = await collect(readUrlList(junk));
  assert.deepEqual(
    items.map((item) =>
      'entry' in item ? [item.line, item.entry.loc] : [item.problem.line, item.problem.column, item.problem.code],
    ),
    [
      [2, 'https://www.example.com/ok'],
      [3, 4, 'INPUT-001'],
      [4, 28, 'INPUT-001'],
      [5, 27, 'INPUT-001'],
      [6, '/fine'],
    ],
  );
  assert.match((items[1] as { problem: { message: string } }).problem.message, /is not one URL: it holds whitespace/);
  assert.match((items[2] as { problem: { message: string } }).problem.message, /holds a backslash, which no URL has/);
});

test('csv: a one-line list without a header says its first row is a URL, not that the input was empty', async () => {
  const path = await fileWith('one.csv', 'https://www.example.com/a,2024-05-01\n');
  const items = await collect(readUrlList(path));
  assert.deepEqual(summarise(items), [
    [
      1,
      'INPUT-001',
      'the first row holds a URL, not a header: a CSV list starts with a header row naming its columns (loc,lastmod,changefreq,priority)',
    ],
  ]);
  const headerOnly = await fileWith('header-only.csv', 'page,lastmod\n');
  assert.deepEqual(summarise(await collect(readUrlList(headerOnly))), [
    [1, 'INPUT-001', 'the CSV header must name a "loc" column (found: page, lastmod)'],
  ]);
});
