/** What a crawl found, read back from its store: the data of the crawl report. */
import type { CrawlStore } from '../store/crawl-store.js';
import { LEFT_OUT_REASONS, type LeftOutReason } from './types.js';

export interface LeftOutSummary {
  reason: LeftOutReason;
  count: number;
  /** The first few URLs left out for this reason, in the order the crawl met them. */
  examples: { url: string; detail: string }[];
}

export interface CrawlSummary {
  startUrl: string;
  /** False when the crawl stopped before its frontier was exhausted. */
  finished: boolean;
  /** URLs requested (whatever the answer). */
  fetched: number;
  listed: number;
  /** Reasons that occurred, in the fixed order of LEFT_OUT_REASONS. */
  leftOut: LeftOutSummary[];
  /** Listed pages that robots.txt keeps search engines out of (URL-010), when there are any. */
  blockedForEngines?: { count: number; examples: { url: string; detail: string }[] };
}

export function summariseCrawl(
  store: CrawlStore,
  { startUrl, finished, examples = 5 }: { startUrl: string; finished: boolean; examples?: number },
): CrawlSummary {
  const counts = store.outcomeCounts();
  const leftOut = LEFT_OUT_REASONS.filter((reason) => (counts.get(reason) ?? 0) > 0).map((reason) => ({
    reason,
    count: counts.get(reason)!,
    examples: store.examples(reason, examples).map(({ url, detail }) => ({ url, detail: detail ?? '' })),
  }));
  const summary: CrawlSummary = {
    startUrl,
    finished,
    fetched: store.fetchedCount(),
    listed: counts.get('listed') ?? 0,
    leftOut,
  };
  const blocked = store.notes('listed', examples);
  if (blocked.count > 0) summary.blockedForEngines = blocked;
  return summary;
}
