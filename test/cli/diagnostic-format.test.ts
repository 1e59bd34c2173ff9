/**
 * One form for a problem in every command's human output: `source:line:column: severity CODE
 * message`, long values elided in the middle (whole in --json). The same broken sitemap, served
 * from 127.0.0.1, goes through parse, validate, tree and audit, which must print the very same
 * line for it; generate prints its own input's problem in the same form, column included.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { startSite, urlset, XML, type Site } from '../helpers/site-server.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-diagnostic-format-'));
/** A value far over what a line shows (120 characters). */
const LONG = `x${'0123456789'.repeat(30)}y`;
let site: Site;

before(async () => {
  site = await startSite((origin) => ({
    '/robots.txt': { body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n` },
    '/sitemap.xml': {
      headers: XML,
      body: urlset([
        `${origin}/a`,
        { loc: `${origin}/b`, lastmod: '21/05/2024' },
        { loc: `${origin}/c`, lastmod: LONG },
      ]),
    },
    '/a': { headers: { 'content-type': 'text/html' }, body: '<title>a</title>' },
    '/b': { headers: { 'content-type': 'text/html' }, body: '<title>b</title>' },
    '/c': { headers: { 'content-type': 'text/html' }, body: '<title>c</title>' },
  }));
});
after(async () => {
  await site.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The problem lines of `text` with `code`, without the indentation a tree or a report puts before them. */
function linesOf(text: string, code: string): string[] {
  return text
    .split('\n')
    .filter((line) => new RegExp(`: (error|warning|info) ${code} `).test(line))
    .map((line) => line.trim());
}

test('parse, validate, tree and audit print one problem as the same line', async () => {
  const sitemap = site.url('/sitemap.xml');
  const parse = await runCli(['parse', sitemap]);
  const validate = await runCli(['validate', sitemap]);
  const tree = await runCli(['tree', site.origin]);
  const audit = await runCli(['audit', site.origin]);
  // Line 4 of the document (test/helpers/site-server.ts writes one <url> a line from line 3), at the value.
  const column = `  <url><loc>${site.url('/b')}</loc><lastmod>`.length + 1;
  const bad = `${sitemap}:4:${column}: error DATE-001 <lastmod>: "21/05/2024" is not a W3C datetime;`;
  const expected = linesOf(parse.stderr, 'DATE-001');
  assert.equal(expected.length, 2, parse.stderr);
  assert.ok(expected[0]!.startsWith(bad), expected[0]);
  assert.ok(expected[0]!.endsWith(`(${site.url('/b')})`), expected[0]);
  // The long value is elided in the middle: its start and end are shown, not the whole of it.
  assert.match(expected[1]!, /"x0123456789012345678.*….*0123456789y"/);
  assert.ok(!expected[1]!.includes(LONG) && expected[1]!.length < 400, expected[1]);
  assert.deepEqual(linesOf(validate.stdout, 'DATE-001'), expected, validate.stdout);
  assert.deepEqual(linesOf(tree.stdout, 'DATE-001'), expected, tree.stdout);
  // The audit shows one example of each sitemap problem.
  assert.deepEqual(linesOf(audit.stdout, 'DATE-001'), expected.slice(0, 1), audit.stdout);
  // --json keeps the value whole.
  const json = await runCli(['validate', sitemap, '--json']);
  assert.ok(json.stdout.includes(LONG), json.stdout);
});

test('generate places an input problem at line and column, in the same form', async () => {
  const list = join(scratch, 'urls.jsonl');
  await writeFile(
    list,
    '{"loc":"https://example.com/a"}\n{"loc":"https://example.com/b","lastmod":"21/05/2024"}\nhttps://example.com/c\n',
  );
  const generate = await runCli([
    'generate',
    list,
    '--base-url',
    'https://example.com/',
    '--out',
    join(scratch, 'out'),
  ]);
  assert.equal(generate.code, 1);
  assert.match(
    generate.stderr,
    new RegExp(
      `^${list.replaceAll('\\', '\\\\')}:2:1: error DATE-001 lastmod: "21/05/2024" is not a W3C datetime; .* \\(https://example\\.com/b\\)$`,
      'm',
    ),
  );
  assert.match(generate.stderr, /urls\.jsonl:3:1: error INPUT-001 /);
  const json = await runCli([
    'generate',
    list,
    '--base-url',
    'https://example.com/',
    '--out',
    join(scratch, 'out2'),
    '--json',
  ]);
  const { diagnostics } = JSON.parse(json.stdout) as {
    diagnostics: { code: string; line?: number; column?: number }[];
  };
  assert.deepEqual(
    diagnostics.filter((p) => p.code === 'DATE-001').map((p) => [p.line, p.column]),
    [[2, 1]],
  );
});
