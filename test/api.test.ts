/** The public API as a library user meets it: everything from the package's one entry point. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sitemapkit from '../src/index.js';
import type { Entry, UrlEntry } from '../src/index.js';

/**
 * What the package exports, by name: the curated public API (src/index.ts and its entry points).
 * A name added on purpose is added here too; a name that appears by accident fails this test.
 */
const PUBLIC_NAMES = [
  // core
  'CHANGEFREQS',
  'DiagnosticTally',
  'FAMILIES',
  'LIMITS',
  'NS',
  'RULES',
  'checkScope',
  'diagnostic',
  'escapeXml',
  'familyOf',
  'formatDiagnostic',
  'formatSitemapDate',
  'isChangefreq',
  'normaliseUrl',
  'parseW3cDate',
  'w3cToEpochMillis',
  // parse
  'DEFAULT_PARSE_LIMITS',
  'ParseError',
  'entryBatches',
  'locatedEntryBatches',
  'parseSitemap',
  // generate, and its sources
  'CommitTimes',
  'EXTENSION_NAMES',
  'GenerateError',
  'URL_LIST_FORMATS',
  'createSitemapWriter',
  'generateFromDirectory',
  'pageContentDigest',
  'prepareEntry',
  'readSiteDirectory',
  'readUrlList',
  'walkSiteDirectory',
  'writeSitemaps',
  // validate
  'validateSitemap',
  'validateSources',
  // discover
  'HttpClient',
  'HttpError',
  'RobotsRules',
  'WELL_KNOWN_SITEMAP_PATHS',
  'fetchRobotsTxt',
  'TreeSpill',
  'fetchSitemapTree',
  'fetchSitemapTreeView',
  'parseRobotsTxt',
  'walkSitemapTree',
  // crawl
  'DEFAULT_CONCURRENCY',
  'DEFAULT_MAX_PAGE_BYTES',
  'DEFAULT_TRAP_LIMITS',
  'LEFT_OUT_REASONS',
  'TRACKING_PARAMS',
  'crawlSite',
  'httpPageFetcher',
  'robotsTxtPolicy',
  'summariseCrawl',
  // audit
  'FINDINGS',
  'auditDatabasePaths',
  'auditHtml',
  'checkListing',
  'fetchLiveAnswer',
  'formatAuditText',
  'runAudit',
  // serve
  'serveSitemaps',
  'sitemapHandler',
  'sitemapStream',
  // the edges: the work pool, the ledger, renderings, the version
  'DEFAULT_STATE_DIR',
  'DEFAULT_USER_AGENT',
  'GenerateLedger',
  'HTML_SITEMAP_CSS',
  'RetryLater',
  'VERSION',
  'WorkPool',
  'crawlReport',
  'entryCsvHeader',
  'entryToCsvRow',
  'entryToJsonLine',
  'formatCrawlReportJson',
  'formatCrawlReportText',
  'generateLedgerPath',
  'htmlSitemap',
  'renderTree',
  'siteDatabasePath',
  'treeToJson',
  'writeHtmlSitemap',
];

/** The subpath entry points of package.json "exports", each a part of the main entry. */
const SUBPATHS = ['core', 'parse', 'generate', 'validate', 'discover', 'crawl', 'audit', 'serve'];

test('the entry point exports the curated names, and nothing else', () => {
  assert.deepEqual(Object.keys(sitemapkit).sort(), [...PUBLIC_NAMES].sort());
});

test('each subpath (sitemapkit/parse …) resolves through package.json and exports a part of the main entry', async () => {
  // By the package's own name, as a user imports it: through the "exports" map, to the build.
  const load = (specifier: string) => import(specifier) as Promise<Record<string, unknown>>;
  const main = await load('sitemapkit');
  assert.deepEqual(Object.keys(main).sort(), [...PUBLIC_NAMES].sort());
  const covered = new Set<string>();
  for (const subpath of SUBPATHS) {
    const part = await load(`sitemapkit/${subpath}`);
    assert.ok(Object.keys(part).length > 0, subpath);
    for (const [name, value] of Object.entries(part)) {
      assert.equal(value, main[name], `sitemapkit/${subpath} exports ${name} as the main entry does`);
      covered.add(name);
    }
  }
  // The parser's entry point is the parser alone.
  assert.deepEqual(Object.keys(await load('sitemapkit/parse')).sort(), [
    'DEFAULT_PARSE_LIMITS',
    'ParseError',
    'entryBatches',
    'locatedEntryBatches',
    'parseSitemap',
  ]);
  assert.ok(covered.has('writeSitemaps') && covered.has('crawlSite') && covered.has('HttpClient'));
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
