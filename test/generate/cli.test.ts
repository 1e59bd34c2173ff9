import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { WriteSummary } from '../../src/generate/types.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { CONFORMANCE_DIR } from '../helpers/paths.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { locsOf } from './entries.js';

const PROJECT_DIR = new URL('../../', import.meta.url).pathname;
const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-cli-'));
after(() => rm(scratch, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (): string => join(scratch, `out-${++dirs}`);

async function fileWith(name: string, content: string): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, content);
  return path;
}

test('--help explains inputs, every output flag and examples', async () => {
  const { code, stdout } = await runCli(['generate', '--help']);
  assert.equal(code, 0);
  assert.match(stdout, /^Usage: sitemapkit generate INPUT… --base-url URL --out DIR/);
  for (const flag of [
    '--out',
    '--base-url',
    '--max-urls',
    '--max-bytes',
    '--gzip',
    '--gzip-index',
    '--format',
    '--stylesheet',
    '--allow-other-hosts',
    '--input-format',
    '--exclude',
    '--strict',
    '--json',
  ]) {
    assert.match(stdout, new RegExp(`\\n  (-\\w, )?${flag}\\b`), flag);
  }
  assert.match(stdout, /Examples:/);
});

test('the bundled example (npm start) writes a valid sitemap with every extension and prints the robots.txt line', async () => {
  const out = freshDir();
  const { code, stdout, stderr } = await runCli(
    ['generate', 'examples/urls.jsonl', '--base-url', 'https://www.example.com', '--out', out],
    { cwd: PROJECT_DIR },
  );
  // The example's news articles were published in 2024: past two days old, they are written with NEWS-003.
  assert.deepEqual(
    stderr
      .trim()
      .split('\n')
      .map((line) => line.split(' ').slice(0, 3).join(' ')),
    ['examples/urls.jsonl:24: warning NEWS-003', 'examples/urls.jsonl:25: warning NEWS-003'],
  );
  assert.equal(code, 0);
  assert.match(stdout, new RegExp(`Wrote 29 URLs in 1 file to ${out}`));
  assert.match(stdout, /Add to robots.txt:\nSitemap: https:\/\/www\.example\.com\/sitemap\.xml\n$/);
  const xml = await readFile(join(out, 'sitemap.xml'), 'utf8');
  for (const tag of ['<image:image>', '<video:video>', '<news:news>', '<xhtml:link '])
    assert.ok(xml.includes(tag), tag);
  assert.deepEqual((await validateAgainstXsd(xml, 'extensions')).errors, []);
});

test('bad lines are reported as file:line (and column) and skipped, bad fields left out, and the run exits 1 after writing the rest', async () => {
  const list = await fileWith(
    'mixed.jsonl',
    [
      '{"loc":"/ok-1","lastmod":"2024-05-01"}',
      '{"loc":"/ok-2"}',
      '{"loc":"/broken"',
      '{"loc":"/ok-1"}',
      '{"loc":"/bad-date","lastmod":"2024-13-01"}',
      '{"loc":"/bad-priority","priority":2}',
      '{"loc":"/bad-freq","changefreq":"fortnightly"}',
      '{"loc":"ftp://www.example.com/file"}',
      '{"loc":"/ok-3"}',
    ].join('\n'),
  );
  const out = freshDir();
  const { code, stdout, stderr } = await runCli([
    'generate',
    list,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
  ]);
  assert.equal(code, 1);
  const lines = stderr.trim().split('\n');
  assert.match(lines[0]!, new RegExp(`^${list}:3:\\d+: error INPUT-001 not valid JSON`));
  assert.match(lines[1]!, new RegExp(`^${list}:4: warning URL-006 duplicate URL https://www\\.example\\.com/ok-1`));
  assert.match(lines[2]!, new RegExp(`^${list}:5: error DATE-003 lastmod: .*; lastmod is left out`));
  assert.match(lines[3]!, new RegExp(`^${list}:6: error PRIO-001 priority: .*; priority is left out`));
  assert.match(lines[4]!, new RegExp(`^${list}:7: error FREQ-001 changefreq: .*; changefreq is left out`));
  assert.match(lines[5]!, new RegExp(`^${list}:8: error URL-001 `));
  assert.equal(lines.length, 6);
  assert.match(stdout, /Wrote 6 URLs in 1 file/);
  assert.match(stdout, /1 duplicate URL written once/);
  assert.match(stdout, /2 entries skipped because of errors/);
  const xml = await readFile(join(out, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    locsOf(xml),
    ['ok-1', 'ok-2', 'bad-date', 'bad-priority', 'bad-freq', 'ok-3'].map((p) => `https://www.example.com/${p}`),
    'a bad field is left out, not the URL',
  );
  assert.match(xml, /<url><loc>https:\/\/www\.example\.com\/bad-date<\/loc><\/url>/);
});

test('a bad field alone: the URL is written without it, the error is listed and the run exits 1', async () => {
  const list = await fileWith('fields.jsonl', ['{"loc":"/a","lastmod":"21/05/2024"}', '{"loc":"/b"}'].join('\n'));
  const out = freshDir();
  const { code, stdout, stderr } = await runCli([
    'generate',
    list,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
  ]);
  assert.match(stderr, new RegExp(`^${list}:1: error DATE-001 lastmod: .*; lastmod is left out`));
  assert.match(stdout, /Wrote 2 URLs in 1 file/);
  assert.match(stdout, /\n1 field left out because of errors \(listed above\)\n/);
  assert.doesNotMatch(stdout, /skipped/);
  assert.equal(code, 1);
});

test('--keep-duplicates turns duplicate detection off: every line is written as given', async () => {
  const list = await fileWith('twice.txt', ['/a', '/b', '/a'].join('\n'));
  const out = freshDir();
  const { code, stderr } = await runCli([
    'generate',
    list,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
    '--keep-duplicates',
  ]);
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /URL-006/);
  assert.deepEqual(
    locsOf(await readFile(join(out, 'sitemap.xml'), 'utf8')),
    ['a', 'b', 'a'].map((p) => `https://www.example.com/${p}`),
  );
});

test('--strict stops at the first bad line, exits 1 and leaves the previous output byte for byte', async () => {
  const out = freshDir();
  const good = await fileWith('good.txt', Array.from({ length: 30 }, (_, i) => `/page/${i}`).join('\n'));
  assert.equal(
    (
      await runCli([
        'generate',
        good,
        '--base-url',
        'https://www.example.com/',
        '--out',
        out,
        '--max-urls',
        '10',
        '--gzip',
      ])
    ).code,
    0,
  );
  const before = await Promise.all(
    (await readdir(out)).sort().map(async (name) => [name, await readFile(join(out, name))]),
  );
  const bad = await fileWith(
    'bad-late.txt',
    `${Array.from({ length: 25 }, (_, i) => `/new/${i}`).join('\n')}\nhttps://other.example.org/x\n/new/last\n`,
  );
  const { code, stderr } = await runCli([
    'generate',
    bad,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
    '--max-urls',
    '5',
    '--strict',
  ]);
  assert.equal(code, 1);
  assert.match(stderr, new RegExp(`^${bad}:26: error URL-004 https://other\\.example\\.org/x is on another host`));
  assert.match(stderr, /Nothing was written; .* is unchanged\./);
  const after = await Promise.all(
    (await readdir(out)).sort().map(async (name) => [name, await readFile(join(out, name))]),
  );
  assert.deepEqual(after, before);
});

test('standard input, sniffed; other hosts refused unless --allow-other-hosts', async () => {
  const out = freshDir();
  const input = 'https://www.example.com/a\nhttps://cdn.example.net/b\n';
  const refused = await runCli(['generate', '-', '--base-url', 'https://www.example.com/', '--out', out], { input });
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /^stdin:2: error URL-004 https:\/\/cdn\.example\.net\/b is on another host than the base URL/,
  );
  assert.deepEqual(locsOf(await readFile(join(out, 'sitemap.xml'), 'utf8')), ['https://www.example.com/a']);
  const allowed = await runCli(
    ['generate', '-', '--base-url', 'https://www.example.com/', '--out', out, '--allow-other-hosts'],
    { input },
  );
  assert.equal(allowed.code, 0);
  assert.deepEqual(locsOf(await readFile(join(out, 'sitemap.xml'), 'utf8')), [
    'https://www.example.com/a',
    'https://cdn.example.net/b',
  ]);
  const csv = await runCli(['generate', '-', '--base-url', 'https://www.example.com/', '--out', freshDir(), '--json'], {
    input: 'loc,lastmod\n/x,2024-02-03\n',
  });
  assert.equal(csv.code, 0);
  const summary = JSON.parse(csv.stdout) as WriteSummary;
  assert.equal(summary.urls, 1);
  assert.equal(summary.files[0]?.lastmod, '2024-02-03');
  assert.deepEqual(summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);
});

test('--format txt, --gzip and --max-urls together: text shards, gzipped, with an XML index', async () => {
  const out = freshDir();
  const list = await fileWith('five.txt', '/1\n/2\n/3\n/4\n/5\n');
  const { code, stdout } = await runCli([
    'generate',
    list,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
    '--format',
    'txt',
    '--gzip',
    '--max-urls',
    '2',
  ]);
  assert.equal(code, 0);
  assert.deepEqual((await readdir(out)).sort(), [
    'sitemap-0.txt.gz',
    'sitemap-1.txt.gz',
    'sitemap-2.txt.gz',
    'sitemap.xml',
  ]);
  assert.equal(
    gunzipSync(await readFile(join(out, 'sitemap-1.txt.gz'))).toString(),
    'https://www.example.com/3\nhttps://www.example.com/4\n',
  );
  assert.match(stdout, /Wrote 5 URLs in 3 files and an index/);
  assert.match(stdout, /Sitemap: https:\/\/www\.example\.com\/sitemap\.xml\n$/);
  const quiet = await runCli([
    'generate',
    list,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
    '--format',
    'txt',
    '-q',
  ]);
  assert.equal(quiet.code, 0);
  assert.equal(quiet.stdout, 'Sitemap: https://www.example.com/sitemap.txt\n');
  assert.deepEqual(
    (await readdir(out)).sort(),
    ['sitemap.txt'],
    'the shards and index of the previous run are removed',
  );
});

test('a build directory: pages become URLs, noindex and --exclude left out, --stylesheet added', async () => {
  const site = join(scratch, 'site');
  await mkdir(join(site, 'blog', 'drafts'), { recursive: true });
  await writeFile(join(site, 'index.html'), '<html><head></head><body>home</body></html>');
  await writeFile(join(site, 'blog', 'index.html'), '<html><head></head></html>');
  await writeFile(join(site, 'blog', 'drafts', 'next.html'), '<html></html>');
  await writeFile(join(site, 'thanks.html'), '<html><head><meta name="robots" content="noindex"></head></html>');
  const out = freshDir();
  const { code } = await runCli([
    'generate',
    site,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
    '--exclude',
    'blog/drafts/**',
    '--stylesheet',
    '/sitemap.xsl',
  ]);
  assert.equal(code, 0);
  const xml = await readFile(join(out, 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(xml), ['https://www.example.com/blog/', 'https://www.example.com/']);
  assert.match(xml, /<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/);
  assert.match(xml, /<\?xml-stylesheet type="text\/xsl" href="\/sitemap\.xsl"\?>/);
  assert.equal((await validateAgainstXsd(xml, 'extensions')).valid, true);
});

test('usage errors exit 2 with a message naming the flag', async () => {
  const list = await fileWith('one.txt', '/a\n');
  const cases: [string[], RegExp][] = [
    [[list, '--base-url', 'https://www.example.com/'], /--out DIR is required/],
    [[list, '--out', freshDir()], /--base-url URL is required/],
    [
      [list, '--out', freshDir(), '--base-url', 'www.example.com'],
      /--base-url: "www\.example\.com" is not an absolute URL/,
    ],
    [
      [list, '--out', freshDir(), '--base-url', 'https://www.example.com/', '--max-urls', '50001'],
      /--max-urls may be at most 50,000/,
    ],
    [
      [list, '--out', freshDir(), '--base-url', 'https://www.example.com/', '--format', 'html'],
      /--format must be xml or txt/,
    ],
    [
      [list, '--out', freshDir(), '--base-url', 'https://www.example.com/', '--input-format', 'xml'],
      /--input-format must be one of txt, jsonl, csv/,
    ],
    [[join(scratch, 'missing.txt'), '--out', freshDir(), '--base-url', 'https://www.example.com/'], /input not found/],
    [['--out', freshDir(), '--base-url', 'https://www.example.com/'], /give at least one INPUT/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await runCli(['generate', ...args]);
    assert.equal(code, 2, args.join(' '));
    assert.match(stderr, message);
  }
});

test('sitemap.js goldens: the same <url> elements for its line-separated URL list; its 1000-URL index case', async () => {
  const goldens = JSON.parse(await readFile(join(CONFORMANCE_DIR, 'extras/generator-goldens.json'), 'utf8')) as {
    cases: {
      input: string;
      input_kind: string;
      expected_output?: string;
      options?: { limit: number; index_base_url: string };
      expected_contains?: string[];
      expected_not_contains?: string[];
    }[];
  };
  const urlLines = goldens.cases.filter((c) => c.input_kind === 'url-lines');
  assert.equal(urlLines.length, 2);
  for (const golden of urlLines) {
    const out = freshDir();
    const input = join(CONFORMANCE_DIR, golden.input);
    if (golden.expected_output) {
      const { code } = await runCli(['generate', input, '--base-url', 'https://roosterteeth.com/', '--out', out]);
      assert.equal(code, 0);
      const expected = await readFile(join(CONFORMANCE_DIR, golden.expected_output), 'utf8');
      const ours = await readFile(join(out, 'sitemap.xml'), 'utf8');
      const urlElements = (xml: string) => xml.match(/<url>.*?<\/url>/gs) ?? [];
      assert.deepEqual(urlElements(ours), urlElements(expected));
      assert.equal(urlElements(ours).length, 2);
    } else {
      const { limit, index_base_url: base } = golden.options!;
      // sitemap.js's test lists http://example.com/… under an https index: cross-host, so allowed explicitly.
      const { code } = await runCli([
        'generate',
        input,
        '--base-url',
        base,
        '--out',
        out,
        '--max-urls',
        String(limit),
        '--allow-other-hosts',
      ]);
      assert.equal(code, 0);
      const index = await readFile(join(out, 'sitemap.xml'), 'utf8');
      for (const url of golden.expected_contains!) assert.ok(locsOf(index).includes(url), url);
      for (const url of golden.expected_not_contains!) assert.ok(!index.includes(url), url);
      assert.equal(locsOf(index).length, 4);
      assert.equal((await validateAgainstXsd(index, 'siteindex')).valid, true);
    }
  }
});

test('an interrupted run (SIGINT while reading standard input) removes its temporary files and leaves the output as it was', async () => {
  const out = freshDir();
  const list = await fileWith('before.txt', '/kept\n');
  assert.equal((await runCli(['generate', list, '--base-url', 'https://www.example.com/', '--out', out])).code, 0);
  const before = await readFile(join(out, 'sitemap.xml'));
  const child = spawn(
    process.execPath,
    [CLI_PATH, 'generate', '-', '--base-url', 'https://www.example.com/', '--out', out],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.on('error', () => undefined); // the interrupted child closes its end of the pipe: EPIPE is expected
  child.stdin.write(Array.from({ length: 70_000 }, (_, i) => `/new/${i}`).join('\n'));
  // Wait until the run has started writing (its temporary folder exists), then interrupt it.
  while (!(await readdir(out)).some((name) => name.startsWith('.sitemap-tmp-')))
    await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGINT');
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 1);
  assert.match(stderr, /interrupted by SIGINT\nNothing was written; .* is unchanged\./);
  assert.deepEqual(await readdir(out), ['sitemap.xml']);
  assert.deepEqual(await readFile(join(out, 'sitemap.xml')), before);
});
