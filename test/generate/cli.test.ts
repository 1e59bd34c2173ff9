import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { WriteSummary } from '../../src/generate/types.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { CONFORMANCE_DIR, REPO_DIR } from '../helpers/paths.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { locsOf } from './entries.js';
import { escapeRegExp } from '../../src/core/regexp.js';

const PROJECT_DIR = REPO_DIR;
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
    '--keep-duplicates',
    '--max-per-rule',
    '--json',
  ]) {
    assert.match(stdout, new RegExp(`\\n  (-\\w, )?${flag}\\b`), flag);
  }
  assert.match(
    stdout,
    /The entry point is always sitemap\.xml \(sitemap\.xml\.gz with --gzip-index\), however many URLs/,
  );
  assert.match(stdout, /The run fails whatever --fail-on says when\s+nothing could be written/);
  assert.match(stdout, /Exit codes \(the same for every sitemapkit command\):/);
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
    ['examples/urls.jsonl:24:1: warning NEWS-003', 'examples/urls.jsonl:25:1: warning NEWS-003'],
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
  assert.match(lines[1]!, new RegExp(`^${list}:4:1: warning URL-006 duplicate URL https://www\\.example\\.com/ok-1`));
  assert.match(lines[2]!, new RegExp(`^${list}:5:1: error DATE-003 lastmod: .*; lastmod is left out`));
  assert.match(lines[3]!, new RegExp(`^${list}:6:1: error PRIO-001 priority: .*; priority is left out`));
  assert.match(lines[4]!, new RegExp(`^${list}:7:1: error FREQ-001 changefreq: .*; changefreq is left out`));
  assert.match(lines[5]!, new RegExp(`^${list}:8:1: error URL-001 `));
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
  assert.match(stderr, new RegExp(`^${list}:1:1: error DATE-001 lastmod: .*; lastmod is left out`));
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
  // The problem is printed once; the last lines only say why the run stopped.
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 3, stderr);
  assert.match(lines[0]!, new RegExp(`^${bad}:26:1: error URL-004 https://other\\.example\\.org/x is on another host`));
  assert.equal(lines[1], 'sitemapkit generate: stopped at the first error (--strict)');
  assert.match(lines[2]!, /^Nothing was written; .* is unchanged\.$/);
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
    /^-:2:1: error URL-004 https:\/\/cdn\.example\.net\/b is on another host than the base URL/,
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

test('--format txt, --gzip and --max-urls together: text shards, gzipped, with an XML index that stays the entry point', async () => {
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
    '--json',
  ]);
  assert.equal(code, 0);
  const summary = JSON.parse(stdout) as WriteSummary;
  const shards = summary.files.map((file) => file.name);
  assert.equal(shards.length, 3);
  for (const [i, name] of shards.entries()) assert.match(name, new RegExp(`^sitemap-${i}-[0-9a-f]{12}\\.txt\\.gz$`));
  assert.deepEqual((await readdir(out)).sort(), ['.sitemap-manifest.json', ...shards, 'sitemap.xml']);
  assert.equal(
    gunzipSync(await readFile(join(out, shards[1]!))).toString(),
    'https://www.example.com/3\nhttps://www.example.com/4\n',
  );
  assert.deepEqual(summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);
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
  assert.equal(
    quiet.stdout,
    'Sitemap: https://www.example.com/sitemap.xml\n',
    'one text file is listed by the index too',
  );
  const files = (await readdir(out)).sort();
  assert.equal(files.length, 3, 'the shards of the previous run are removed');
  assert.match(files[1]!, /^sitemap-0-[0-9a-f]{12}\.txt$/);
  assert.equal(
    await readFile(join(out, files[1]!), 'utf8'),
    [1, 2, 3, 4, 5].map((n) => `https://www.example.com/${n}\n`).join(''),
  );
});

test('a build directory: left-out pages are listed with their reason and counted (text and --json); --exclude takes the leading-slash form', async () => {
  const site = join(scratch, 'site');
  const head = (tags: string) => `<!doctype html><html><head>${tags}</head><body>page</body></html>`;
  const pages: Record<string, string> = {
    'index.html': head(''),
    'about.html': head('<link rel="canonical" href="https://www.example.com/about">'),
    'blog/index.html': head('<link rel="canonical" href="/blog/">'),
    'old.html': head('<link rel="canonical" href="https://www.example.com/new.html">'),
    'new.html': head(''),
    '404.html': head('<title>Not found</title>'),
    '500.html': head(''),
    'thanks.html': head('<meta name="robots" content="noindex">'),
    'members.html': head('<meta name="googlebot" content="noindex, nofollow">'),
    'drafts/idea.html': head(''),
  };
  for (const [path, html] of Object.entries(pages)) {
    await mkdir(dirname(join(site, path)), { recursive: true });
    await writeFile(join(site, path), html);
  }
  const args = ['generate', site, '--base-url', 'https://www.example.com/', '--exclude', '/drafts/**'];
  const out = freshDir();
  const text = await runCli([...args, '--out', out, '--stylesheet', '/sitemap.xsl', '--exclude', 'typo/**']);
  assert.equal(text.code, 0, text.stderr);
  const xml = await readFile(join(out, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    locsOf(xml),
    ['about', 'blog/', '', 'new.html'].map((path) => `https://www.example.com/${path}`),
  );
  // Every file was just written (one build's stamp): no page is dated by it.
  assert.doesNotMatch(xml, /<lastmod>/);
  assert.match(xml, /<\?xml-stylesheet type="text\/xsl" href="\/sitemap\.xsl"\?>/);
  assert.equal((await validateAgainstXsd(xml, 'extensions')).valid, true);
  assert.match(
    text.stdout,
    new RegExp(
      [
        'Left out 6 pages:',
        '       2  error pages \\(404 and other error pages\\)',
        `          ${join(site, '404.html')}  \\(named after an HTTP error status: served for errors, not a page to index\\)`,
        `          ${join(site, '500.html')}  \\(named after an HTTP error status: served for errors, not a page to index\\)`,
        '       1  matched --exclude',
        `          ${join(site, 'drafts/idea.html')}  \\(matches --exclude /drafts/\\*\\*\\)`,
        '       2  noindex \\(robots <meta> tag, X-Robots-Tag header rule\\)',
        `          ${join(site, 'members.html')}`,
        `          ${join(site, 'thanks.html')}`,
        '       1  canonical is another page',
        `          ${join(site, 'old.html')}  \\(canonical is https://www\\.example\\.com/new\\.html\\)`,
      ].join('\n'),
    ),
  );
  assert.match(
    text.stderr,
    /^note: lastmod is left out of 4 pages of .*: 10 of 10 files were written by one build .*\nwarning: --exclude typo\/\*\* matched no page \(globs are relative to the build directory, e\.g\. "drafts\/\*\*"\)\n$/,
  );

  const json = await runCli([...args, '--out', freshDir(), '--json', '--max-per-rule', '1']);
  assert.equal(json.code, 0);
  assert.equal(json.stderr, '');
  const report = JSON.parse(json.stdout) as {
    urls: number;
    skipped: number;
    leftOut: unknown;
    unusedExcludes: string[];
  };
  assert.equal(report.urls, 4);
  assert.equal(report.skipped, 0);
  assert.deepEqual(report.unusedExcludes, []);
  assert.deepEqual(report.leftOut, [
    {
      reason: 'error-page',
      count: 2,
      examples: [
        {
          path: join(site, '404.html'),
          detail: 'named after an HTTP error status: served for errors, not a page to index',
        },
      ],
    },
    {
      reason: 'excluded',
      count: 1,
      examples: [{ path: join(site, 'drafts/idea.html'), detail: 'matches --exclude /drafts/**' }],
    },
    {
      reason: 'noindex',
      count: 2,
      examples: [{ path: join(site, 'members.html'), detail: 'noindex in a robots <meta> tag' }],
    },
    {
      reason: 'canonicalised',
      count: 1,
      examples: [{ path: join(site, 'old.html'), detail: 'canonical is https://www.example.com/new.html' }],
    },
  ]);
});

test('problems are capped per code (--max-per-rule, default 20) and counted; when most lines fail for one reason, the likely cause is said once', async () => {
  // A list of a site's URLs, published with a --base-url one folder too deep: all but one line are outside it.
  const lines = [
    'https://www.example.com/blog/',
    ...Array.from({ length: 119_999 }, (_, i) => `https://www.example.com/p/${i}`),
  ];
  const list = await fileWith('site-urls.txt', `${lines.join('\n')}\n`);
  const args = ['generate', list, '--base-url', 'https://www.example.com/blog/'];
  const capped = await runCli([...args, '--out', freshDir()]);
  assert.equal(capped.code, 1);
  const printed = capped.stderr.trimEnd().split('\n');
  assert.equal(printed.length, 22, capped.stderr.slice(0, 2000));
  for (const [i, line] of printed.slice(0, 20).entries())
    assert.match(line, new RegExp(`^${list}:${i + 2}:1: error URL-005 `));
  assert.equal(printed[20], '… 119,979 more URL-005 errors not shown (--max-per-rule 0 shows all)');
  assert.match(
    printed[21]!,
    /^Likely cause: 119,999 of 120,000 entries are outside the directory of --base-url https:\/\/www\.example\.com\/blog\/: .*https:\/\/www\.example\.com\/ would admit every URL of the host/,
  );
  assert.match(capped.stdout, /Wrote 1 URL in 1 file/);
  assert.match(capped.stdout, /119,999 entries skipped because of errors/);

  const three = await runCli([...args, '--out', freshDir(), '--max-per-rule', '3']);
  assert.equal(three.stderr.split('\n').filter((line) => line.includes(' error URL-005 ')).length, 3);
  assert.match(three.stderr, /… 119,996 more URL-005 errors not shown/);

  const few = await fileWith('few.txt', ['/blog/a', '/elsewhere/b', '/blog/c', '/elsewhere/d'].join('\n'));
  const all = await runCli([
    'generate',
    few,
    '--base-url',
    'https://www.example.com/blog/',
    '--out',
    freshDir(),
    '--max-per-rule',
    '0',
  ]);
  assert.equal(all.code, 1);
  assert.deepEqual(
    all.stderr
      .trimEnd()
      .split('\n')
      .map((line) => line.replace(/ error URL-005 .*/, '')),
    [`${few}:2:1:`, `${few}:4:1:`],
    'two of four is not most: no likely cause',
  );
});

test('a list read in the wrong format: the likely cause names --input-format, once, after the problems', async () => {
  // Plain URLs in a file named .jsonl: every line but the last is not JSON.
  const list = await fileWith(
    'urls.jsonl',
    ['https://www.example.com/a', 'https://www.example.com/b', 'https://www.example.com/c', '{"loc":"/d"}'].join('\n'),
  );
  const result = await runCli(['generate', list, '--base-url', 'https://www.example.com/', '--out', freshDir()]);
  assert.equal(result.code, 1);
  const printed = result.stderr.trimEnd().split('\n');
  assert.deepEqual(
    printed.map((line) => line.replace(/ error INPUT-001 not valid JSON: .*/, ' error INPUT-001')),
    [
      `${list}:1:1: error INPUT-001`,
      `${list}:2:1: error INPUT-001`,
      `${list}:3:1: error INPUT-001`,
      'Likely cause: 3 of 4 entries could not be read: is the input in the format it was read as? (--input-format txt, jsonl or csv)',
    ],
  );
  assert.match(result.stdout, /Wrote 1 URL in 1 file/);
});

test('--json carries the problems (examples per code, what was not shown, the likely cause), also when nothing could be written', async () => {
  const list = await fileWith(
    'two-kinds.jsonl',
    [
      '{"loc":"/a","priority":5}',
      '{"loc":"/b"}',
      '{"loc":"/c"',
      '{"loc":"/b"}',
      '{"loc":"/d","priority":7}',
      '{"loc":"/e","priority":9}',
    ].join('\n'),
  );
  const written = await runCli([
    'generate',
    list,
    '--base-url',
    'https://www.example.com/',
    '--out',
    freshDir(),
    '--json',
    '--max-per-rule',
    '2',
  ]);
  assert.equal(written.code, 1);
  assert.equal(written.stderr, '', 'with --json the problems are in the JSON, not on stderr');
  const report = JSON.parse(written.stdout) as WriteSummary & {
    written: boolean;
    diagnostics: { code: string; line: number; severity: string }[];
    folded: unknown;
    likelyCause?: string;
  };
  assert.equal(report.written, true);
  assert.deepEqual(report.problems, { errors: 4, warnings: 1 });
  assert.deepEqual(
    report.diagnostics.map((d) => [d.code, d.severity, d.line]),
    [
      ['PRIO-001', 'error', 1],
      ['PRIO-001', 'error', 5],
      ['INPUT-001', 'error', 3],
      ['URL-006', 'warning', 4],
    ],
  );
  assert.deepEqual(report.folded, [{ code: 'PRIO-001', severity: 'error', count: 1 }]);
  assert.equal(report.likelyCause, undefined);

  const wrongBase = await fileWith(
    'wrong-host.txt',
    ['https://example.org/a', 'https://example.org/b', 'https://example.org/c'].join('\n'),
  );
  const nothing = await runCli([
    'generate',
    wrongBase,
    '--base-url',
    'https://www.example.com/',
    '--out',
    freshDir(),
    '--json',
  ]);
  assert.equal(nothing.code, 1);
  const failure = JSON.parse(nothing.stdout) as {
    written: boolean;
    error: string;
    diagnostics: unknown[];
    likelyCause: string;
    problems: unknown;
  };
  assert.equal(failure.written, false);
  assert.match(failure.error, /no URL could be written/);
  assert.equal(failure.diagnostics.length, 3);
  assert.deepEqual(failure.problems, { errors: 3, warnings: 0 });
  assert.match(
    failure.likelyCause,
    /^3 of 3 entries are on another host than --base-url https:\/\/www\.example\.com\/ \(the first on https:\/\/example\.org\): is --base-url right\?/,
  );
  assert.match(
    nothing.stderr,
    /sitemapkit generate: no URL could be written .*\nNothing was written; .* is unchanged\.\n$/,
  );
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
      /--input-format must be txt, jsonl or csv, not "xml"/,
    ],
    [['--out', freshDir(), '--base-url', 'https://www.example.com/'], /give at least one INPUT/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await runCli(['generate', ...args]);
    assert.equal(code, 2, args.join(' '));
    assert.match(stderr, message);
  }
});

test('an input that cannot be read is failed work (exit 1, as in parse and validate): nothing is written', async () => {
  const out = freshDir();
  const list = await fileWith('exists.txt', '/a\n');
  const missing = join(scratch, 'missing.txt');
  const { code, stdout, stderr } = await runCli([
    'generate',
    list,
    missing,
    '--base-url',
    'https://www.example.com/',
    '--out',
    out,
  ]);
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.equal(
    stderr,
    `sitemapkit generate: cannot read ${missing}: no such file or directory\nNothing was written; ${out} is unchanged.\n`,
  );
  assert.equal(await stat(out).catch(() => undefined), undefined);
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
      // sitemap.js names shards sitemap-N.xml; sitemapkit adds the content's digest: sitemap-N-<digest>.xml.
      const withDigest = (url: string) =>
        new RegExp(`^${escapeRegExp(url).replace(/\\\.xml$/, '-[0-9a-f]{12}\\.xml')}$`);
      for (const url of golden.expected_contains!)
        assert.ok(
          locsOf(index).some((loc) => withDigest(url).test(loc)),
          url,
        );
      for (const url of golden.expected_not_contains!)
        assert.ok(!locsOf(index).some((loc) => withDigest(url).test(loc)), url);
      assert.equal(locsOf(index).length, 4);
      assert.equal((await validateAgainstXsd(index, 'siteindex')).valid, true);
    }
  }
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`an interrupted run (${signal} while reading standard input) removes its temporary files and leaves the output as it was`, async () => {
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
    child.kill(signal);
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`interrupted by ${signal}\nNothing was written; .* is unchanged\\.`));
    assert.deepEqual(
      (await readdir(out)).sort(),
      ['.sitemap-manifest.json', 'sitemap.xml'],
      'no lock, no temporary folder',
    );
    assert.deepEqual(await readFile(join(out, 'sitemap.xml')), before);
  });
}
