/**
 * `sitemapkit/parse`: any sitemap a crawler meets (urlset, index, text, RSS, Atom; plain or gzip)
 * read as a stream of entries, leniently, safely and in constant memory.
 * @packageDocumentation
 */
export { DEFAULT_PARSE_LIMITS, entryBatches, locatedEntryBatches, parseSitemap } from '../parse/index.js';
export {
  ParseError,
  type EntryLocation,
  type LocatedEntry,
  type ParsedSitemap,
  type ParseLimits,
  type ParseOptions,
  type ParseStats,
  type SitemapSource,
} from '../parse/types.js';
