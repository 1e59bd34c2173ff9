/**
 * An audit's state is the queue of its run: a state file written by an earlier sitemapkit (the
 * audit's own tables) cannot be resumed, and --resume says so, naming the file and what to do,
 * before any request; without --resume the file is replaced by a fresh run.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, before, describe, it } from 'node:test';
import { auditDatabasePaths } from '../../src/store/site-database.js';
import { runCli } from '../helpers/cli.js';
import { startSite, urlset, XML, type Site } from '../helpers/site-server.js';

const FORMER_LAYOUT = readFileSync(new URL('../store/fixtures/unversioned/audit-store.sql', import.meta.url), 'utf8');

describe('audit --resume on a state file of an earlier sitemapkit', () => {
  let dir: string;
  let site: Site;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-former-'));
    site = await startSite((origin) => ({
      '/robots.txt': { body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n` },
      '/sitemap.xml': { headers: XML, body: urlset([`${origin}/`]) },
      '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Home</title>' },
    }));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const formerStateIn = (state: string): string => {
    const file = auditDatabasePaths(join(dir, state), site.origin).audit;
    mkdirSync(join(dir, state), { recursive: true });
    const db = new Database(file);
    db.exec(FORMER_LAYOUT);
    db.exec("INSERT INTO audit_meta (key, value) VALUES ('now', '1714557600000')");
    db.close();
    return file;
  };
  const audit = (state: string, ...extra: string[]) =>
    runCli(['audit', site.origin, '--state', join(dir, state), '--json', '-q', '--retries', '0', ...extra]);

  it('is refused with --resume, naming the file and what to do, before any request', async () => {
    const file = formerStateIn('refused');
    const requests = [...site.hits.values()].reduce((sum, n) => sum + n, 0);
    const result = await audit('refused', '--resume');
    assert.equal(result.code, 1, result.stderr);
    assert.ok(
      result.stderr.includes(
        `${file} holds the audit state of an earlier sitemapkit, which this one cannot resume; audit again without --resume to start afresh`,
      ),
      result.stderr,
    );
    assert.equal(
      [...site.hits.values()].reduce((sum, n) => sum + n, 0),
      requests,
      'no request made',
    );
  });

  it('is replaced by a fresh audit without --resume', async () => {
    formerStateIn('fresh');
    const result = await audit('fresh');
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { urls: { checked: number } };
    assert.equal(report.urls.checked, 1);
  });
});
