/** parse reads one document: on an index or a robots.txt it says that tree is what reads the rest. */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { sitemapIndex, startSite, TEXT, XML } from '../helpers/site-server.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-parse-hint-'));
after(() => rm(scratch, { recursive: true, force: true }));

test('parse of a sitemap index or a robots.txt points at tree; of a urlset it says nothing more', async () => {
  const site = await startSite((origin) => ({
    '/sitemap_index.xml': { headers: XML, body: sitemapIndex([`${origin}/a.xml`]) },
    '/robots.txt': { headers: TEXT, body: `User-agent: *\nSitemap: ${origin}/sitemap_index.xml\n` },
  }));
  try {
    const index = await runCli(['parse', site.url('/sitemap_index.xml')]);
    assert.equal(index.code, 0, index.stderr);
    assert.match(
      index.stderr,
      new RegExp(
        `note: .*sitemap_index\\.xml is a sitemap index: .*"sitemapkit tree ${site.url('/sitemap_index.xml')}" reads every child`,
      ),
    );
    const robots = await runCli(['parse', site.url('/robots.txt')]);
    assert.match(robots.stderr, new RegExp(`is a robots\\.txt, not a sitemap: "sitemapkit tree ${site.origin}"`));
  } finally {
    await site.close();
  }
  const urlset = join(scratch, 'sitemap.xml');
  await writeFile(
    urlset,
    '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/</loc></url></urlset>',
  );
  const plain = await runCli(['parse', urlset]);
  assert.equal(plain.code, 0);
  assert.equal(plain.stderr, '');
});
