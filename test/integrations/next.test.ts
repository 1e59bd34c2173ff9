/**
 * sitemapkit/next on a real Next.js static export (examples/next, Next 15 from npm): the
 * post-build step over out/ with next.config's trailingSlash; and sitemapRoute, the app-router
 * handlers that serve an index and its shards from a paged source.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import { sitemapRoute } from '../../src/integrations/next.js';
import { copyExample, writtenSitemaps, type ExampleCopy } from '../helpers/real-build.js';

const SITE = 'https://shop.example.com';
let project: ExampleCopy;
let built: { stdout: string; entries: Map<string, UrlEntry> };

before(async () => {
  project = await copyExample('next');
  const { stdout } = await project.build();
  built = { stdout, entries: await writtenSitemaps(join(project.dir, 'out')) };
});
after(async () => {
  await project?.remove();
});

test('next: the exported pages with trailing slashes, without the 404 and noindex pages', () => {
  assert.deepEqual([...built.entries.keys()].sort(), [`${SITE}/`, `${SITE}/about/`]);
  assert.match(built.stdout, /^Wrote 2 URLs in 1 file to /m);
  assert.match(built.stdout, /2 +error pages/);
});

test('next: lastmod from the page head', () => {
  assert.equal(built.entries.get(`${SITE}/about/`)?.lastmod, '2024-05-02T08:00:00Z');
});

test('next: sitemapRoute serves an index and its shards from a paged source', async () => {
  const products = {
    count: () => 5,
    page: (index: number, size: number) =>
      Array.from({ length: Math.min(size, 5 - index * size) }, (_, i) => ({ loc: `${SITE}/p/${index * size + i}` })),
  };
  // Served from /sitemaps/, the sitemaps list pages above their folder: valid when robots.txt names them.
  const { GET, HEAD } = sitemapRoute(products, { baseUrl: `${SITE}/sitemaps/`, pageSize: 2, allowOtherHosts: true });
  const index = await GET(new Request(`${SITE}/sitemaps/sitemap.xml`));
  assert.equal(index.status, 200);
  const listed = [...(await index.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
  assert.deepEqual(
    listed,
    [0, 1, 2].map((n) => `${SITE}/sitemaps/sitemap-${n}.xml`),
  );
  const last = await GET(new Request(`${SITE}/sitemaps/sitemap-2.xml`));
  assert.deepEqual(
    [...(await last.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]),
    [`${SITE}/p/4`],
  );
  assert.equal((await GET(new Request(`${SITE}/sitemaps/sitemap-3.xml`))).status, 404);
  const head = await HEAD(new Request(`${SITE}/sitemaps/sitemap.xml`, { method: 'HEAD' }));
  assert.equal(head.status, 200);
});
