/**
 * The crawl state file, guarded (issue 25 §9, §10): one crawl at a time on it, an empty or
 * damaged one is an error naming it (never a silent fresh start), and `--state` is compared
 * with `--out` as the file system sees the two.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { openSqliteFile } from '../../src/store/sqlite-file.js';
import { siteDatabasePath } from '../../src/store/site-database.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { html, serveSite, type RunningSite } from '../helpers/serve-site.js';

const PAGES = 30;

describe('the crawl state file', () => {
  let site: RunningSite;
  let dir: string;
  /** Holds every page but / until released: a crawl caught mid-way. */
  let release: () => void = () => undefined;
  let held = new Promise<void>((resolve) => (release = resolve));
  before(async () => {
    site = await serveSite(
      (_origin, url) => {
        const n = url.pathname === '/' ? 0 : Number(url.pathname.slice(3));
        if (url.pathname !== '/' && !/^\/p\/\d+$/.test(url.pathname)) return undefined;
        return { body: html('<title>p</title>', `<a href="/p/${(n + 1) % PAGES}">next</a>`) };
      },
      { gate: (url) => (url.pathname.startsWith('/p/') ? held : undefined) },
    );
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-state-files-'));
  });
  after(async () => {
    release();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is held by one crawl: a second crawl on it fails, naming the one that holds it', async () => {
    const state = join(dir, 'shared');
    const first = spawn(
      process.execPath,
      [CLI_PATH, 'crawl', `${site.origin}/`, '--out', join(dir, 'out1'), '--state', state],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let firstErr = '';
    first.stderr.setEncoding('utf8').on('data', (chunk: string) => (firstErr += chunk));
    const firstExit = new Promise<number | null>((resolve) => first.on('exit', resolve));
    while (!site.requests.includes('/p/1')) await sleep(10); // the first crawl is mid-way, held there
    const second = await runCli(['crawl', `${site.origin}/`, '--out', join(dir, 'out2'), '--state', state, '--resume']);
    assert.equal(second.code, 1);
    const file = siteDatabasePath(state, `${site.origin}/`);
    assert.match(
      second.stderr,
      new RegExp(
        `another sitemapkit run \\(process ${first.pid} on this machine, started [^)]+\\) is writing into ${escape(file)}; wait for it to finish`,
      ),
    );
    release();
    assert.equal(await firstExit, 0, firstErr);
    held = new Promise<void>((resolve) => (release = resolve));
    release();
    // Once the first is over, the state is free again.
    const third = await runCli(['crawl', `${site.origin}/`, '--out', join(dir, 'out3'), '--state', state, '--resume']);
    assert.equal(third.code, 0, third.stderr);
  });

  for (const [name, content] of [
    ['empty (0 bytes)', ''],
    ['not a database', 'PK\u0003\u0004 this is a zip file, not SQLite '.repeat(40)],
  ] as const) {
    it(`refuses to resume from a state file that is ${name}, naming it`, async () => {
      const state = join(dir, `broken-${content.length}`);
      mkdirSync(state, { recursive: true });
      const file = siteDatabasePath(state, `${site.origin}/`);
      writeFileSync(file, content);
      const result = await runCli([
        'crawl',
        `${site.origin}/`,
        '--out',
        join(dir, 'out-broken'),
        '--state',
        state,
        '--resume',
      ]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`sitemapkit crawl: .*${escape(file)}`));
      assert.match(
        result.stderr,
        content === '' ? /holds no crawl to resume/ : /is not a sitemapkit state file, or is damaged/,
      );
      assert.doesNotMatch(result.stderr, /starting afresh/);
    });
  }

  it('names the file when a store cannot read it', () => {
    const file = join(dir, 'garbage.sqlite');
    writeFileSync(file, 'x'.repeat(4096));
    assert.throws(() => openSqliteFile(file, { durability: 'OFF' }), {
      message: new RegExp(
        `^${escape(file)} is not a sitemapkit state file, or is damaged \\(SQLite: file is not a database\\)`,
      ),
    });
  });

  it('refuses --state inside --out however the path is spelled: public/..sk, or through a link', async () => {
    const cwd = join(dir, 'spelled');
    mkdirSync(join(cwd, 'public'), { recursive: true });
    symlinkSync(join(cwd, 'public'), join(cwd, 'link'));
    for (const stateDir of ['public/..sk', 'link/state', 'public/sub/../state']) {
      const result = await runCli(['crawl', `${site.origin}/`, '--out', 'public', '--state', stateDir], { cwd });
      assert.equal(result.code, 2, stateDir);
      assert.match(result.stderr, /is inside --out public: the crawl state must not be published/, stateDir);
    }
    // Beside it, and a name that only begins like it, are fine.
    for (const stateDir of ['..sk', 'public-state']) {
      const result = await runCli(
        ['crawl', `${site.origin}/`, '--out', 'public', '--state', stateDir, '--max-pages', '1'],
        { cwd },
      );
      assert.doesNotMatch(result.stderr, /is inside --out/, stateDir);
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
