/**
 * One exit-code policy for every command (src/cli/problem-options.ts): 0 done and nothing at or
 * above --fail-on; 1 a problem at or above --fail-on, or failed work, whatever --fail-on says; 2
 * bad usage. And one --max-per-rule: the first N problems of each code, then a count. Each
 * command that reports problems is run here as a user runs it, on real files and a real site.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exitCode } from '../../src/cli/problem-options.js';
import { runCli } from '../helpers/cli.js';
import { sitemapIndex, startSite, urlset, XML, type Site } from '../helpers/site-server.js';

const FAST = ['--timeout', '5', '--retries', '0'];
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-policy-'));
const file = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const BAD_DATES = urlset(['a', 'b', 'c'].map((p) => ({ loc: `https://example.com/${p}`, lastmod: '2024-13-01' })));
const REPEATED = urlset(['https://example.com/a', 'https://example.com/a']);
const CLEAN = urlset(['https://example.com/a', 'https://example.com/b']);

/**
 * The exit code of `args` under each --fail-on level: [default, error, warning, never]. The runs
 * go at once; `args` may be a function of the run's number, for runs that each need a folder.
 */
async function codesUnderEachLevel(args: string[] | ((run: number) => string[])): Promise<(number | null)[]> {
  const levels = [[], ['--fail-on', 'error'], ['--fail-on', 'warning'], ['--fail-on', 'never']];
  const argsOf = typeof args === 'function' ? args : () => args;
  return Promise.all(levels.map(async (level, run) => (await runCli([...argsOf(run), ...level])).code));
}

after(() => rmSync(dir, { recursive: true, force: true }));

describe('the exit-code policy, command by command', () => {
  let site: Site;
  before(async () => {
    site = await startSite((origin) => ({
      '/errors.xml': { headers: XML, body: BAD_DATES },
      '/warnings.xml': { headers: XML, body: urlset([`${origin}/a`, `${origin}/a`]) },
      '/clean.xml': { headers: XML, body: urlset([`${origin}/a`]) },
      '/repeats.xml': { headers: XML, body: sitemapIndex([`${origin}/clean.xml`, `${origin}/clean.xml`]) },
      '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
      '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><a href="/a">a</a>' },
      '/a': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>a</p>' },
    }));
  });
  after(() => site.close());

  it('validate: errors fail by default, warnings with --fail-on warning, nothing with never', async () => {
    assert.deepEqual(await codesUnderEachLevel(['validate', file('errors.xml', BAD_DATES)]), [1, 1, 1, 0]);
    assert.deepEqual(await codesUnderEachLevel(['validate', file('warnings.xml', REPEATED)]), [0, 0, 1, 0]);
    assert.deepEqual(await codesUnderEachLevel(['validate', file('clean.xml', CLEAN)]), [0, 0, 0, 0]);
    assert.deepEqual(await codesUnderEachLevel(['validate', join(dir, 'missing.xml')]), [1, 1, 1, 1]);
  });

  it('parse: the same levels; a document not read whole fails the run at every level', async () => {
    assert.deepEqual(await codesUnderEachLevel(['parse', join(dir, 'errors.xml')]), [1, 1, 1, 0]);
    assert.deepEqual(await codesUnderEachLevel(['parse', join(dir, 'clean.xml')]), [0, 0, 0, 0]);
    assert.deepEqual(await codesUnderEachLevel(['parse', join(dir, 'missing.xml')]), [1, 1, 1, 1]);
    assert.deepEqual(await codesUnderEachLevel(['parse', site.url('/gone.xml'), ...FAST]), [1, 1, 1, 1]);
  });

  it('generate: errors and warnings as validate; writing nothing fails at every level', async () => {
    let outputs = 0;
    const args = (input: string) => (run: number) => [
      'generate',
      input,
      '--base-url',
      'https://example.com/',
      '--out',
      join(dir, `out-${outputs++}-${run}`),
    ];
    const otherHost = file('other-host.txt', 'https://elsewhere.example.org/a\nhttps://example.com/b\n');
    assert.deepEqual(await codesUnderEachLevel(args(otherHost)), [1, 1, 1, 0]);
    const repeated = file('repeated.txt', 'https://example.com/a\nhttps://example.com/a\n');
    assert.deepEqual(await codesUnderEachLevel(args(repeated)), [0, 0, 1, 0]);
    const nothing = file('nothing.txt', 'https://elsewhere.example.org/a\n');
    assert.deepEqual(await codesUnderEachLevel(args(nothing)), [1, 1, 1, 1]);
  });

  it('tree: the problems of the sitemaps read; a sitemap not read fails at every level', async () => {
    assert.deepEqual(await codesUnderEachLevel(['tree', site.url('/errors.xml'), ...FAST]), [1, 1, 1, 0]);
    // An index that lists a child twice: IDX-005, a warning.
    assert.deepEqual(await codesUnderEachLevel(['tree', site.url('/repeats.xml'), ...FAST]), [0, 0, 1, 0]);
    assert.deepEqual(await codesUnderEachLevel(['tree', site.url('/clean.xml'), ...FAST]), [0, 0, 0, 0]);
    assert.deepEqual(await codesUnderEachLevel(['tree', site.url('/gone.xml'), ...FAST]), [1, 1, 1, 1]);
  });

  it('crawl: a clean site exits 0 at every level; a start URL that fails exits 1 at every level', async () => {
    const args = (start: string, n: number) => [
      'crawl',
      start,
      '--out',
      join(dir, `crawl-${n}`),
      '--state',
      join(dir, `state-${n}`),
      ...FAST,
    ];
    const levels = [[], ['--fail-on', 'warning'], ['--fail-on', 'never']];
    const clean = await Promise.all(
      levels.map(async (level, n) => (await runCli([...args(site.origin, n), ...level])).code),
    );
    assert.deepEqual(clean, [0, 0, 0]);
    const gone = await Promise.all(
      levels.map(async (level, n) => (await runCli([...args(site.url('/gone'), n + 3), ...level])).code),
    );
    assert.deepEqual(gone, [1, 1, 1]);
  });

  it('validate and parse: a plain file cut off mid-document fails at every level; a misspelt root end only by its error', async () => {
    const whole = urlset(['https://example.com/a', 'https://example.com/b', 'https://example.com/c']);
    const cut = file('cut.xml', whole.slice(0, whole.indexOf('example.com/b')));
    const misspelt = file('misspelt.xml', whole.replace('</urlset>', '</urlsett>'));
    for (const command of ['validate', 'parse']) {
      assert.deepEqual(await codesUnderEachLevel([command, cut]), [1, 1, 1, 1], `${command} cut.xml`);
      assert.deepEqual(await codesUnderEachLevel([command, misspelt]), [1, 1, 1, 0], `${command} misspelt.xml`);
    }
  });

  it('audit: a site it could not read fails at every level, --fail-on never included', async () => {
    const closed = await startSite({});
    const origin = closed.origin;
    await closed.close();
    const levels = [[], ['--fail-on', 'warning'], ['--fail-on', 'never']];
    const codes = await Promise.all(
      levels.map(async (level) => (await runCli(['audit', origin, ...FAST, ...level], { cwd: dir })).code),
    );
    assert.deepEqual(codes, [1, 1, 1]);
  });

  it('every command that reports problems refuses a --fail-on it does not know, with exit 2', async () => {
    for (const command of ['generate', 'parse', 'validate', 'tree', 'crawl', 'audit']) {
      const { code, stderr } = await runCli([command, 'x', '--fail-on', 'often']);
      assert.equal(code, 2, command);
      assert.match(stderr, /--fail-on must be error, warning or never, not "often"/, command);
    }
  });
});

describe('--max-per-rule, command by command', () => {
  const folded = /… 2 more DATE-003 errors not shown \(--max-per-rule 0 shows all\)/;

  it('validate, parse and tree print the first N problems of a code, then count the rest', async () => {
    const errors = file('errors.xml', BAD_DATES);
    for (const args of [
      ['validate', errors],
      ['parse', errors],
    ]) {
      const { stdout, stderr } = await runCli([...args, '--max-per-rule', '1']);
      const printed = `${stdout}${stderr}`;
      assert.equal(printed.match(/DATE-003/g)?.length, 2, `${args[0]}: one problem and one count\n${printed}`);
      assert.match(printed, folded, args[0]);
      const all = await runCli([...args, '--max-per-rule', '0']);
      assert.equal(`${all.stdout}${all.stderr}`.match(/DATE-003/g)?.length, 3, `${args[0]}: 0 prints all`);
    }
  });

  it('tree folds per sitemap', async () => {
    const site = await startSite({ '/errors.xml': { headers: XML, body: BAD_DATES } });
    try {
      const { stdout } = await runCli(['tree', site.url('/errors.xml'), '--max-per-rule', '1', ...FAST]);
      assert.equal(stdout.match(/: error DATE-003 /g)?.length, 1, stdout);
      assert.match(stdout, folded);
      assert.match(stdout, /3 errors, 0 warnings/, 'the totals count every problem, shown or not');
    } finally {
      await site.close();
    }
  });

  it('generate folds the problems of each code and counts them all', async () => {
    const input = file('dates.jsonl', ['a', 'b', 'c'].map((p) => `{"loc":"/${p}","lastmod":"2024-13-01"}\n`).join(''));
    const { code, stderr } = await runCli([
      'generate',
      input,
      '--base-url',
      'https://example.com/',
      '--out',
      join(dir, 'dates-out'),
      '--max-per-rule',
      '1',
    ]);
    assert.equal(code, 1);
    assert.equal(stderr.match(/error DATE-003/g)?.length, 1, stderr);
    assert.match(stderr, folded);
  });

  it('every command that reports problems refuses a --max-per-rule that is no number, with exit 2', async () => {
    for (const command of ['generate', 'parse', 'validate', 'tree', 'crawl']) {
      const { code, stderr } = await runCli([command, 'x', '--max-per-rule', 'some']);
      assert.equal(code, 2, command);
      assert.match(stderr, /--max-per-rule must be a whole number of at least 0, not "some"/, command);
    }
  });
});

describe('exitCode(): one function from (documents read, problems, --fail-on)', () => {
  it('fails on a document not read whole at every level, on problems only as --fail-on and the budget say', () => {
    const clean = { errors: 0, warnings: 0 };
    for (const failOn of ['error', 'warning', 'never'] as const) {
      assert.equal(exitCode({ documents: ['whole', 'cut-off'], ...clean }, failOn), 1, `cut-off, ${failOn}`);
      assert.equal(exitCode({ documents: ['not-read'], ...clean }, failOn), 1, `not-read, ${failOn}`);
      assert.equal(exitCode({ documents: ['whole', 'unchanged'], ...clean }, failOn), 0, `whole, ${failOn}`);
      assert.equal(exitCode({ failed: true, ...clean }, failOn), 1, `failed, ${failOn}`);
    }
    const unchangedWithErrors = { documents: ['unchanged' as const], errors: 2, warnings: 1 };
    assert.deepEqual(
      (['error', 'warning', 'never'] as const).map((failOn) => exitCode(unchangedWithErrors, failOn)),
      [1, 1, 0],
    );
    assert.equal(exitCode({ errors: 2, warnings: 1, allowed: 2 }, 'error'), 0);
    assert.equal(exitCode({ errors: 2, warnings: 1, allowed: 2 }, 'warning'), 1);
    assert.equal(exitCode({ errors: 2, warnings: 1, allowed: 3 }, 'warning'), 0);
  });
});
