/**
 * One URL per page (issue 23 §6): one built site, read as a folder by `generate` and crawled over a
 * plain static server by `crawl`, gives the same URLs, folder pages as `…/` and never also as
 * `…/index.html`, nor as a URL with a query that the static server answers with the same file (a
 * search box's link, as rustdoc writes them); the only difference is a page no link reaches.
 */
import assert from 'node:assert/strict';
import { readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlReport } from '../../src/report/crawl.js';
import { serveBuild, type ServedBuild } from '../helpers/served-build.js';
import { html, serveSite } from '../helpers/serve-site.js';
import { staticFolder } from '../helpers/static-folder.js';

/** The pages of the build, by file; links as a generator writes them, to index files and folders alike. */
const PAGES: Record<string, string> = {
  'index.html': html(
    '<title>Home</title>',
    '<a href="./index.html">Home</a> <a href="docs/">Docs</a> <a href="docs/index.html">Docs again</a> <a href="about.html">About</a> <a href="blog/first.html">First post</a>',
  ),
  'about.html': html(
    '<title>About</title><meta property="article:modified_time" content="2024-04-02T08:00:00Z">',
    '<a href="/">Home</a> <a href="/index.html">Home</a>',
  ),
  'docs/index.html': html(
    '<title>Docs</title>',
    '<a href="../index.html">Home</a> <a href="guide/index.html">Guide</a> <a href="/docs/api">API</a>',
  ),
  'docs/guide/index.html': html('<title>Guide</title>', '<a href="../">Docs</a> <a href="./">Guide</a>'),
  'docs/api/index.html': html('<title>API</title>', '<a href="/docs/guide/">Guide</a>'),
  'blog/first.html': html(
    '<title>First</title>',
    '<a href="../index.html">Home</a> <a href="../docs/?search=Vec">Search</a> <a href="../docs/index.html?search=Box">Search</a> <a href="../about.html?highlight=team">Team</a>',
  ),
  // No link leads here: generate lists it, a crawl cannot know it.
  'unlinked.html': html('<title>Unlinked</title>', ''),
};

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!).sort();
}

describe('generate DIR and crawl of the same build', () => {
  let served: ServedBuild;

  before(async () => {
    served = await serveBuild(PAGES);
  });

  after(() => served.close());

  it('lists the same URLs, folder pages as …/', async () => {
    const { site } = served;
    const sitemaps = await served.generateAndCrawl({ crawlStart: `${site.origin}/index.html` });
    const fromFolder = locs(sitemaps.generated);
    const fromCrawl = locs(sitemaps.crawled);
    const o = site.origin;
    assert.deepEqual(fromCrawl, [
      `${o}/`,
      `${o}/about.html`,
      `${o}/blog/first.html`,
      `${o}/docs/`,
      `${o}/docs/api/`,
      `${o}/docs/guide/`,
    ]);
    assert.deepEqual(
      fromFolder.filter((url) => !fromCrawl.includes(url)),
      [`${o}/unlinked.html`],
      'only the page no link reaches differs',
    );
    assert.deepEqual(
      fromCrawl.filter((url) => !fromFolder.includes(url)),
      [],
    );
    assert.ok(
      !site.requests.some((path) => path.endsWith('/index.html')),
      'no index file is fetched: its folder answers',
    );
  });

  it('leaves out a URL with a query that answers the bytes of the URL without it, and says why', async () => {
    const { site } = served;
    const { run } = await served.crawl('twins', `${site.origin}/`, ['--json']);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as CrawlReport;
    const o = site.origin;
    assert.deepEqual(
      report.leftOut.find((group) => group.reason === 'duplicate'),
      {
        reason: 'duplicate',
        count: 3,
        examples: [
          { url: `${o}/docs/?search=Vec`, detail: `the same bytes as ${o}/docs/` },
          { url: `${o}/docs/index.html?search=Box`, detail: `the same bytes as ${o}/docs/` },
          { url: `${o}/about.html?highlight=team`, detail: `the same bytes as ${o}/about.html` },
        ],
      },
    );
    assert.equal(report.listed, 6);
  });

  it('lists a URL with a query whose page is its own', async () => {
    // A server that shows the query: page 2 of a list is a page of its own.
    const dynamic = await serveSite((_origin, url) => ({
      body: html(`<title>List ${url.search}</title>`, '<a href="/list?page=2">Next</a>'),
    }));
    try {
      const { run, sitemap } = await served.crawl('dynamic', `${dynamic.origin}/list`);
      assert.equal(run.code, 0, run.stderr);
      const o = dynamic.origin;
      assert.deepEqual(locs(await readFile(sitemap, 'utf8')), [`${o}/list`, `${o}/list?page=2`]);
    } finally {
      await dynamic.close();
    }
  });

  it("dates the pages alike: by their own date, never by the build's time", async () => {
    const { site } = served;
    // One build wrote them all, a while ago.
    const built = new Date('2024-06-01T12:00:00Z');
    for (const path of Object.keys(PAGES)) await utimes(join(served.build, path), built, built);
    const { generated, crawled, notes } = await served.generateAndCrawl({ crawlStart: `${site.origin}/` });
    const dated = (xml: string) =>
      [...xml.matchAll(/<loc>([^<]+)<\/loc>\s*<lastmod>([^<]+)<\/lastmod>/g)].map(([, loc, lastmod]) => [loc, lastmod]);
    // The static server sends each file's time as Last-Modified: the build's, for all but about.html.
    assert.deepEqual(dated(crawled), [[`${site.origin}/about.html`, '2024-04-02T08:00:00Z']]);
    assert.deepEqual(dated(generated), dated(crawled));
    assert.match(
      notes.crawl,
      /note: lastmod is left out of 5 pages of http:\/\/127\.0\.0\.1:\d+: the Last-Modified dates of 6 pages are one build's/,
    );
  });

  it('falls back to the index file where the folder URL does not answer', async () => {
    // A server without directory indexes: /docs/ is 404, /docs/index.html answers.
    const bare = await serveSite((origin, url) =>
      url.pathname.endsWith('/') && url.pathname !== '/'
        ? { status: 404, body: 'Not Found' }
        : staticFolder(served.build)(origin, url),
    );
    try {
      const { run, sitemap } = await served.crawl('bare', `${bare.origin}/`);
      const fromCrawl = locs(await readFile(sitemap, 'utf8'));
      const o = bare.origin;
      assert.deepEqual(fromCrawl, [
        `${o}/`,
        `${o}/about.html`,
        `${o}/blog/first.html`,
        `${o}/docs/api/index.html`,
        `${o}/docs/guide/index.html`,
        `${o}/docs/index.html`,
      ]);
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await bare.close();
    }
  });
});
