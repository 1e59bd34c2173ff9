/**
 * An audit of a live site against its sitemaps, in four parts:
 *
 *   1. discovery   the sitemap tree walked once, every document validated, every listed URL kept
 *                  (./discovery.ts, ./listings.ts)
 *   2. sample      with maxUrls, the same N URLs every time (the smallest fingerprints)
 *   3. checks      every sampled URL an item of a run, fetched politely and checked by a worker
 *                  (run/audit-checks.ts), each result committed to the run's queue
 *   4. crawl       optionally, the site crawled from its home page, to compare links with listings
 *
 * then one pass over the run's rows makes the report (and streams the rows to whoever writes them).
 */
import type { CrawlProgress } from '../crawl/types.js';
import type { HttpClient } from '../http/client.js';
import type { HostPoliteness } from '../pool/index.js';
import { crawlSiteInto, readCrawlRun } from '../run/crawl-site.js';
import { CrawlComparison } from './cross-checks.js';
import type { Discovery } from './discovery.js';
import type { ListingBook } from './listings.js';
import { auditReport, RowTally, type AuditReport } from './report.js';
import { auditRows, type AuditRow, type AuditRowSource, type CrawlFacts } from './rows.js';

/** The part of an audit under way. */
export type AuditPhase = 'discovery' | 'checks' | 'crawl' | 'report';

/** What the crawl part of an audit keeps (whether it was done) and reads (the listed URLs). */
export interface AuditState {
  /** A value kept by key, or undefined. */
  getMeta(key: string): string | undefined;
  /** Keeps a value by key. */
  setMeta(key: string, value: string): void;
  /** Every listed URL. */
  listedUrls(): Iterable<string>;
}

/** What the crawl part of an audit needs: the listed URLs, the HTTP client, its limits, and whom to tell. */
export interface AuditOptions {
  state: AuditState;
  http: HttpClient;
  /** The audit's clock (epoch ms). */
  now: number;
  /** Decoded bytes read of a page at most. */
  maxPageBytes: number;
  /** Requests at once across hosts, and the politeness of every host. */
  concurrency?: number | undefined;
  perHost?: Partial<HostPoliteness> | undefined;
  /** Crawl the site too (orphans, pages not listed), keeping the crawl's state in the SQLite `file`. */
  crawl?: { file: string; maxPages?: number | undefined } | undefined;
  signal?: AbortSignal | undefined;
  /** Told as the crawl advances. */
  onCrawlProgress?: ((progress: CrawlProgress) => void) | undefined;
}

const CRAWL_KEY = 'crawl';

/** The crawl part of an audit: the site crawled from its home page, and what it found, for the report. */
export function crawlForAudit(
  discovery: Discovery,
  options: AuditOptions & { crawl: NonNullable<AuditOptions['crawl']> },
): Promise<{ facts: CrawlFacts; summary: NonNullable<AuditReport['crawl']> }> {
  return crawlSiteOf(discovery, options, options.crawl);
}

/**
 * The report of an audit whose checks `source` reads: one pass over its rows, each handed to
 * `onRow` on the way.
 */
export async function reportAudit(
  source: AuditRowSource,
  parts: Omit<Parameters<typeof auditReport>[0], 'tally'>,
  crawl?: CrawlFacts,
  onRow?: (row: AuditRow) => Promise<void> | void,
): Promise<AuditReport> {
  const tally = new RowTally();
  for await (const row of auditRows(source, crawl)) {
    tally.add(row);
    await onRow?.(row);
  }
  return auditReport({ ...parts, tally });
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

/**
 * Crawls the audited site from its home page, as a crawl run in the crawl state file (resumed
 * with the audit), the crawl `crawl` makes. The URLs it met are held in memory for the rows.
 */
async function crawlSiteOf(
  discovery: Discovery,
  options: AuditOptions,
  crawl: NonNullable<AuditOptions['crawl']>,
): Promise<{ facts: CrawlFacts; summary: NonNullable<AuditReport['crawl']> }> {
  const queue = crawl.file;
  let site = options.state.getMeta(CRAWL_KEY);
  let finished = true;
  if (site === undefined) {
    const result = await crawlSiteInto({
      startUrl: discovery.site,
      queue,
      http: options.http,
      maxPageBytes: options.maxPageBytes,
      maxPages: crawl.maxPages,
      concurrency: options.perHost?.concurrency,
      delayMs: options.perHost?.delayMs,
      signal: options.signal,
      onProgress: options.onCrawlProgress,
    });
    site = result.site;
    finished = result.finished;
    if (finished) options.state.setMeta(CRAWL_KEY, site);
  }
  const { pages, fetched } = await readCrawlRun(queue, async (record, store) => {
    const met: { url: string; outcome: string | null }[] = [];
    for await (const { url, outcome } of record.rows()) met.push({ url, outcome });
    return { pages: met, fetched: (await store.status(record.name))?.fetchedItems ?? 0 };
  });
  return {
    facts: {
      comparison: new CrawlComparison(pages, options.state.listedUrls(), site, finished),
      pages: () => pages,
    },
    summary: { site, fetched, finished },
  };
}
