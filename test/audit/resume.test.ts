/**
 * An audit killed with SIGKILL resumes with --resume: its rows equal those of an audit that ran
 * whole, and no page is answered twice (counted on the server). The kill comes at a known moment:
 * the server holds every page after the first KILL_AFTER, the test waits until the audit's state
 * has committed those, and kills it with its next requests in flight, never answered.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { escapeRegExp } from '../../src/core/regexp.js';
import { DEFAULT_LEASE_MS } from '../../src/run/worker.js';
import { auditDatabasePaths } from '../../src/store/site-database.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { html, serveSite, type Reply, type RunningSite } from '../helpers/serve-site.js';

const PAGES = 160;
const KILL_AFTER = 50;

/**
 * A site of PAGES listed pages (/p/N): some answer 404, some are noindex, some redirect (to a
 * page outside /p/, so that each listed URL costs one /p/ answer), the rest are clean.
 */
function pagesSite(origin: string, url: URL): Reply | undefined {
  if (url.pathname === '/robots.txt')
    return {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`,
    };
  if (url.pathname === '/sitemap.xml') {
    const entries = Array.from(
      { length: PAGES },
      (_, n) => `<url><loc>${origin}/p/${n}</loc><lastmod>2024-0${1 + (n % 5)}-1${n % 10}</lastmod></url>`,
    );
    return {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`,
    };
  }
  if (url.pathname.startsWith('/landing/')) return { body: html('<title>Landing</title>', '') };
  const page = /^\/p\/(\d+)$/.exec(url.pathname);
  if (!page) return undefined;
  const n = Number(page[1]);
  if (n % 10 === 3) return { status: 404, body: html('<title>Gone</title>', '') };
  if (n % 10 === 7) return { status: 301, headers: { location: `/landing/${n}` } };
  const head = n % 10 === 5 ? '<meta name="robots" content="noindex">' : '';
  return { body: html(`<title>Page ${n}</title>${head}`, `<p>page ${n}</p>`) };
}

describe('audit --resume after SIGKILL', () => {
  let site: RunningSite;
  let dir: string;
  /** While set, page answers past the first KILL_AFTER of the killed run wait on it. */
  let held: Promise<void> | undefined;
  let release = () => {};
  let pagesAnswered = 0;
  before(async () => {
    site = await serveSite(pagesSite, {
      gate: async (url) => {
        if (!url.pathname.startsWith('/p/')) return;
        if (held && pagesAnswered >= KILL_AFTER) await held;
        pagesAnswered += 1;
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-resume-'));
  });
  after(async () => {
    release();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const args = (state: string, rows: string, ...extra: string[]) => [
    'audit',
    site.origin,
    '--now',
    '2024-06-01',
    '--state',
    join(dir, state),
    '--rows',
    join(dir, rows),
    '--retries',
    '0',
    ...extra,
  ];
  /** URLs whose check the audit in `state` has committed (0 before its state exists). */
  const checkedIn = (state: string): number => {
    const file = auditDatabasePaths(join(dir, state), site.origin).audit;
    if (!existsSync(file)) return 0;
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare<[], { n: number }>('SELECT count(*) AS n FROM sitemapkit_run_items WHERE result IS NOT NULL')
        .get()!.n;
    } catch {
      return 0; // the tables are not there yet
    } finally {
      db.close();
    }
  };
  const pageCounts = (paths: string[]) => {
    const counts = new Map<string, number>();
    for (const path of paths) if (path.startsWith('/p/')) counts.set(path, (counts.get(path) ?? 0) + 1);
    return counts;
  };

  it('rows equal an uninterrupted audit, and no page is answered twice', async () => {
    const whole = await runCli(args('whole', 'whole.jsonl'));
    assert.equal(whole.code, 1, whole.stderr); // 404s are errors
    const wholeRows = readFileSync(join(dir, 'whole.jsonl'), 'utf8');
    assert.equal(wholeRows.trimEnd().split('\n').length, PAGES);

    const requestsFrom = site.requests.length;
    const answersFrom = site.answered.length;
    pagesAnswered = 0;
    held = new Promise((resolve) => (release = resolve));
    const child = spawn(process.execPath, [CLI_PATH, ...args('killed', 'killed.jsonl')], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const heldRequests = () =>
      site.requests.slice(requestsFrom).filter((path) => path.startsWith('/p/')).length - KILL_AFTER;
    // Killed once the answered pages are committed and the next requests are held: a page's
    // request goes out just after the commit before it, so the commits alone came a moment early.
    for (let waited = 0; checkedIn('killed') < KILL_AFTER || heldRequests() <= 0; waited += 20) {
      const state = `${checkedIn('killed')} of ${KILL_AFTER} checks committed, ${heldRequests()} requests held`;
      assert.ok(waited < 60_000, `after a minute: ${state}`);
      await sleep(20);
    }
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL', 'the audit was still running when killed');
    const inFlight = heldRequests();
    assert.ok(inFlight > 0, 'requests were in flight, held, when the audit was killed');
    assert.equal(checkedIn('killed'), KILL_AFTER, 'every answered page was committed, and only those');
    held = undefined;
    release();

    const started = performance.now();
    const resumed = await runCli(args('killed', 'killed.jsonl', '--resume'));
    assert.equal(resumed.code, 1, resumed.stderr);
    // The killed audit's leases are freed at once, not waited out: the
    // resumed run takes a few seconds, and a lease lives DEFAULT_LEASE_MS.
    assert.ok(performance.now() - started < DEFAULT_LEASE_MS / 2, 'the resumed audit waited for the killed one');
    assert.equal(readFileSync(join(dir, 'killed.jsonl'), 'utf8'), wholeRows, 'the same rows, in the same order');

    const answered = pageCounts(site.answered.slice(answersFrom));
    assert.equal(answered.size, PAGES, 'every page answered');
    assert.deepEqual(
      [...answered].filter(([, count]) => count > 1),
      [],
      'no page answered twice across the killed and the resumed run',
    );
    const asked = pageCounts(site.requests.slice(requestsFrom));
    const askedTwice = [...asked].filter(([, count]) => count > 1).map(([path]) => path);
    assert.equal(askedTwice.length, inFlight, 'asked again: only the requests that were in flight at the kill');
    assert.equal(
      site.requests.slice(requestsFrom).filter((path) => path === '/sitemap.xml').length,
      1,
      'the resumed audit did not read the sitemaps again',
    );
  });

  it('refuses to resume an audit of another input, naming the file, and keeps its state', async () => {
    const file = auditDatabasePaths(join(dir, 'whole'), site.origin).audit;
    assert.equal(checkedIn('whole'), PAGES, 'the first test left a whole audit in this state');
    const other = await runCli(
      args('whole', 'other.jsonl', '--resume').map((arg) => (arg === site.origin ? `${site.origin}/sitemap.xml` : arg)),
    );
    assert.equal(other.code, 2, other.stderr);
    assert.match(
      other.stderr,
      new RegExp(
        `the audit state in ${escapeRegExp(file)} is of "${escapeRegExp(site.origin)}", not "${escapeRegExp(site.origin)}/sitemap.xml"`,
      ),
    );
    assert.equal(checkedIn('whole'), PAGES, 'the refused resume left the state as it was');
  });

  it('starts afresh, saying so, when --resume finds no audit in its state', async () => {
    const file = auditDatabasePaths(join(dir, 'none'), site.origin).audit;
    const result = await runCli(args('none', 'none.jsonl', '--resume'));
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`sitemapkit audit: no audit to resume in ${escapeRegExp(file)}; starting afresh`),
    );
    assert.equal(readFileSync(join(dir, 'none.jsonl'), 'utf8').trimEnd().split('\n').length, PAGES);
  });
});
