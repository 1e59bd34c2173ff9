/**
 * `sitemapkit/core`: the entry model, the protocol's limits and namespaces, the rule catalog,
 * diagnostics, and the URL, date and XML basics every other part builds on. Pure: no I/O, so it
 * runs anywhere JavaScript does.
 *
 * The public API is curated: each name is listed here on purpose. Add a name a user needs (with
 * TSDoc where it is declared) and to the list in test/api.test.ts.
 * @packageDocumentation
 */
export {
  CHANGEFREQS,
  isChangefreq,
  type Alternate,
  type Changefreq,
  type DocumentKind,
  type Entry,
  type Image,
  type News,
  type Relationship,
  type SitemapRef,
  type SourcedEntry,
  type UrlEntry,
  type Video,
  type VideoPlatform,
} from '../core/entry.js';
export { LIMITS } from '../core/limits.js';
export { NS } from '../core/namespaces.js';
export { diagnostic, formatDiagnostic, type Diagnostic, type Severity } from '../core/diagnostics.js';
export { DiagnosticTally, type CodeTally, type TallyCounts } from '../core/diagnostic-tally.js';
export { FAMILIES, RULES, familyOf, type RuleInfo } from '../core/catalog.js';
export type { Position } from '../core/position.js';
export type { Place, Placed } from '../core/placed.js';
export { checkScope, normaliseUrl, type ScopeResult, type UrlProblem, type UrlResult } from '../core/url.js';
export { formatSitemapDate, parseW3cDate, w3cToEpochMillis, type W3cDate } from '../core/datetime.js';
export { escapeXml } from '../core/xml.js';
