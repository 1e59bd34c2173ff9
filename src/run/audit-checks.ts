/**
 * An audit as work of a run: each item is a listed URL, leased with the other listed URLs of its
 * host, its listing (sitemap, line, lastmod, alternates, repeats) the item's input. A worker asks
 * for it at its host's pace (robots.txt Crawl-delay, --delay, --concurrency across all workers)
 * and checks it with the audit's own check (audit/check.ts); the check, encoded as the audit's
 * state keeps it, is the item's result. The process that creates the run walks the sitemaps once
 * (audit/discovery.ts) and sets down every listed URL: those to check, and the others (outside
 * --max-urls's sample), settled at once, so that whether a redirect's target is listed is one
 * look-up in the store.
 *
 * The outputs come from a state of one process rebuilt from the store (restoreAuditRun), so that
 * the rows, the report and its findings across URLs (hreflang return links) are those of the
 * audit of one process.
 */
import type { Listing } from '../audit/check.js';
import { checkListedUrl, crashedCheck, encodeCheck, listingOf } from '../audit/checker.js';
import type { Discovery } from '../audit/discovery.js';
import type { AuditReport } from '../audit/report.js';
import { NotFoundProbes } from '../audit/soft-404.js';
import { looksAbsoluteHttp } from '../core/url.js';
import type { HttpClient } from '../http/client.js';
import { RobotsTxtCache } from '../discover/robots.js';
import type { AuditState, NewListing, StoredCheck } from '../store/audit-store.js';
import type { LeasedItem, NewItem, RunRecord, WorkQueue } from '../store/run-store.js';
import type { Job } from './job.js';
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
}

/** An item's input: how the sitemaps list its URL. */
export type ListingInput = Omit<Listing, 'url'>;

/** Outcomes of an audit item: checked (with findings or without), or listed outside the sample. */
export const NOT_SAMPLED = 'not-sampled';

/**
 * The items of an audit whose discovery (and sample) is in `state`: every sampled listing to
 * check, in the order listed, then every other listed URL, settled as not sampled.
 */
export function listingItems(state: AuditState): NewItem[] {
  const items: NewItem[] = [];
  const sampled = new Set<string>();
  for (const stored of state.rows()) {
    const { url, ...input } = listingOf(stored, state);
    sampled.add(url);
    items.push({ url, host: hostOf(url), input });
  }
  if (sampled.size < state.listedCount())
    for (const url of state.listedUrls())
      if (!sampled.has(url))
        items.push({ url, host: hostOf(url), outcome: NOT_SAMPLED, detail: 'outside the sample (--max-urls)' });
  return items;
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
      return { outcome: checked.findings.length > 0 ? 'flagged' : 'clean', fetched, result };
    },
  };
}

/** Listings written to the rebuilt state per transaction. */
const BATCH = 5_000;

/**
 * Rebuilds the state of one process from the run's items, into `into` (a fresh state): each
 * checked listing, in the order listed, with its repeats and its check.
 */
export async function restoreAuditRun(store: WorkQueue, run: RunRecord, into: AuditState): Promise<void> {
  let listings: NewListing[] = [];
  let checks: { seq: number; check: StoredCheck }[] = [];
  // A fresh state numbers its listings 1, 2, 3… in the order added.
  let seq = 0;
  const flush = () => {
    into.addListings(listings);
    into.saveChecks(checks);
    listings = [];
    checks = [];
  };
  for await (const item of store.items(run.id)) {
    if (item.input === undefined) continue;
    const input = item.input as ListingInput;
    seq += 1;
    listings.push({
      url: item.url,
      sitemap: input.sitemap,
      line: input.line,
      lastmod: input.lastmod,
      ...(input.alternates === undefined ? {} : { alternates: JSON.stringify(input.alternates) }),
      sampleKey: seq,
    });
    for (const repeat of input.repeats ?? [])
      into.addRepeat(item.url, { sitemap: repeat.sitemap, line: repeat.line ?? null, detail: repeat.detail });
    if (item.result !== undefined) checks.push({ seq, check: item.result as StoredCheck });
    if (listings.length >= BATCH) flush();
  }
  flush();
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
