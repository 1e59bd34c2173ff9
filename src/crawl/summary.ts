/** What a crawl found, read back from its store: the data of the crawl report. */
import type { CrawlStore } from '../store/crawl-store.js';
import type { CrawlResult } from './crawler.js';
import { LEFT_OUT_REASONS, UNREAD_REASONS, type LeftOutReason, type Outcome } from './types.js';

/** The URLs left out for one reason: how many, and the first ones as examples. */
export interface LeftOutSummary {
  reason: LeftOutReason;
  count: number;
  /** The first few URLs left out for this reason, in the order the crawl met them. */
  examples: { url: string; detail: string }[];
  /**
   * For traps: each URL space stopped (its detail names it), with how many URLs it held and the
   * first met, so one large trap does not hide the others among the examples.
   */
  spaces?: { detail: string; count: number; example: string }[];
}

export interface StrippedParamsSummary {
  /** URLs met that lost one or more parameters. */
  urls: number;
  /** By parameter name, most frequent first: how many URLs lost it, with the first few met. */
  names: { name: string; urls: number; examples: { from: string; to: string }[] }[];
}

/**
 * What a finished (or stopped) crawl found: counts, the start page's outcome, left-out URLs by
 * reason with examples, tracking parameters removed.
 */
export interface CrawlSummary {
  startUrl: string;
  /** False when the crawl stopped before its frontier was exhausted. */
  finished: boolean;
  /** What became of the start URL (or of the page its redirects land on), once it was fetched. */
  start?: { outcome: Outcome; detail?: string };
  /** URLs requested (whatever the answer). */
  fetched: number;
  listed: number;
  /** Reasons that occurred, in the fixed order of LEFT_OUT_REASONS. */
  leftOut: LeftOutSummary[];
  /** Pages the crawl could not read (UNREAD_REASONS): the sitemaps may lack them. */
  unread: number;
  /** Tracking parameters removed from the URLs met, when any were. */
  strippedParams?: StrippedParamsSummary;
  /** Listed pages that robots.txt keeps search engines out of (URL-010), when there are any. */
  blockedForEngines?: { count: number; examples: { url: string; detail: string }[] };
}

/** Trap spaces named in the summary: past this many, the --report file has them all. */
const TRAP_SPACES = 20;

/** Sums up the crawl held in `store`, with `examples` URLs per reason (-1: all). */
export function summariseCrawl(
  store: CrawlStore,
  result: Pick<CrawlResult, 'startUrl' | 'finished' | 'startOutcome' | 'startDetail'>,
  { examples = 5 }: { examples?: number } = {},
): CrawlSummary {
  const counts = store.outcomeCounts();
  const leftOut = LEFT_OUT_REASONS.filter((reason) => (counts.get(reason) ?? 0) > 0).map((reason): LeftOutSummary => ({
    reason,
    count: counts.get(reason)!,
    examples: store.examples(reason, examples).map(({ url, detail }) => ({ url, detail: detail ?? '' })),
    ...(reason === 'trap' ? { spaces: store.detailGroups(reason, TRAP_SPACES) } : {}),
  }));
  const summary: CrawlSummary = {
    startUrl: result.startUrl,
    finished: result.finished,
    fetched: store.fetchedCount(),
    listed: counts.get('listed') ?? 0,
    leftOut,
    unread: UNREAD_REASONS.reduce((sum, reason) => sum + (counts.get(reason) ?? 0), 0),
  };
  if (result.startOutcome !== undefined) {
    summary.start =
      result.startDetail === undefined || result.startOutcome === 'listed'
        ? { outcome: result.startOutcome }
        : { outcome: result.startOutcome, detail: result.startDetail };
  }
  const stripped = store.strippedParams(examples);
  if (stripped.urls > 0) summary.strippedParams = stripped;
  const blocked = store.notes('listed', examples);
  if (blocked.count > 0) summary.blockedForEngines = blocked;
  return summary;
}
