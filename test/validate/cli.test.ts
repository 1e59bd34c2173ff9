/** `sitemapkit validate` as a user runs it: the built binary, real files, stdin, a URL, exit codes. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { startSite } from '../helpers/site-server.js';

const RULES = fileURLToPath(new URL('./fixtures/rules/', import.meta.url));
const NOW = ['--now', '2024-05-02T12:00:00Z'];

test('a clean sitemap: summary only, exit 0', async () => {
  const { code, stdout } = await runCli(['validate', `${RULES}clean.xml`, ...NOW]);
  assert.equal(code, 0);
  assert.equal(stdout, `${RULES}clean.xml: urlset, 3 URLs, 0 errors, 0 warnings: valid\n`);
});

test('errors: source:line:column: severity CODE message, then the summary, exit 1; no colour off a terminal', async () => {
  const { code, stdout } = await runCli(['validate', `${RULES}vid-005.xml`, ...NOW]);
  assert.equal(code, 1);
  assert.match(
    stdout,
    new RegExp(`^${RULES}vid-005\\.xml:11:23: error VID-005 <video:duration> 99999 is not a whole number`, 'm'),
  );
  assert.match(stdout, /vid-005\.xml: urlset, 2 URLs, 3 errors, 1 warning: invalid\n$/);
  // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
  assert.doesNotMatch(stdout, /\u001b\[/);
});

test('--json prints the documented JSON object per source per line', async () => {
  const { code, stdout } = await runCli([
    'validate',
    '--json',
    `${RULES}url-006.xml`,
    `${RULES}clean-index.xml`,
    ...NOW,
  ]);
  assert.equal(code, 0, 'warnings alone do not fail');
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(lines.length, 2);
  assert.deepEqual(Object.keys(lines[0]!).slice(0, 8), [
    'source',
    'kind',
    'valid',
    'read',
    'urls',
    'errors',
    'warnings',
    'infos',
  ]);
  assert.equal(lines[0]!.kind, 'urlset');
  assert.equal(lines[0]!.warnings, 3);
  assert.deepEqual((lines[0]!.diagnostics as { code: string; line: number; column: number; url: string }[])[0], {
    code: 'URL-006',
    severity: 'warning',
    message: 'the URL is listed again (first at line 3); list each page once',
    line: 4,
    column: 13,
    url: 'https://www.example.com/a',
    source: `${RULES}url-006.xml`,
  });
  assert.equal(lines[1]!.kind, 'sitemapindex');
  assert.equal(lines[1]!.sitemaps, 2);
});

test('--max-per-rule folds repeats and says how many; --quiet keeps errors only', async () => {
  const folded = await runCli(['validate', `${RULES}url-006.xml`, '--max-per-rule', '1', ...NOW]);
  assert.equal(folded.stdout.match(/warning +URL-006 /g)?.length, 1);
  assert.match(folded.stdout, /… 2 more URL-006 warnings not shown \(--max-per-rule 0 shows all\)/);
  const quiet = await runCli(['validate', `${RULES}url-006.xml`, `${RULES}vid-003.xml`, '--quiet', ...NOW]);
  assert.doesNotMatch(quiet.stdout, /warning +URL-006/);
  assert.match(quiet.stdout, /error +VID-003/);
  assert.equal(quiet.code, 1);
});

test('--fail-on warning fails on warnings; --strict-scope and --location make scope errors', async () => {
  assert.equal((await runCli(['validate', `${RULES}url-007.xml`, ...NOW])).code, 0);
  assert.equal((await runCli(['validate', `${RULES}url-007.xml`, '--fail-on', 'warning', ...NOW])).code, 1);
  const scoped = await runCli([
    'validate',
    `${RULES}url-004.xml`,
    '--location',
    'https://www.example.com/sitemap.xml',
    '--strict-scope',
    ...NOW,
  ]);
  assert.equal(scoped.code, 1);
  assert.match(scoped.stdout, /url-004\.xml:4:13: error URL-004 /);
});

test('stdin as -', async () => {
  const { code, stdout } = await runCli(['validate', '-', ...NOW], { input: readFileSync(`${RULES}href-002.xml`) });
  assert.equal(code, 1);
  assert.match(stdout, /^-:6:5: error HREF-002 /m);
});

test('bad usage exits 2 with a message', async () => {
  for (const args of [
    [],
    ['x.xml', '--fail-on', 'info'],
    ['x.xml', '--location', 'example.com'],
    ['a.xml', 'b.xml', '--location', 'https://e.com/s.xml'],
    ['x.xml', '--now', 'yesterday'],
    ['x.xml', '--max-per-rule', '-1'],
    ['x.xml', '--bogus'],
  ]) {
    const { code, stderr } = await runCli(['validate', ...args]);
    assert.equal(code, 2, args.join(' '));
    assert.match(stderr, /^sitemapkit validate: /);
  }
});

test('a file that does not exist is an error of that source, not a crash', async () => {
  const { code, stdout } = await runCli(['validate', '/nonexistent/sitemap.xml']);
  assert.equal(code, 1);
  assert.match(stdout, /\/nonexistent\/sitemap\.xml.*error +FETCH-001/);
});

test('--recursive validates an index and its children, one summary line each', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-cli-'));
  try {
    writeFileSync(
      join(dir, 'index.xml'),
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <sitemap><loc>https://www.example.com/a.xml</loc></sitemap>\n</sitemapindex>\n',
    );
    writeFileSync(join(dir, 'a.xml'), readFileSync(`${RULES}url-006.xml`));
    const { code, stdout } = await runCli(['validate', join(dir, 'index.xml'), '--recursive', '--json', ...NOW]);
    assert.equal(code, 0);
    const results = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { source: string; kind: string; warnings: number });
    assert.deepEqual(
      results.map((r) => [r.source, r.kind, r.warnings]),
      [
        [join(dir, 'index.xml'), 'sitemapindex', 0],
        [join(dir, 'a.xml'), 'urlset', 5],
      ],
      'three duplicates, and two URLs off the origin the index gives the child',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('-r names where a missing child was looked for, and hints at --location only when it was not given', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-cli-'));
  try {
    const index = join(dir, 'index.xml');
    writeFileSync(
      index,
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <sitemap><loc>https://www.example.com/maps/b.xml</loc></sitemap>\n</sitemapindex>\n',
    );
    const without = await runCli(['validate', index, '-r', ...NOW]);
    assert.equal(without.code, 1);
    assert.match(
      without.stdout,
      new RegExp(
        `FETCH-001 https://www\\.example\\.com/maps/b\\.xml was looked for at ${join(dir, 'b.xml')}, and is not there; pass --location with the index's URL`,
      ),
    );
    const located = await runCli([
      'validate',
      index,
      '-r',
      '--location',
      'https://www.example.com/sitemap.xml',
      ...NOW,
    ]);
    assert.equal(located.code, 1);
    assert.match(
      located.stdout,
      new RegExp(
        `was looked for at ${join(dir, 'maps', 'b.xml')} and ${join(dir, 'b.xml')}, and is not there; write the file there, or validate the index by its URL`,
      ),
    );
    assert.doesNotMatch(located.stdout, /pass --location/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--json keeps --max-per-rule diagnostics of each rule and counts the rest, so a flood stays small', async () => {
  const urls = Array.from({ length: 30 }, () => '<url><loc>https://www.example.com/same</loc></url>').join('\n');
  const input = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  const parsed = async (...flags: string[]) => {
    const { stdout } = await runCli(['validate', '-', '--json', ...flags, ...NOW], { input });
    return JSON.parse(stdout) as { warnings: number; diagnostics: { code: string }[]; omitted?: number };
  };
  const capped = await parsed();
  assert.deepEqual([capped.warnings, capped.diagnostics.length, capped.omitted], [29, 20, 9]);
  const all = await parsed('--max-per-rule', '0');
  assert.deepEqual([all.warnings, all.diagnostics.length, all.omitted], [29, 29, undefined]);
});

test('-r prints one IDX-005 for a child listed twice, and one for an index that lists itself', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-cli-'));
  try {
    const children = ['a.xml', 'a.xml', 'index.xml'].map(
      (name) => `  <sitemap><loc>https://www.example.com/${name}</loc></sitemap>`,
    );
    writeFileSync(
      join(dir, 'index.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.join('\n')}\n</sitemapindex>\n`,
    );
    writeFileSync(join(dir, 'a.xml'), readFileSync(`${RULES}clean.xml`));
    const { code, stdout } = await runCli([
      'validate',
      '-r',
      join(dir, 'index.xml'),
      '--location',
      'https://www.example.com/index.xml',
      ...NOW,
    ]);
    const lines = stdout.split('\n').filter((line) => line.includes('IDX-005'));
    assert.deepEqual(
      lines.map((line) => line.split(/ +/).slice(0, 3)),
      [
        [`${join(dir, 'index.xml')}:4:17:`, 'warning', 'IDX-005'],
        [`${join(dir, 'index.xml')}:5:17:`, 'warning', 'IDX-005'],
      ],
      stdout,
    );
    assert.equal(code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a URL source comes through the shared HTTP client: a 503 with Retry-After is retried', async () => {
  const site = await startSite({
    '/sitemap.xml': (_request, response, { hits }) => {
      if (hits.get('/sitemap.xml') === 1) response.writeHead(503, { 'retry-after': '0' }).end('busy');
      else response.writeHead(200, { 'content-type': 'application/xml' }).end(readFileSync(`${RULES}clean.xml`));
    },
  });
  try {
    const url = site.url('/sitemap.xml');
    const { code, stdout } = await runCli([
      'validate',
      url,
      '--location',
      'https://www.example.com/sitemap.xml',
      ...NOW,
    ]);
    assert.equal(site.hits.get('/sitemap.xml'), 2, 'asked again after the 503');
    assert.equal(stdout, `${url}: urlset, 3 URLs, 0 errors, 0 warnings: valid\n`);
    assert.equal(code, 0);
  } finally {
    await site.close();
  }
});
