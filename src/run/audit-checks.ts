/**
 * An audit as work of a run: each item is a listed URL, leased with the other listed URLs of its
 * host, its listing (sitemap, line, lastmod, alternates, repeats) the item's input. A worker asks
 * for it at its host's pace (robots.txt Crawl-delay, --delay, --concurrency across all workers)
 * and checks it with the audit's own check (audit/checker.ts); the check, encoded, is the item's
 * result. The process that creates the run walks the sitemaps once (audit/discovery.ts) and sets
 * down every listed URL: those to check, and the others (outside --max-urls's sample), settled at
 * once, so that whether a redirect's target is listed is one look-up in the queue. An audit of
 * one process is such a run, with one worker, on a queue of its own.
 *
 * The outputs are read from the queue (./audit-outputs.ts).
 */
import { chooseSample } from '../audit/audit.js';
import type { Listing } from '../audit/check.js';
import { checkListedUrl, crashedCheck, encodeCheck } from '../audit/checker.js';
import { discoverListings, type Discovery } from '../audit/discovery.js';
import { ListingBook, type StoredCheck } from '../audit/listings.js';
import type { AuditReport } from '../audit/report.js';
import { NotFoundProbes } from '../audit/soft-404.js';
import { looksAbsoluteHttp } from '../core/url.js';
import type { TreeProgress } from '../discover/tree.js';
import type { HttpClient } from '../http/client.js';
import { DEFAULT_HOST_POLITENESS, type HostPoliteness } from '../pool/index.js';
import { RobotsTxtCache } from '../discover/robots.js';
import type { LeasedItem, NewItem, WorkQueue } from '../store/run-store.js';
import type { Job } from './job.js';
import type { RunPlan } from './session.js';
import type { ItemVisit, WorkKind } from './worker.js';

/** What every worker of an audit run follows, and what its report needs: set down by its creator. */
export interface AuditRunOptions {
  /** The audit's clock (epoch ms). */
  now: number;
  maxPageBytes: number;
  /** Least time between two requests to a host, in ms; robots.txt's Crawl-delay raises it. */
  delayMs: number;
  /** Requests in flight to one host, from all workers together. */
  concurrency: number;
  /** The sitemaps as read once by the creator. */
  discovery: Discovery;
  /** URLs listed, and the sample checked when --max-urls narrowed it. */
  listed: number;
  sample?: AuditReport['sample'];
  /** False when no sitemap names hreflang alternates: the report looks up no return link. */
  alternates?: boolean;
}

/** An item's input: how the sitemaps list its URL. */
export type ListingInput = Omit<Listing, 'url'>;

/** Outcomes of an audit item: checked (with findings or without), or listed outside the sample. */
export const NOT_SAMPLED = 'not-sampled';
export const FLAGGED = 'flagged';

/** How the creator of an audit run reads the sitemaps, and what every worker is to follow. */
export interface AuditPlanOptions {
  http: HttpClient;
  /** The audit's clock (epoch ms). */
  now: number;
  /** Check a deterministic sample of at most this many URLs. */
  maxUrls?: number | undefined;
  /** Index levels followed below a root (default 5). */
  maxDepth?: number | undefined;
  /** Decoded bytes read of a page at most. */
  maxPageBytes: number;
  /** Requests at once across hosts while the sitemaps are read, and the politeness of every host. */
  concurrency?: number | undefined;
  perHost?: Partial<HostPoliteness> | undefined;
  signal?: AbortSignal | undefined;
  /** Told as the sitemaps are read. */
  onProgress?: ((progress: TreeProgress) => void) | undefined;
}

/**
 * The creator's part: the sitemaps read once, the sample chosen, and the run planned, every
 * sampled listing an item to check, in the order listed, then every other listed URL, settled.
 */
export async function planAuditRun(
  input: string | readonly string[],
  options: AuditPlanOptions,
): Promise<RunPlan<AuditRunOptions> & { toCheck: number }> {
  const book = new ListingBook();
  let discovery: Discovery;
  let sample: AuditReport['sample'];
  try {
    discovery = await discoverListings(input, { ...options, state: book });
    if (!discovery.complete) throw new Error('stopped while reading the sitemaps: nothing was set down; start again');
    sample = chooseSample(book, options.maxUrls);
  } catch (error) {
    book.close();
    throw error;
  }
  const perHost = { ...DEFAULT_HOST_POLITENESS, ...options.perHost };
  const runOptions: AuditRunOptions = {
    now: options.now,
    maxPageBytes: options.maxPageBytes,
    delayMs: perHost.delayMs,
    concurrency: perHost.concurrency,
    discovery,
    listed: book.listedCount,
    ...(sample === undefined ? {} : { sample }),
    alternates: book.hasAlternates,
  };
  return {
    kind: auditJob.kind,
    options: runOptions,
    seeds: { [Symbol.iterator]: () => listingItems(book) },
    release: () => book.close(),
    pace: { concurrency: perHost.concurrency },
    state: 'running',
    toCheck: book.sampledCount,
  };
}

/** The run's items, read from the book as they are added: the sampled listings, then the others, settled. */
function* listingItems(book: ListingBook): Generator<NewItem> {
  for (const { url, ...input } of book.sample()) yield { url, host: hostOf(url), input };
  for (const url of book.unsampled())
    yield { url, host: hostOf(url), outcome: NOT_SAMPLED, detail: 'outside the sample (--max-urls)' };
}

/** The audit as a job: checks a leased listed URL as the audit of one process checks it. */
export const auditJob: Job<AuditRunOptions, StoredCheck> = {
  kind: 'audit',
  step: ({ options, id }, { store, http }) => auditChecks(options, http, store, id),
};

function auditChecks(
  options: AuditRunOptions,
  http: HttpClient,
  store: WorkQueue,
  runId: number,
): WorkKind<StoredCheck> {
  const robots = new RobotsTxtCache(http);
  // Each worker asks each host once what it answers for a URL that cannot exist (soft 404s).
  const probes = new NotFoundProbes(http, robots, options.maxPageBytes);
  const httpsHosts = new Set(options.discovery.httpsHosts);
  return {
    async hostDelay(host) {
      if (!looksAbsoluteHttp(host)) return options.delayMs;
      const crawlDelay = (await robots.get(host)).rules.crawlDelay(http.userAgent);
      return Math.max(options.delayMs, (crawlDelay ?? 0) * 1000);
    },
    async visit(item: LeasedItem, _lease, signal): Promise<ItemVisit<StoredCheck>> {
      const listing: Listing = { url: item.url, ...(item.input as ListingInput) };
      let fetched = false;
      let checked;
      try {
        ({ checked, fetched } = await checkListedUrl(listing, {
          http,
          robots,
          probes,
          maxPageBytes: options.maxPageBytes,
          signal,
          context: { now: options.now, httpsHosts },
          // Whether a redirect's target is listed: asked of the store, whose items are every listed URL.
          isListed: (url) => store.has(runId, url),
        }));
      } catch (error) {
        // Stopped: the URL is checked again, by whoever takes it.
        if (signal.aborted) return { fetched, againAfterMs: 0 };
        checked = crashedCheck(item.url, error);
      }
      const result: StoredCheck = encodeCheck(checked);
      return { outcome: checked.findings.length > 0 ? FLAGGED : 'clean', fetched, result };
    },
  };
}

/** The host an item is queued under: its origin (a URL that has none is queued apart, and fails its check). */
function hostOf(url: string): string {
  try {
    if (looksAbsoluteHttp(url)) return new URL(url).origin;
  } catch {
    // queued apart, below
  }
  return 'invalid:';
}
