/**
 * A server that is down is unreachable, not "blocked by robots.txt": RFC 9309 takes a site whose
 * robots.txt cannot be reached as disallowed, but a user reading the report must learn that the
 * host gave no answer, and why. Held for crawl (a start URL on a closed port) and audit (a listed
 * URL on another host that is down).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { closedOrigin, startSite, urlset, XML } from '../helpers/site-server.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-unreachable-'));
after(() => rm(scratch, { recursive: true, force: true }));
const NETWORK = ['--retries', '0', '--max-wait', '0', '--timeout', '10'];

test('crawl of a server that is down says it gave no answer, not that robots.txt blocks it', async () => {
  const down = await closedOrigin();
  const { code, stdout, stderr } = await runCli(['crawl', `${down}/`, '--out', join(scratch, 'crawl'), ...NETWORK]);
  assert.equal(code, 1);
  assert.doesNotMatch(stdout, /blocked by robots\.txt/);
  assert.match(stdout, /The start page was not listed: no response .*could not connect to .*ECONNREFUSED/);
  assert.match(stderr, /could not be fetched: no answer: could not connect/);
});

test('audit calls a listed URL on a host that is down unreachable, with the reason', async () => {
  const down = await closedOrigin();
  const site = await startSite((origin) => ({
    '/robots.txt': { body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n` },
    '/sitemap.xml': { headers: XML, body: urlset([`${origin}/`, `${down}/gone`]) },
    '/': { headers: { 'content-type': 'text/html' }, body: '<title>home</title>' },
  }));
  try {
    const { stdout } = await runCli(['audit', site.origin, '--json', ...NETWORK]);
    const report = JSON.parse(stdout) as { checks: { code: string; examples: { url: string; detail: string }[] }[] };
    const codes = report.checks.map((check) => check.code);
    assert.ok(!codes.includes('URL-010'), `not robots-blocked: ${codes.join(', ')}`);
    const unreachable = report.checks.find((check) => check.code === 'URL-015');
    assert.ok(unreachable, stdout);
    assert.equal(unreachable.examples[0]!.url, `${down}/gone`);
    assert.match(unreachable.examples[0]!.detail, /no answer: could not connect to .*ECONNREFUSED/);
  } finally {
    await site.close();
  }
});
