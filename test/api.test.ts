/** The public API as a library user meets it: everything from the package's one entry point. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sitemapkit from '../src/index.js';
import type { Entry, UrlEntry } from '../src/index.js';

test('the entry point exports each stage of the stream', () => {
  for (const name of [
    'parseSitemap',
    'writeSitemaps',
    'createSitemapWriter',
    'readUrlList',
    'walkSiteDirectory',
    'validateSitemap',
    'validateSources',
    'fetchSitemapTree',
    'walkSitemapTree',
    'HttpClient',
    'fetchRobotsTxt',
    'crawlSite',
    'runAudit',
    'checkListing',
    'SqliteAuditStore',
    'auditHtml',
    'CrawlStore',
    'GenerateLedger',
    'generateLedgerPath',
    'pageContentDigest',
    'CommitTimes',
    'normaliseUrl',
    'parseW3cDate',
    'escapeXml',
    'entryToJsonLine',
  ]) {
    assert.equal(typeof (sitemapkit as Record<string, unknown>)[name], 'function', name);
  }
});

test('generate → parse → validate through the public API gives the entries back, with no errors', async () => {
  const outDir = await mkdtemp(join(tmpdir(), 'sitemapkit-api-'));
  const entries: UrlEntry[] = [
    { kind: 'url', loc: 'https://www.example.com/', lastmod: '2024-05-01', changefreq: 'daily', priority: 1 },
    {
      kind: 'url',
      loc: 'https://www.example.com/shop/tent?size=2&colour=green',
      images: [{ loc: 'https://www.example.com/tent.jpg' }],
    },
  ];
  const summary = await sitemapkit.writeSitemaps(entries, { outDir, baseUrl: 'https://www.example.com/', gzip: true });
  // With --gzip the entry point is an index, sitemap.xml, even for one shard.
  assert.deepEqual(summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);
  const [shard] = summary.files;
  const path = join(outDir, shard!.name);
  const parsed = sitemapkit.parseSitemap(await readFile(path));
  const read: Entry[] = [];
  for await (const entry of parsed) read.push(entry);
  assert.equal(parsed.kind, 'urlset');
  assert.deepEqual(read, entries);
  const result = await sitemapkit.validateSitemap(path, { location: shard!.url });
  assert.equal(result.errors, 0, JSON.stringify(result.diagnostics));
  assert.equal(result.urls, 2);
});
