/**
 * An audit of a live site against its sitemaps, in four parts:
 *
 *   1. discovery   the sitemap tree walked once, every document validated, every listed URL kept
 *                  (./discovery.ts, ./listings.ts)
 *   2. sample      with maxUrls, the same N URLs every time (the smallest fingerprints)
 *   3. checks      every sampled URL an item of a run, fetched politely and checked by a worker
 *                  (run/audit-checks.ts), each result committed to the run's queue
 *   4. crawl       optionally, the site crawled from its home page, to compare links with listings
 *                  (run/audit-crawl.ts, as it is a crawl run)
 *
 * then one pass over the run's rows makes the report (and streams the rows to whoever writes them),
 * after a pass that finds the Last-Modified headers that are a build's stamp (./stamped-headers.ts).
 */
import type { ListingBook } from './listings.js';
import { auditReport, RowTally, type AuditReport } from './report.js';
import { auditRows, type AuditRow, type AuditRowSource, type CrawlFacts } from './rows.js';
import { LastModifiedStamps } from './stamped-headers.js';

/** The part of an audit under way. */
export type AuditPhase = 'discovery' | 'checks' | 'crawl' | 'report';

/**
 * The report of an audit whose checks `source` reads: one pass over its rows, each handed to
 * `onRow` on the way.
 */
export async function reportAudit(
  source: AuditRowSource,
  parts: Omit<Parameters<typeof auditReport>[0], 'tally' | 'stampedLastModified'>,
  crawl?: CrawlFacts,
  onRow?: (row: AuditRow) => Promise<void> | void,
): Promise<AuditReport> {
  const tally = new RowTally();
  const stamps = await LastModifiedStamps.of(source.listings());
  for await (const row of auditRows(source, crawl, stamps)) {
    tally.add(row);
    await onRow?.(row);
  }
  return auditReport({ ...parts, tally, stampedLastModified: stamps.report() });
}

/** Narrows the URLs to check to `maxUrls` of them; says what was chosen (undefined: all of them). */
export function chooseSample(book: ListingBook, maxUrls: number | undefined): AuditReport['sample'] {
  const listed = book.listedCount;
  if (maxUrls === undefined || listed <= maxUrls) return undefined;
  book.chooseSample(maxUrls);
  const size = book.sampledCount;
  return {
    size,
    of: listed,
    method: `the ${size.toLocaleString('en-US')} URLs whose 64-bit fingerprint is smallest: the same URLs on every run, spread evenly over the sitemaps`,
  };
}
