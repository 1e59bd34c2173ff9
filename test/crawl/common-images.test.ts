/**
 * Images on most pages (issue 23 §4): the site logo on every page of a build is listed by neither
 * `generate DIR --images` nor `crawl` of the same build over a static server; each page's own
 * images are, the same in both.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { html, serveSite, type RunningSite } from '../helpers/serve-site.js';
import { staticFolder } from '../helpers/static-folder.js';

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
  let dir: string;
  let site: RunningSite;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sitemapkit-logo-'));
    for (const [path, body] of Object.entries(PAGES)) {
      await mkdir(dirname(join(dir, 'build', path)), { recursive: true });
      await writeFile(join(dir, 'build', path), body);
    }
    site = await serveSite(staticFolder(join(dir, 'build')));
  });

  after(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists each page with its own images, and the logo on none', async () => {
    const generated = await runCli([
      'generate',
      join(dir, 'build'),
      '--images',
      '--base-url',
      `${site.origin}/`,
      '--out',
      join(dir, 'generated'),
    ]);
    assert.equal(generated.code, 0, generated.stderr);
    const crawled = await runCli([
      'crawl',
      `${site.origin}/`,
      '--out',
      join(dir, 'crawled'),
      '--state',
      join(dir, 'state'),
    ]);
    assert.equal(crawled.code, 0, crawled.stderr);
    const o = site.origin;
    const expected = {
      [`${o}/`]: [`${o}/img/hero.jpg`],
      [`${o}/a.html`]: [`${o}/img/a.png`, `${o}/img/a@2x.png`],
      [`${o}/b.html`]: [],
      [`${o}/c.html`]: [`${o}/img/c.webp`],
    };
    assert.deepEqual(imagesByPage(await readFile(join(dir, 'generated', 'sitemap.xml'), 'utf8')), expected);
    assert.deepEqual(imagesByPage(await readFile(join(dir, 'crawled', 'sitemap.xml'), 'utf8')), expected);
  });
});
