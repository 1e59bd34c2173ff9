/**
 * The crawl part of an audit (`audit --crawl`): the site crawled from its home page as a crawl run
 * in its own state file (kept for --resume, see cli/audit.ts), then compared with what the
 * sitemaps list (audit/cross-checks.ts) for the orphan and not-listed rows. It lives here, not in
 * audit/, because it is a crawl run: audit/ stays below run/.
 */
import { CrawlComparison } from '../audit/cross-checks.js';
import type { Discovery } from '../audit/discovery.js';
import type { AuditReport } from '../audit/report.js';
import type { CrawlFacts } from '../audit/rows.js';
import type { CrawlProgress } from '../crawl/types.js';
import type { HttpClient } from '../http/client.js';
import type { HostPoliteness } from '../pool/index.js';
import { crawlSiteInto, readCrawlRun } from './crawl-site.js';

/** What the crawl part of an audit needs: the listed URLs, the HTTP client, its limits, and whom to tell. */
export interface AuditCrawlOptions {
  /** The state file of the crawl: a crawl there already is resumed. */
  file: string;
  /** Every URL the sitemaps list, read once into the comparison as fingerprints (never held whole). */
  listedUrls: () => Iterable<string> | AsyncIterable<string>;
  http: HttpClient;
  /** Decoded bytes read of a page at most. */
  maxPageBytes: number;
  maxPages?: number | undefined;
  /** The politeness of every host. */
  perHost?: Partial<HostPoliteness> | undefined;
  signal?: AbortSignal | undefined;
  /** Told as the crawl advances. */
  onProgress?: ((progress: CrawlProgress) => void) | undefined;
}

/**
 * Crawls the audited site from its home page, as `crawl` does, and says what the crawl found for
 * the report. The URLs it met are held in memory for the rows; the listed ones as fingerprints.
 */
export async function crawlForAudit(
  discovery: Discovery,
  options: AuditCrawlOptions,
): Promise<{ facts: CrawlFacts; summary: NonNullable<AuditReport['crawl']> }> {
  const { site, finished } = await crawlSiteInto({
    startUrl: discovery.site,
    queue: options.file,
    http: options.http,
    maxPageBytes: options.maxPageBytes,
    maxPages: options.maxPages,
    concurrency: options.perHost?.concurrency,
    delayMs: options.perHost?.delayMs,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const { pages, fetched } = await readCrawlRun(options.file, async (record, store) => {
    const met: { url: string; outcome: string | null }[] = [];
    for await (const { url, outcome } of record.rows()) met.push({ url, outcome });
    return { pages: met, fetched: (await store.status(record.name))?.fetchedItems ?? 0 };
  });
  const comparison = new CrawlComparison(pages, [], site, finished);
  for await (const url of options.listedUrls()) comparison.addListed(url);
  return {
    facts: { comparison, pages: () => pages },
    summary: { site, fetched, finished },
  };
}
