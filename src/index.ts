/**
 * sitemapkit's public API: one stream of entries from sources (parse, URL lists, build
 * directories, the sitemap tree, the crawler) to sinks (writeSitemaps, validation, JSONL).
 */
export * from './core/index.js';
export * from './parse/index.js';
export * from './generate/index.js';
export * from './input/index.js';
export * from './validate/index.js';
export * from './discover/index.js';
export * from './crawl/index.js';
export { CrawlStore, type FinishedUrl, type FoundUrl, type QueuedUrl } from './store/crawl-store.js';
export { siteDatabasePath, DEFAULT_STATE_DIR } from './store/site-database.js';
export { ValidationReport, type ValidationReportOptions } from './report/validation.js';
export { renderTree, treeToJson } from './report/tree.js';
export { crawlReport, formatCrawlReportText, formatCrawlReportJson, formatCrawlProgress, type CrawlReport } from './report/crawl.js';
export { entryToJsonLine, entryCsvHeader, entryToCsvRow } from './report/entries.js';
export { VERSION, DEFAULT_USER_AGENT } from './version.js';
