/**
 * The rows of an audit, one per checked URL (and with a crawl, one per indexable page no sitemap
 * lists), as `--rows` writes them and the report counts them: the listing, what its check found,
 * and the findings that need other URLs (./cross-checks.ts). Read from the audit's run in the order
 * the URLs were listed, lazily, so a million rows cost no more memory than one.
 */
import type { CheckedUrl, Listing } from './check.js';
import { DuplicateContent, missingReturnLink, type CrawlComparison } from './cross-checks.js';
import { inReportOrder, type Finding } from './findings.js';
import type { StoredCheck } from './listings.js';
import type { LastModifiedStamps } from './stamped-headers.js';

/** One row of an audit: a listed URL checked (or, with a crawl, an indexable page not listed). */
export interface AuditRow {
  url: string;
  /** False for a page the crawl found that no sitemap lists (absent otherwise). */
  listed?: false;
  sitemap?: string;
  line?: number;
  status?: number;
  finalUrl?: string;
  contentType?: string;
  indexable: boolean;
  findings: Finding[];
  lastmod?: string;
  lastModified?: string;
  pageModified?: string;
  /** Where a redirect ended: its status, and whether the sitemaps list it. */
  finalStatus?: number;
  targetListed?: boolean;
  canonical?: string;
  /** With duplicate-content: the first URL listed with the same content (the group's name). */
  duplicateOf?: string;
  /** What each finding is about, in words. */
  details: Partial<Record<Finding, string>>;
}

/** Crawled pages, for the findings a crawl brings. */
export interface CrawlFacts {
  comparison: CrawlComparison;
  /** Every URL the crawl met, with its outcome ('listed': indexable, as the crawler judges). */
  pages: () => Iterable<{ url: string; outcome: string | null }>;
}

/** A sampled listed URL, with its check once it is made. */
export interface CheckedListing extends Omit<Listing, 'repeats'> {
  check?: StoredCheck | undefined;
}

/** Where an audit's rows are read from. */
export interface AuditRowSource {
  /** The sampled listed URLs, in the order listed. */
  listings(): AsyncIterable<CheckedListing>;
  /** The live hreflang links of a listed URL: undefined when it is not listed or not checked, null when it has none. */
  liveHreflangOf(url: string): string | null | undefined;
}

/**
 * Every checked row, then (with a crawl) the rows of indexable pages no sitemap lists. With
 * `stamps`, a lastmod-stale that only a build's stamp made (./stamped-headers.ts) is left out.
 */
export async function* auditRows(
  source: AuditRowSource,
  crawl?: CrawlFacts,
  stamps?: LastModifiedStamps,
): AsyncGenerator<AuditRow> {
  const duplicates = new DuplicateContent();
  for await (const stored of source.listings()) {
    if (stored.check === undefined) continue;
    const checked = JSON.parse(stored.check.result) as Omit<CheckedUrl, 'liveHreflang'>;
    const findings = new Set(checked.findings);
    const details = { ...checked.details };
    if (findings.has('lastmod-stale') && stamps?.madeStale(stored.url, checked)) {
      findings.delete('lastmod-stale');
      delete details['lastmod-stale'];
    }
    const add = (finding: Finding, detail: string | undefined) => {
      if (detail === undefined) return;
      findings.add(finding);
      details[finding] = detail;
    };
    if (stored.alternates !== undefined)
      add(
        'hreflang-no-return',
        missingReturnLink(stored.url, stored.alternates, (url) => source.liveHreflangOf(url)),
      );
    // Only a page worth reaching is an orphan: a 4xx, a 5xx or a redirect has its own finding already.
    if (crawl && checked.indexable) add('orphan', crawl.comparison.orphan(stored.url));
    const duplicateOf = duplicates.firstOf(stored.url, checked.digest);
    add(
      'duplicate-content',
      duplicateOf && `the same content as ${duplicateOf}, listed earlier, and no canonical names one of them`,
    );
    yield {
      url: stored.url,
      sitemap: stored.sitemap,
      ...(stored.line === undefined ? {} : { line: stored.line }),
      ...pick(checked, 'status', 'finalUrl', 'contentType'),
      indexable: checked.indexable,
      findings: inReportOrder(findings),
      ...(stored.lastmod === undefined ? {} : { lastmod: stored.lastmod }),
      ...pick(checked, 'lastModified', 'pageModified', 'finalStatus', 'targetListed', 'canonical'),
      ...(duplicateOf === undefined ? {} : { duplicateOf }),
      details,
    };
  }
  if (!crawl) return;
  for (const page of crawl.pages()) {
    if (page.outcome !== 'listed' || crawl.comparison.isListed(page.url)) continue;
    yield {
      url: page.url,
      listed: false,
      indexable: true,
      findings: ['not-listed'],
      details: { 'not-listed': 'the crawl found this page indexable (200, HTML, not noindex, its own canonical)' },
    };
  }
}

/** The fields of `from` that are set, in the order named. */
function pick<T extends object, K extends keyof T>(from: T, ...keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (from[key] !== undefined) picked[key] = from[key];
  return picked;
}
