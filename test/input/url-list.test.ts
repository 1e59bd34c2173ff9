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
      { kind: 'url', loc: 'https://www.example.com/a', lastmod: '2024-05-01', priority: '0.5', changefreq: 'daily' },
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
    summarise(await read('loc\n/a\n', 'txt')),
    [
      [1, 'loc'],
      [2, '/a'],
    ],
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
