/** The generator: entries → sitemap files (writeSitemaps) or one document on any stream (createSitemapWriter). */
export { writeSitemaps } from './write-sitemaps.js';
export { GenerateError } from './errors.js';
export type { LockHolder } from './run-lock.js';
export { createSitemapWriter, type SitemapWriter, type SitemapWriterOptions } from './node-writer.js';
export { prepareEntry, type PreparedEntry, type PrepareContext, type EntryProblem } from './prepare.js';
export {
  serializeUrlEntry,
  serializeSitemapIndex,
  serializeSitemapRef,
  serializeTextLine,
  urlsetOpen,
  sitemapIndexOpen,
  stylesheetInstruction,
  URLSET_CLOSE,
  SITEMAPINDEX_CLOSE,
  XML_DECLARATION,
  formatPriority,
} from './serialize.js';
export * from './types.js';
export type {
  SitemapLedger,
  LedgerRun,
  KnownUrl,
  StagedUrl,
  ShardEntry,
  ShardTotals,
  RecordedShard,
  RunChanges,
  UrlChange,
} from './ledger.js';
