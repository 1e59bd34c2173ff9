/**
 * `sitemapkit/generate`: entries → published sitemaps (sharded, gzipped, indexed, atomically), or
 * one document on any stream; and the sources that feed it: URL lists and build directories.
 * @packageDocumentation
 */
export { writeSitemaps } from '../generate/write-sitemaps.js';
export { GenerateError } from '../generate/errors.js';
export { createSitemapWriter, type SitemapWriter, type SitemapWriterOptions } from '../generate/node-writer.js';
export { prepareEntry, type EntryProblem, type PrepareContext, type PreparedEntry } from '../generate/prepare.js';
export {
  EXTENSION_NAMES,
  type ExtensionName,
  type GeneratorInput,
  type OutputFormat,
  type PlacedEntry,
  type PlacedProblem,
  type WriteProgress,
  type WriteSitemapsOptions,
  type WriteSummary,
  type WrittenFile,
} from '../generate/types.js';
export type { RecordedChanges, RunChanges, SitemapLedger } from '../generate/ledger.js';
export {
  generateFromDirectory,
  type GenerateFromDirectoryOptions,
  type GenerateFromDirectorySummary,
  type SiteNote,
} from '../site/generate-from-directory.js';
export { readUrlList, type ReadUrlListOptions } from '../input/url-list.js';
export {
  readSiteDirectory,
  walkSiteDirectory,
  type LeftOutPage,
  type LeftOutPageReason,
  type TrailingSlash,
  type WalkSiteOptions,
} from '../input/site-directory.js';
export type { LeftOutGroup } from '../input/left-out.js';
export {
  URL_LIST_FORMATS,
  type ReadEntry,
  type ReadItem,
  type ReadProblem,
  type UrlListFormat,
} from '../input/types.js';
export { pageContentDigest } from '../input/content-digest.js';
export { CommitTimes, type CommitTimesOpening } from '../input/commit-times.js';
