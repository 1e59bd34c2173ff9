/**
 * What a hostile site or file can make sitemapkit print or write (issue 25, items 3, 5, 6): escape
 * sequences fed through every command's human output come out as visible escapes, cells a
 * spreadsheet would run as formulas are neutralised in every CSV, and a password in a start URL is
 * printed, written and stored nowhere.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { runCli, type CliResult } from '../helpers/cli.js';
import { hostile, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { startSite, TEXT, urlset, XML, type Site } from '../helpers/site-server.js';

/** What a terminal obeys: every control character but the line feed that ends a line. */
// eslint-disable-next-line no-control-regex -- finding the control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** Lines that clear the screen, set the window title, overwrite a line and ring the bell. */
const HOSTILE_LINES = ['\u001b[2J\u001b[H✓ all valid', '\u001b]0;owned\u0007', 'fake\r✓ ok', '\u009b31mred'];
const FORMULA = '=HYPERLINK("http://evil.example/","click")';
const KEY = '3f2a9c1b7d4e4f6a8b0c1d2e3f405162';
const HTML = { 'content-type': 'text/html; charset=utf-8' };

function assertNoControl(result: CliResult, what: string): void {
  for (const [stream, text] of [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
  ] as const)
    assert.doesNotMatch(text, CONTROL, `${what}: a control character reached ${stream}:\n${JSON.stringify(text)}`);
}

/** Every file below `dir`, recursively. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

describe('hostile values in what sitemapkit prints and writes', () => {
  let site: Site;
  let raw: HostileServer;
  let dir: string;
  let hostileList: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-hostile-output-'));
    site = await startSite((origin) => ({
      '/robots.txt': { headers: TEXT, body: `Sitemap: ${origin}/sitemap.txt\nSitemap: ${origin}/sitemap.xml\n` },
      '/sitemap.txt': { headers: TEXT, body: [`${origin}/a`, ...HOSTILE_LINES].join('\n') },
      '/sitemap.xml': { headers: XML, body: urlset([`${origin}/a`, `${origin}/typed`]) },
      '/': { headers: HTML, body: '<title>home</title><a href="/a">a</a> <a href="/typed">typed</a>' },
      '/a': { headers: HTML, body: '<title>a</title><a href="/">home</a>' },
      // A value a spreadsheet would run, where the server controls it: the Content-Type.
      '/typed': { headers: { 'content-type': FORMULA }, body: 'not html' },
      [`/${KEY}.txt`]: { headers: TEXT, body: KEY },
      '/indexnow': { status: 403, headers: TEXT, body: HOSTILE_LINES.join(' ') },
    }));
    // A server that writes raw bytes: HTTP clients refuse C0 controls in a header, but not C1 (obs-text).
    raw = await startHostileServer({
      '/robots.txt': hostile.notFound(),
      '/': hostile.answer(200, { 'content-type': 'text/x-\u009b2Jevil' }, 'not html'),
    });
    hostileList = join(dir, 'list.txt');
    writeFileSync(hostileList, [`${site.origin}/a`, ...HOSTILE_LINES].join('\n'));
  });
  after(async () => {
    await site.close();
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every command shows control characters from its input as visible escapes', async () => {
    const other = join(dir, 'other.txt');
    writeFileSync(other, `${site.origin}/b\n`);
    const runs: [string, string[]][] = [
      ['validate', ['validate', hostileList]],
      ['validate (URL)', ['validate', `${site.origin}/sitemap.txt`]],
      ['parse', ['parse', hostileList]],
      ['generate', ['generate', hostileList, '--base-url', `${site.origin}/`, '--out', join(dir, 'generated')]],
      ['diff', ['diff', hostileList, other]],
      ['tree', ['tree', site.origin]],
      ['audit', ['audit', site.origin, '--state', join(dir, 'audit-state'), '--retries', '0']],
      [
        'crawl',
        [
          'crawl',
          `${site.origin}/`,
          '--use-sitemaps',
          '--out',
          join(dir, 'crawled'),
          '--state',
          join(dir, 'crawl-state'),
        ],
      ],
      [
        'submit',
        [
          'submit',
          hostileList,
          '--key',
          KEY,
          '--all',
          '--endpoint',
          `${site.origin}/indexnow`,
          '--state',
          join(dir, 'submit-state'),
        ],
      ],
    ];
    for (const [what, args] of runs) {
      const result = await runCli(args);
      assertNoControl(result, what);
    }
    const validated = await runCli(['validate', hostileList]);
    assert.match(validated.stdout, /"\\x1b\[2J\\x1b\[H✓ all valid" is not an absolute http\(s\) URL/);
    assert.match(validated.stdout, /"fake\\r✓ ok"/);
    const crawled = await runCli([
      'crawl',
      `${raw.origin}/`,
      '--out',
      join(dir, 'raw'),
      '--state',
      join(dir, 'raw-state'),
    ]);
    assertNoControl(crawled, 'crawl');
    assert.match(crawled.stdout, /not HTML \(text\/x-.?\\x9b2Jevil\)/);
  });

  it('audit --rows and crawl --report write a formula-like cell as text', async () => {
    const rows = join(dir, 'rows.csv');
    await runCli(['audit', site.origin, '--state', join(dir, 'audit-rows'), '--retries', '0', '--rows', rows]);
    const audited: Record<string, string>[] = parse(readFileSync(rows), { columns: true });
    const typed = audited.find((row) => row['url'] === `${site.origin}/typed`);
    assert.equal(typed?.['contentType']?.toLowerCase(), `'${FORMULA.toLowerCase()}`);

    const report = join(dir, 'left-out.csv');
    await runCli([
      'crawl',
      `${site.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state'),
      '--report',
      report,
    ]);
    const leftOut: Record<string, string>[] = parse(readFileSync(report), { columns: true });
    const notHtml = leftOut.find((row) => row['url'] === `${site.origin}/typed`);
    assert.equal(notHtml?.['detail'], `'${FORMULA}`);
    for (const row of [...audited, ...leftOut])
      for (const cell of Object.values(row)) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, JSON.stringify(row));
  });

  it('a password in the start URL is printed, written and stored nowhere; the warning names the host only', async () => {
    const host = new URL(site.origin).host;
    const out = join(dir, 'crawl-out');
    const state = join(dir, 'crawl-state-userinfo');
    const start = `http://admin:hunter2@${host}/`;
    for (const args of [['--json'], []]) {
      const result = await runCli(['crawl', start, '--out', out, '--state', state, ...args]);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stdout + result.stderr, /hunter2|admin/);
      assert.match(result.stderr, new RegExp(`warning URL-024 the URL for ${host} carries a user name or password`));
    }
    const written = filesBelow(out).concat(filesBelow(state));
    assert.ok(written.some((file) => file.endsWith('sitemap.xml')));
    for (const file of written) assert.ok(!readFileSync(file).includes('hunter2'), `${file} holds the password`);
    assert.match(readFileSync(join(out, 'sitemap.xml'), 'utf8'), new RegExp(`<loc>http://${host}/a</loc>`));
  });
});
