/**
 * robots.txt that names no sitemap of its own host (issue 23 §12): only one on another host, or
 * one that does not exist. `tree` tries the host's well-known locations too and says that it did
 * (ROBOTS-008); the audit's terminal and HTML reports say so plainly.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fetchSitemapTree } from '../../src/discover/tree.js';
import { runCli } from '../helpers/cli.js';
import { html } from '../helpers/serve-site.js';
import { startSite, TEXT, urlset, XML, type Site } from '../helpers/site-server.js';

describe('robots.txt naming no sitemap of its own host', () => {
  let other: Site;
  let offHost: Site;
  let missing: Site;
  let fine: Site;
  let dir: string;

  before(async () => {
    other = await startSite((origin) => ({ '/sitemap.xml': { headers: XML, body: urlset([`${origin}/x`]) } }));
    const pages = (origin: string) => ({
      '/sitemap.xml': { headers: XML, body: urlset([`${origin}/`, `${origin}/a`]) },
      '/': { headers: { 'content-type': 'text/html' }, body: html('<title>Home</title>', '<h1>Home</h1>') },
      '/a': { headers: { 'content-type': 'text/html' }, body: html('<title>A</title>', '<h1>A</h1>') },
    });
    offHost = await startSite((origin) => ({
      ...pages(origin),
      '/robots.txt': { headers: TEXT, body: `User-agent: *\nAllow: /\nSitemap: ${other.origin}/sitemap.xml\n` },
    }));
    missing = await startSite((origin) => ({
      ...pages(origin),
      '/robots.txt': { headers: TEXT, body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemaps/all.xml\n` },
    }));
    fine = await startSite((origin) => ({
      ...pages(origin),
      '/robots.txt': { headers: TEXT, body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n` },
    }));
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-robots-own-'));
  });

  after(async () => {
    await Promise.all([other.close(), offHost.close(), missing.close(), fine.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('tries the well-known locations beside a sitemap on another host, and says so', async () => {
    const tree = await fetchSitemapTree(offHost.origin, { http: { retries: 0 } });
    assert.deepEqual(
      tree.roots.map((root) => [root.url, root.foundBy, root.ok]),
      [
        [`${other.origin}/sitemap.xml`, 'robots', true],
        [`${offHost.origin}/sitemap.xml`, 'well-known', true],
      ],
    );
    assert.deepEqual(
      tree.diagnostics.map((d) => [d.code, d.message]),
      [
        [
          'ROBOTS-008',
          `${offHost.origin}/robots.txt names no sitemap of ${new URL(offHost.origin).host} that can be read, only ${other.origin}/sitemap.xml (on another host); the well-known locations of ${offHost.origin} were tried too: ${offHost.origin}/sitemap.xml holds a sitemap, read too`,
        ],
      ],
    );
  });

  it('tries them when the sitemap robots.txt names does not exist, and tree prints it', async () => {
    const result = await runCli(['tree', missing.origin, '--retries', '0']);
    assert.match(result.stdout, /well-known locations: \/sitemap\.xml found/);
    assert.ok(
      result.stdout.includes(
        `ROBOTS-008 ${missing.origin}/robots.txt names no sitemap of ${new URL(missing.origin).host} that can be read, only ${missing.origin}/sitemaps/all.xml (HTTP 404); the well-known locations of ${missing.origin} were tried too: ${missing.origin}/sitemap.xml holds a sitemap, read too`,
      ),
      result.stdout,
    );
    const tree = await fetchSitemapTree(missing.origin, { http: { retries: 0 } });
    assert.deepEqual(
      tree.roots.map((root) => [root.url.slice(missing.origin.length), root.foundBy, root.ok, root.urls]),
      [
        ['/sitemaps/all.xml', 'robots', false, 0],
        ['/sitemap.xml', 'well-known', true, 2],
      ],
    );
  });

  it('leaves a robots.txt that names its own sitemap alone', async () => {
    const tree = await fetchSitemapTree(fine.origin, { http: { retries: 0 } });
    assert.deepEqual(tree.probes, []);
    assert.deepEqual(tree.diagnostics, []);
    assert.equal(fine.hits.get('/sitemap.xml'), 1);
  });

  it('is said plainly by the audit, on the terminal and in the HTML report', async () => {
    const report = join(dir, 'audit.html');
    const result = await runCli([
      'audit',
      offHost.origin,
      '--state',
      join(dir, 'state'),
      '--retries',
      '0',
      '--fail-on',
      'never',
      '--html',
      report,
    ]);
    assert.equal(result.code, 0, result.stderr);
    const sentence = `${offHost.origin}/robots.txt names no sitemap of ${new URL(offHost.origin).host} that can be read, only ${other.origin}/sitemap.xml (on another host)`;
    const lines = result.stdout.split('\n');
    assert.ok(lines[2]!.includes(sentence), result.stdout);
    assert.ok(readFileSync(report, 'utf8').includes(`<p class="warning" id="robots-no-own-sitemap">`));
    assert.ok(readFileSync(report, 'utf8').includes(sentence));
  });
});
