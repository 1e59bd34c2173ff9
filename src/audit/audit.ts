/**
 * An audit of a live site against its sitemaps, in four parts, each resumable from the state:
 *
 *   1. discovery   the sitemap tree walked once, every document validated, every listed URL stored
 *   2. sample      with maxUrls, the same N URLs every time (the smallest fingerprints)
 *   3. checks      every sampled URL fetched politely and checked, each result committed at once
 *   4. crawl       optionally, the site crawled from its home page, to compare links with listings
 *
 * then one pass over the rows makes the report (and streams the rows to whoever writes them).
 */
import type { CrawlProgress } from '../crawl/types.js';
import type { HttpClient } from '../http/client.js';
import type { TreeProgress } from '../discover/tree.js';
import type { AuditState } from '../store/audit-store.js';
import type { CrawlStore } from '../store/crawl-store.js';
import type { HostPoliteness } from '../pool/index.js';
import { crawlSiteInto, readCrawlRun } from '../run/crawl-site.js';
import { checkListedUrls, type CheckProgress } from './checker.js';
import { CrawlComparison } from './cross-checks.js';
import { discoverListings, type Discovery } from './discovery.js';
import { auditReport, RowTally, type AuditReport } from './report.js';
import { auditRows, type AuditRow, type CrawlFacts } from './rows.js';

/** The part of an audit under way, as `onPhase` is told. */
export type AuditPhase = 'discovery' | 'checks' | 'crawl' | 'report';

/** What {@link runAudit} needs: its state, the HTTP client, its clock and limits, and whom to tell. */
export interface AuditOptions {
  /** Where the audit keeps its state (resumed when it holds an earlier run's). */
  state: AuditState;
  http: HttpClient;
  /** The audit's clock (epoch ms): lastmod-future and the validator's dates compare with it. */
  now: number;
  /** Check a deterministic sample of at most this many URLs. */
  maxUrls?: number | undefined;
  /** Index levels followed below a root (default 5). */
  maxDepth?: number | undefined;
  /** Decoded bytes read of a page at most. */
  maxPageBytes: number;
  /** Requests at once across hosts, and the politeness of every host. */
  concurrency?: number | undefined;
  perHost?: Partial<HostPoliteness> | undefined;
  /** Crawl the site too (orphans, pages not listed), keeping the crawl's state in `store`. */
  crawl?: { store: CrawlStore; maxPages?: number | undefined } | undefined;
  signal?: AbortSignal | undefined;
  /** Told as each part starts. */
  onPhase?: ((phase: AuditPhase) => void) | undefined;
  /** Told as the sitemap tree is read. */
  onDiscoveryProgress?: ((progress: TreeProgress) => void) | undefined;
  /** Told as URLs are checked. */
  onCheckProgress?: ((progress: CheckProgress) => void) | undefined;
  /** Told as the crawl advances (with `crawl`). */
  onCrawlProgress?: ((progress: CrawlProgress) => void) | undefined;
  /** Each row as the report pass reads it, in order (to write `--rows`); awaited. */
  onRow?: ((row: AuditRow) => Promise<void> | void) | undefined;
}

const DISCOVERY_KEY = 'discovery';
const SAMPLE_KEY = 'sample';
const CRAWL_KEY = 'crawl';

/**
 * Audits `input` (a site, or sitemap URLs): the four parts above, each resumed from `state` when an
 * earlier run did it, then the report, with every row handed to `onRow` on the way.
 */
export async function runAudit(input: string | readonly string[], options: AuditOptions): Promise<AuditReport> {
  const { state, signal } = options;
  options.onPhase?.('discovery');
  const discovery = await discover(input, options);
  const listed = state.listedCount();
  let complete = discovery.complete;
  const sample = complete ? chooseSample(state, options.maxUrls, listed) : undefined;
  if (complete) {
    options.onPhase?.('checks');
    complete = await checkListedUrls({
      state,
      http: options.http,
      context: { now: options.now, httpsHosts: new Set(discovery.httpsHosts) },
      maxPageBytes: options.maxPageBytes,
      concurrency: options.concurrency,
      perHost: options.perHost,
      signal,
      onProgress: options.onCheckProgress,
    });
  }
  let crawl: { facts: CrawlFacts; summary: NonNullable<AuditReport['crawl']> } | undefined;
  if (complete && options.crawl) {
    options.onPhase?.('crawl');
    crawl = await crawlSiteOf(discovery, options, options.crawl);
    complete = crawl.summary.finished;
  }
  options.onPhase?.('report');
  return reportAudit(
    state,
    {
      discovery,
      listed,
      complete,
      now: options.now,
      ...(sample ? { sample } : {}),
      ...(crawl ? { crawl: crawl.summary } : {}),
    },
    crawl?.facts,
    options.onRow,
  );
}

/**
 * The report of an audit whose checks are in `state`: one pass over its rows, each handed to
 * `onRow` on the way. The audit of one process ends with it, and so does an audit run on workers
 * (its checks gathered from the shared store).
 */
export async function reportAudit(
  state: AuditState,
  parts: Omit<Parameters<typeof auditReport>[0], 'tally'>,
  crawl?: CrawlFacts,
  onRow?: AuditOptions['onRow'],
): Promise<AuditReport> {
  const tally = new RowTally();
  for (const row of auditRows(state, crawl)) {
    tally.add(row);
    await onRow?.(row);
  }
  return auditReport({ ...parts, tally });
}

/** The discovery of an earlier run, or a new one (kept in the state once it is whole). */
async function discover(input: string | readonly string[], options: AuditOptions): Promise<Discovery> {
  const kept = options.state.getMeta(DISCOVERY_KEY);
  if (kept !== undefined) return JSON.parse(kept) as Discovery;
  const discovery = await discoverListings(input, {
    state: options.state,
    http: options.http,
    now: options.now,
    maxDepth: options.maxDepth,
    concurrency: options.concurrency,
    perHost: options.perHost,
    signal: options.signal,
    onProgress: options.onDiscoveryProgress,
  });
  if (discovery.complete) options.state.setMeta(DISCOVERY_KEY, JSON.stringify(discovery));
  return discovery;
}

/** Narrows the URLs to check to `maxUrls` of them, once per audit; says what was chosen. */
export function chooseSample(state: AuditState, maxUrls: number | undefined, listed: number): AuditReport['sample'] {
  const kept = state.getMeta(SAMPLE_KEY);
  if (kept === undefined) {
    if (maxUrls === undefined || listed <= maxUrls) return undefined;
    state.chooseSample(maxUrls);
    state.setMeta(SAMPLE_KEY, String(maxUrls));
  }
  const size = state.sampledCount();
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
  const queue = crawl.store.file;
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
