/**
 * ROBOTS-006 says what is missing: a robots.txt without a Sitemap: line, or no robots.txt at all
 * (a 404), which a user fixes by publishing one rather than by editing a file they do not have.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { startSite, urlset, XML, type Route } from '../helpers/site-server.js';

const NETWORK = ['--retries', '0', '--max-wait', '0', '--timeout', '10'];

/** The ROBOTS-006 example of an audit of a site with these routes besides its sitemap and home page. */
async function robots006(robots: Record<string, Route>): Promise<string | undefined> {
  const site = await startSite((origin) => ({
    ...robots,
    '/sitemap.xml': { headers: XML, body: urlset([`${origin}/`]) },
    '/': { headers: { 'content-type': 'text/html' }, body: '<title>home</title>' },
  }));
  try {
    const { stdout } = await runCli(['audit', site.origin, '--json', ...NETWORK]);
    const report = JSON.parse(stdout) as { siteChecks: { code: string; examples: { detail: string }[] }[] };
    return report.siteChecks.find((check) => check.code === 'ROBOTS-006')?.examples[0]?.detail;
  } finally {
    await site.close();
  }
}

test('ROBOTS-006 on a robots.txt that answers 404 says there is none', async () => {
  const detail = await robots006({});
  assert.match(detail ?? '', /robots\.txt answers HTTP 404: the site has no robots\.txt, so none names its sitemap/);
  assert.match(detail ?? '', /; the sitemap was found at http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml$/);
});

test('ROBOTS-006 on a robots.txt without the line says so', async () => {
  const detail = await robots006({ '/robots.txt': { body: 'User-agent: *\nDisallow: /private/\n' } });
  assert.match(detail ?? '', /robots\.txt has no Sitemap: line; the sitemap was found at/);
});
