/**
 * Validating over HTTP what only a fetched sitemap can tell: the cross-submission proof of the
 * site's robots.txt (read once per host), and the children of a nested index, validated too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The public API: URL sources come with the shared HttpClient and the robots.txt proof.
import { validateSources, type ValidationResult } from '../../src/index.js';
import { sitemapIndex, startSite, urlset, XML, type Site } from '../helpers/site-server.js';

const NOW = new Date('2024-05-02T12:00:00Z');

function codes(results: ValidationResult[], source: RegExp): string[] {
  const result = results.find((r) => source.test(r.source));
  assert.ok(result, `a result for ${source}: ${results.map((r) => r.source).join(', ')}`);
  return result.diagnostics.map((d) => d.code);
}

/** An index at the root whose children live in /sitemaps/ and list pages elsewhere on the site. */
function shopSite(robotsTxt: (origin: string) => string) {
  return startSite((origin) => ({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: robotsTxt(origin) },
    '/sitemap_index.xml': {
      headers: XML,
      body: sitemapIndex([`${origin}/sitemaps/products.xml`, `${origin}/sitemaps/posts.xml`]),
    },
    '/sitemaps/products.xml': {
      headers: XML,
      body: urlset(Array.from({ length: 5 }, (_, i) => `${origin}/products/${i}`)),
    },
    '/sitemaps/posts.xml': { headers: XML, body: urlset([`${origin}/blog/1`, `${origin}/blog/2`]) },
  }));
}

async function withSite<T>(site: Site, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    await site.close();
  }
}

describe('validate over HTTP', () => {
  it('accepts URLs outside the folder of a sitemap its robots.txt declares, through the index', async () => {
    const site = await shopSite((origin) => `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap_index.xml\n`);
    await withSite(site, async () => {
      const results = await validateSources([site.url('/sitemap_index.xml')], { recursive: true, now: NOW });
      assert.equal(results.length, 3);
      for (const result of results) assert.deepEqual(result.diagnostics, [], result.source);
      assert.equal(site.hits.get('/robots.txt'), 1, 'robots.txt is read once for the host');
    });
  });

  it('warns about those URLs when robots.txt does not declare the sitemap, and errs with --strict-scope', async () => {
    const site = await shopSite(() => 'User-agent: *\nAllow: /\n');
    await withSite(site, async () => {
      const results = await validateSources([site.url('/sitemap_index.xml')], { recursive: true, now: NOW });
      assert.deepEqual(codes(results, /products\.xml$/), Array(5).fill('URL-005'));
      assert.deepEqual(codes(results, /posts\.xml$/), ['URL-005', 'URL-005']);
      assert.equal(results[1]!.diagnostics[0]!.severity, 'warning');
    });
    const declared = await shopSite((origin) => `Sitemap: ${origin}/sitemap_index.xml\n`);
    await withSite(declared, async () => {
      const strict = await validateSources([declared.url('/sitemap_index.xml')], {
        recursive: true,
        strictScope: true,
        now: NOW,
      });
      assert.deepEqual(codes(strict, /products\.xml$/), Array(5).fill('URL-005'));
      assert.equal(strict[1]!.diagnostics[0]!.severity, 'error');
      assert.equal(declared.hits.get('/robots.txt'), undefined, '--strict-scope rules the proof out: not read');
    });
  });

  it('validates the children of a nested index, reporting the nesting (IDX-002) in the index', async () => {
    const site = await startSite((origin) => ({
      '/index.xml': { headers: XML, body: sitemapIndex([`${origin}/a.xml`, `${origin}/nested.xml`]) },
      '/a.xml': { headers: XML, body: urlset([`${origin}/a`]) },
      '/nested.xml': { headers: XML, body: sitemapIndex([`${origin}/deep.xml`]) },
      '/deep.xml': { headers: XML, body: urlset([`${origin}/deep`, 'not a url']) },
    }));
    await withSite(site, async () => {
      const results = await validateSources([site.url('/index.xml')], { recursive: true, now: NOW });
      assert.deepEqual(
        results.map((r) => [r.source.slice(site.origin.length), r.kind, r.urls]),
        [
          ['/index.xml', 'sitemapindex', 0],
          ['/a.xml', 'urlset', 1],
          ['/nested.xml', 'sitemapindex', 0],
          ['/deep.xml', 'urlset', 2],
        ],
      );
      assert.deepEqual(codes(results, /\/index\.xml$/), ['IDX-002']);
      assert.deepEqual(codes(results, /deep\.xml$/), ['URL-001'], 'the child of the nested index was validated');
    });
  });

  it('stops descending nested indexes five levels down (LIMIT-003)', async () => {
    const site = await startSite((origin) =>
      Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [
          `/level${i}.xml`,
          { headers: XML, body: sitemapIndex([`${origin}/level${i + 1}.xml`]) },
        ]),
      ),
    );
    await withSite(site, async () => {
      const results = await validateSources([site.url('/level0.xml')], { recursive: true, now: NOW });
      assert.equal(results.length, 6);
      assert.deepEqual(codes(results, /level5\.xml$/), ['LIMIT-003']);
      assert.equal(site.hits.get('/level6.xml'), undefined);
    });
  });
});
