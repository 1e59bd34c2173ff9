/**
 * sitemapkit's public API: one stream of entries from sources (parseSitemap, readUrlList,
 * readSiteDirectory, walkSitemapTree, crawlSite) through checks (prepareEntry, validateSources)
 * to sinks (writeSitemaps, createSitemapWriter, entryToJsonLine).
 *
 * The API is curated: every name is listed on purpose, in the entry point of its area (also
 * published alone: `sitemapkit/core`, `sitemapkit/parse`, `sitemapkit/generate`,
 * `sitemapkit/validate`, `sitemapkit/discover`, `sitemapkit/crawl`, `sitemapkit/audit`, `sitemapkit/serve`;
 * `sitemapkit/web` is the same core for Deno, Bun, workers and browsers) or below. A name a user needs
 * is added there, with TSDoc where it is declared, and to the list in test/api.test.ts; internals
 * stay unexported.
 * @packageDocumentation
 */
export * from './entrypoints/core.js';
export * from './entrypoints/parse.js';
export * from './entrypoints/generate.js';
export * from './entrypoints/validate.js';
export * from './entrypoints/discover.js';
export * from './entrypoints/crawl.js';
export * from './entrypoints/audit.js';
export * from './entrypoints/serve.js';

// The edges no single area owns: the work pool, the generate ledger, renderings, the version.
export {
  RetryLater,
  WorkPool,
  type HostPoliteness,
  type Settled,
  type TaskContext,
  type WorkPoolOptions,
} from './pool/index.js';
export { GenerateLedger } from './store/generate-ledger.js';
export { DEFAULT_STATE_DIR, generateLedgerPath, siteDatabasePath } from './store/site-database.js';
export { renderTree, treeToJson, type TreeReportOptions } from './report/tree.js';
export { crawlReport, formatCrawlReportJson, formatCrawlReportText, type CrawlReport } from './report/crawl.js';
export { entryCsvHeader, entryToCsvRow, entryToJsonLine } from './report/entries.js';
export {
  HTML_SITEMAP_CSS,
  htmlSitemap,
  type HtmlSitemap,
  type HtmlSitemapDocument,
  type HtmlSitemapInput,
  type HtmlSitemapItem,
  type HtmlSitemapLabels,
  type HtmlSitemapOptions,
} from './generate/html-sitemap.js';
export { writeHtmlSitemap, type HtmlSitemapFiles, type WriteHtmlSitemapOptions } from './site/html-sitemap-files.js';
export { DEFAULT_USER_AGENT, VERSION } from './version.js';
