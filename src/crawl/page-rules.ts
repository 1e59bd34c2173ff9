/**
 * How a fetched page is judged and where the URLs it leads to go: listed or left out (and why),
 * and each URL found queued, settled at once (out of scope, a trap) or set aside as too deep.
 * One place for every crawl: the crawl's step on a run (run/crawl-pages.ts), one worker or many.
 */
import { judgeAnswer, type Discovered, type ReadAnswer } from './judge.js';
import type { Scope } from './scope.js';
import { chainOf, pathTrap, urlPattern, type ChainPage, type TrapLimits } from './traps.js';
import type { FinishedUrl, FoundUrl } from './types.js';

/** A page being judged: its URL, its place in the crawl (`seq`: its key in the store), its depth and its chain. */
export interface JudgedPage {
  seq: number;
  url: string;
  depth: number;
  chain: number;
}

/** The page a URL was found on, as the trap rules and the report need it. */
interface FoundOn extends ChainPage {
  seq: number;
  /** Its shape, when it was read (a long chain's page): the next page of the chain is compared with it. */
  shape?: string | undefined;
}

/**
 * Shapes of chain pages kept for the pages found on them (by the found URL), at most this many:
 * a long chain needs one at a time. Past it the oldest go, and their pages count as not alike,
 * which crawls on (a calendar is still stopped by its dates).
 */
const SHAPES_KEPT = 10_000;

export class PageRules {
  constructor(
    /** The crawl's scope: changes when the start URL lands on another origin. */
    public scope: Scope,
    private readonly normalise: (href: string) => string | undefined,
    private readonly traps: TrapLimits,
    private readonly maxDepth: number,
    /** The present year: a chain dated far from it is a trap. */
    private readonly year: number = new Date().getUTCFullYear(),
  ) {}

  /** Shapes of the pages that found URLs queued deep in a chain, by the URL found. */
  private readonly shapes = new Map<string, string>();

  /**
   * Whether a linked URL was placed and sent on already, by the caller's count: it is not placed
   * again. Most links of a page repeat on every page (a menu), and placing one (scope, traps)
   * was a tenth of a crawl of real documentation.
   */
  placedBefore: (url: string) => boolean = () => false;

  /** Whether the page's shape is to be read with it (readAnswer's `shape`): on a long chain only. */
  wantsShape(item: Pick<JudgedPage, 'chain'>): boolean {
    return item.chain >= this.traps.maxChain - 1;
  }

  /**
   * The verdict on a page and where each URL it leads to goes.
   *
   * @param blockedFor search engines robots.txt keeps out of the URL: noted on a listed page
   */
  judge(
    item: JudgedPage,
    answer: ReadAnswer,
    { blockedFor = [] }: { blockedFor?: string[] | undefined } = {},
  ): { finished: FinishedUrl; found: FoundUrl[] } {
    const { url } = item;
    const { verdict, discovered } = judgeAnswer(url, answer, this.normalise);
    const before = this.shapes.get(url);
    this.shapes.delete(url);
    const alike = answer.shape !== undefined && answer.shape === before;
    const page: FoundOn = { seq: item.seq, pattern: urlPattern(url), chain: item.chain, alike, shape: answer.shape };
    const found = discovered
      .filter((d) => d.via !== 'link' || !this.placedBefore(d.url))
      .map((d) => this.place(d.url, depthOf(d, item.depth), page, d));
    const note = blockedFor.length > 0 ? { detail: `robots.txt blocks ${blockedFor.join(', ')}` } : {};
    const finished: FinishedUrl =
      verdict.outcome === 'listed'
        ? { url, outcome: 'listed', entry: verdict.entry, fetched: true, ...note }
        : { url, outcome: verdict.outcome, detail: verdict.detail, fetched: true };
    return { finished, found };
  }

  /**
   * The redirect the fetcher followed landed on `target`: the target judged from the answer in
   * hand, as a URL found on the redirecting page (it stands in for that page, at its depth).
   */
  judgeLanding(
    item: JudgedPage,
    target: string,
    answer: ReadAnswer,
    options: { blockedFor?: string[] | undefined },
  ): FoundUrl[] {
    const landed = this.judge(
      { ...item, url: target },
      { ...answer, page: { ...answer.page, url: target, redirects: [] } },
      options,
    );
    return [{ ...landed.finished, depth: item.depth, chain: item.chain, foundOn: item.seq }, ...landed.found];
  }

  /**
   * Where a found URL goes: the queue, straight to an outcome (out of scope, a trap), or aside if
   * too deep. `page` is the page it was found on (none for a seed).
   */
  place(url: string, depth: number, page?: FoundOn, found?: Discovered): FoundUrl {
    const at = page === undefined ? { depth } : { depth, foundOn: page.seq };
    const verdict = this.scope(url);
    if (!verdict.inScope) return { url, ...at, outcome: 'out-of-scope', detail: verdict.why };
    const badPath = pathTrap(url, this.traps.maxPathSegments);
    if (badPath !== undefined) return { url, ...at, outcome: 'trap', detail: badPath };
    // A redirect or canonical target stands in for the page itself: it continues its chain.
    const chain =
      page === undefined
        ? { chain: 0 }
        : found !== undefined && isSamePage(found)
          ? { chain: page.chain }
          : chainOf(url, page, this.traps.maxChain, this.year);
    if (chain.trap !== undefined) return { url, ...at, chain: chain.chain, outcome: 'trap', detail: chain.trap };
    if (page?.shape !== undefined && chain.chain >= this.traps.maxChain) this.keepShape(url, page.shape);
    return depth > this.maxDepth
      ? { url, ...at, chain: chain.chain, beyondDepth: true }
      : { url, ...at, chain: chain.chain };
  }

  private keepShape(url: string, shape: string): void {
    this.shapes.set(url, shape);
    if (this.shapes.size > SHAPES_KEPT) this.shapes.delete(this.shapes.keys().next().value!);
  }
}

/** Links lead one hop deeper; a redirect, canonical or index-file target stands in for the same page. */
function depthOf(found: Discovered, depth: number): number {
  return isSamePage(found) ? depth : depth + 1;
}

function isSamePage(found: Discovered): boolean {
  return found.via === 'redirect' || found.via === 'canonical' || found.via === 'index-file';
}
