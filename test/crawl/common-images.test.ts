/**
 * Images on most pages (issue 23 §4): the site logo on every page of a build is listed by neither
 * `generate DIR --images` nor `crawl` of the same build over a static server; each page's own
 * images are, the same in both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serveBuild, type ServedBuild } from '../helpers/served-build.js';
import { html } from '../helpers/serve-site.js';

const NAV =
  '<header><a href="/"><img src="/img/logo.svg" alt="Docs"></a> <a href="/a.html">A</a> <a href="/b.html">B</a> <a href="/c.html">C</a></header>';
const PAGES: Record<string, string> = {
  'index.html': html('<title>Home</title>', `${NAV}<img src="/img/hero.jpg">`),
  'a.html': html('<title>A</title>', `${NAV}<img src="/img/a.png" srcset="/img/a.png 1x, /img/a@2x.png 2x">`),
  'b.html': html('<title>B</title>', `${NAV}<p>No picture of its own.</p>`),
  'c.html': html('<title>C</title>', `${NAV}<img src="/img/c.webp">`),
};

/** Each URL of a sitemap with its image URLs. */
function imagesByPage(xml: string): Record<string, string[]> {
  const pages: Record<string, string[]> = {};
  for (const [, url] of xml.matchAll(/<url>(.*?)<\/url>/gs)) {
    const loc = /<loc>([^<]+)<\/loc>/.exec(url!)![1]!;
    pages[loc] = [...url!.matchAll(/<image:loc>([^<]+)<\/image:loc>/g)].map((match) => match[1]!);
  }
  return pages;
}

describe('the site logo in generate --images and crawl', () => {
  let served: ServedBuild;

  before(async () => {
    served = await serveBuild(PAGES);
  });

  after(() => served.close());

  it('lists each page with its own images, and the logo on none', async () => {
    const { site } = served;
    const sitemaps = await served.generateAndCrawl({ generateArgs: ['--images'], crawlStart: `${site.origin}/` });
    const o = site.origin;
    const expected = {
      [`${o}/`]: [`${o}/img/hero.jpg`],
      [`${o}/a.html`]: [`${o}/img/a.png`, `${o}/img/a@2x.png`],
      [`${o}/b.html`]: [],
      [`${o}/c.html`]: [`${o}/img/c.webp`],
    };
    assert.deepEqual(imagesByPage(sitemaps.generated), expected);
    assert.deepEqual(imagesByPage(sitemaps.crawled), expected);
  });
});
