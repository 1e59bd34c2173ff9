/** What a crawl found, read back from its store: the data of the crawl report. */
import { FingerprintSet } from '../core/fingerprint-set.js';
import { LEFT_OUT_REASONS, UNREAD_REASONS, type CrawlResult, type LeftOutReason, type Outcome } from './types.js';

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

/** A URL a crawl met, with what became of it (outcome null while queued). */
export interface CrawlRow {
  url: string;
  outcome: string | null;
  detail: string | null;
  /** True when it was requested. */
  fetched: boolean;
}

/** A query parameter normalisation removed from a URL met. */
export interface StrippedRow {
  from: string;
  to: string;
  name: string;
}

/** What a summary reads of a crawl: its URLs in the order met, and the parameters it stripped. */
export interface CrawlRecord {
  rows(): Iterable<CrawlRow> | AsyncIterable<CrawlRow>;
  stripped(): Iterable<StrippedRow> | AsyncIterable<StrippedRow>;
}

/**
 * Sums up the crawl held in `record` (a crawl store, or a run's queue), with `examples` URLs per
 * reason (-1: all), in one pass over its URLs: counts and examples by outcome, trap spaces, the
 * listed pages robots.txt keeps engines out of, and the parameters stripped.
 */
export async function summariseCrawl(
  record: CrawlRecord,
  result: Pick<CrawlResult, 'startUrl' | 'finished' | 'startOutcome' | 'startDetail'>,
  { examples = 5 }: { examples?: number } = {},
): Promise<CrawlSummary> {
  const tally = new OutcomeTally(examples < 0 ? Number.POSITIVE_INFINITY : examples);
  for await (const row of record.rows()) tally.add(row);
  const { counts } = tally;
  const leftOut = LEFT_OUT_REASONS.filter((reason) => (counts.get(reason) ?? 0) > 0).map((reason): LeftOutSummary => ({
    reason,
    count: counts.get(reason)!,
    examples: tally.examplesOf(reason),
    ...(reason === 'trap' ? { spaces: [...tally.trapSpaces.values()].slice(0, TRAP_SPACES) } : {}),
  }));
  const summary: CrawlSummary = {
    startUrl: result.startUrl,
    finished: result.finished,
    fetched: tally.fetched,
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
  const stripped = await summariseStripped(record.stripped(), tally.limit);
  if (stripped.urls > 0) summary.strippedParams = stripped;
  if (tally.blocked.count > 0) summary.blockedForEngines = tally.blocked;
  return summary;
}

/** Counts and first examples by outcome, in the order the URLs are given. */
class OutcomeTally {
  readonly counts = new Map<string, number>();
  fetched = 0;
  /** Trap spaces by detail, in the order first met. */
  readonly trapSpaces = new Map<string, { detail: string; count: number; example: string }>();
  /** Listed pages with a note (robots.txt keeps engines out). */
  readonly blocked: { count: number; examples: { url: string; detail: string }[] } = { count: 0, examples: [] };
  private readonly examples = new Map<string, { url: string; detail: string }[]>();

  constructor(readonly limit: number) {}

  add({ url, outcome, detail, fetched }: CrawlRow): void {
    if (fetched) this.fetched += 1;
    if (outcome === null) return;
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
    if (outcome === 'listed') {
      if (detail === null) return;
      this.blocked.count += 1;
      if (this.blocked.examples.length < this.limit) this.blocked.examples.push({ url, detail });
      return;
    }
    let examples = this.examples.get(outcome);
    if (examples === undefined) this.examples.set(outcome, (examples = []));
    if (examples.length < this.limit) examples.push({ url, detail: detail ?? '' });
    if (outcome === 'trap') {
      const key = detail ?? '';
      const space = this.trapSpaces.get(key);
      if (space !== undefined) space.count += 1;
      else if (this.trapSpaces.size < TRAP_SPACES) this.trapSpaces.set(key, { detail: key, count: 1, example: url });
    }
  }

  examplesOf(outcome: string): { url: string; detail: string }[] {
    return this.examples.get(outcome) ?? [];
  }
}

/** How many URLs lost parameters, and for each name (most frequent first) how many, with examples. */
async function summariseStripped(
  rows: Iterable<StrippedRow> | AsyncIterable<StrippedRow>,
  examples: number,
): Promise<StrippedParamsSummary> {
  const urls = new FingerprintSet();
  const names = new Map<string, { name: string; urls: number; examples: { from: string; to: string }[] }>();
  for await (const { from, to, name } of rows) {
    urls.add(from);
    let byName = names.get(name);
    if (byName === undefined) names.set(name, (byName = { name, urls: 0, examples: [] }));
    byName.urls += 1;
    if (byName.examples.length < examples) byName.examples.push({ from, to });
  }
  return {
    urls: urls.size,
    names: [...names.values()].sort((a, b) => b.urls - a.urls || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}
