/**
 * The audit of a build served by a plain static server, which sends each file's time as
 * Last-Modified: the time of the build. A sitemap dated honestly (by git, long before the build)
 * is not stale by that header; a page's own later date still makes it stale, and a server whose
 * Last-Modified times differ page by page is still believed.
 */
import assert from 'node:assert/strict';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditReport } from '../../src/audit/report.js';
import { runCli } from '../helpers/cli.js';
import { serveBuild, type ServedBuild } from '../helpers/served-build.js';
import { html } from '../helpers/serve-site.js';

const UNDATED = ['index.html', 'a.html', 'b.html', 'c.html'];

/** Each page listed with the lastmod its last commit gives, before the build; dated.html changed after it. */
function pages(origin: string): Record<string, string> {
  const urls = [...UNDATED, 'dated.html'].map((path) => `${origin}/${path === 'index.html' ? '' : path}`);
  return {
    ...Object.fromEntries(UNDATED.map((path) => [path, html(`<title>${path}</title>`, '<p>Words.</p>')])),
    'dated.html': html(
      '<title>Dated</title><meta property="article:modified_time" content="2024-05-10T09:00:00Z">',
      '<p>Changed after its lastmod.</p>',
    ),
    'sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((url) => `<url><loc>${url}</loc><lastmod>2024-01-01</lastmod></url>`).join('\n')}
</urlset>
`,
  };
}

describe('audit: Last-Modified that is a build stamp', () => {
  let served: ServedBuild;

  before(async () => {
    // The pages name the origin, which is known once the site listens: written again below.
    served = await serveBuild({});
    await mkdir(served.build, { recursive: true });
    for (const [path, body] of Object.entries(pages(served.site.origin)))
      await writeFile(join(served.build, path), body);
  });

  after(() => served.close());

  let runs = 0;
  const audit = async (...extra: string[]) =>
    runCli([
      'audit',
      `${served.site.origin}/sitemap.xml`,
      '--now',
      '2024-07-01T00:00:00Z',
      '--retries',
      '0',
      '--state',
      join(dirname(served.build), `state-${++runs}`),
      ...extra,
    ]);

  const staleUrls = (report: AuditReport) =>
    report.checks
      .find((check) => check.finding === 'lastmod-stale')
      ?.examples.map((example) => example.url.replace(served.site.origin, ''));

  it("leaves out lastmod-stale made by the build's time alone, and says why", async () => {
    const built = new Date('2024-06-01T12:00:00Z');
    for (const path of [...UNDATED, 'dated.html']) await utimes(join(served.build, path), built, built);
    const result = await audit('--json');
    const report = JSON.parse(result.stdout) as AuditReport;
    assert.deepEqual(staleUrls(report), ['/dated.html'], 'only the page whose own date is later');
    assert.deepEqual(report.stampedLastModified, [
      {
        origin: served.site.origin,
        pages: 5,
        from: '2024-06-01T12:00:00Z',
        to: '2024-06-01T12:00:00Z',
        staleLeftOut: 4,
      },
    ]);
    const text = await audit();
    assert.match(
      text.stdout,
      /Last-Modified of 5 pages of http:\/\/127\.0\.0\.1:\d+ is the time of one build \(2024-06-01T12:00:00Z to 2024-06-01T12:00:00Z\), not when each page changed: lastmod-stale judged them by their own dates only \(4 lastmod-stale findings left out\)/,
    );
  });

  it('believes Last-Modified times that differ page by page', async () => {
    const days = ['2024-02-03', '2024-03-09', '2024-04-17', '2024-05-21'];
    for (const [i, path] of UNDATED.entries()) {
      const time = new Date(`${days[i]}T08:00:00Z`);
      await utimes(join(served.build, path), time, time);
    }
    const report = JSON.parse((await audit('--json')).stdout) as AuditReport;
    assert.deepEqual(staleUrls(report), ['/', '/a.html', '/b.html', '/c.html', '/dated.html']);
    assert.equal(report.stampedLastModified, undefined);
  });
});
