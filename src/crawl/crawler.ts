/**
 * The crawl: breadth-first over the site from its seeds, every URL judged once, on the work pool
 * (src/pool/), which owns politeness: `concurrency` requests at a time, spaced by --delay or
 * robots.txt's Crawl-delay. The frontier and the outcomes live in the store, so memory stays flat
 * however large the site, and a killed crawl resumes where it stopped; the pool holds only a few
 * of its URLs at a time and asks for more as workers free up (./frontier.ts).
 *
 * A page that fails in a way that may pass (no answer, 429, 5xx) does not hold a worker through
 * backoff: it is set aside, and once no other URL is queued it is fetched once more, with the
 * fetcher's retries, whose waits the pool holds instead of a worker (RetryLater: the URL is
 * queued again with a not-before time, so the waits overlap the rest of the work). A recovered
 * page may queue new pages, crawled in turn. A few pages that fail even then get a last pass, one
 * at a time, as the tree's sitemaps do: a round-robin balancer with one broken backend fails every
 * other request, which tries interleaved with other pages' keep meeting. Judging lives in
 * ./judge.ts.
 */
import { RetryState } from '../http/client.js';
import { WorkPool, type TaskContext } from '../pool/index.js';
import type { CrawlStore, FinishedUrl, FoundUrl, QueuedUrl } from '../store/crawl-store.js';
import { Frontier } from './frontier.js';
import { folderUrl, normaliseCrawlUrl } from './normalise.js';
import { createScope, type Scope } from './scope.js';
import { paramFilter } from './tracking-params.js';
import { PageRules } from './page-rules.js';
import { DEFAULT_TRAP_LIMITS, QueryVariants, type TrapLimits } from './traps.js';
import { visitPage, type PageVisitor, type Refusal } from './visit.js';
import {
  isPermanentFailure,
  isTimeoutFailure,
  RETRIED_REASONS,
  UNREAD_REASONS,
  type FetchedPage,
  type LeftOutReason,
  type Outcome,
  type PageFetcher,
  type RobotsPolicy,
} from './types.js';

/**
 * What to crawl and how: the start URL, the fetcher, robots.txt, the store, scope, limits and
 * politeness.
 */
export interface CrawlOptions {
  /**
   * Where the crawl starts. Its scheme, host and port are the site the crawl keeps to; when the
   * start URL redirects to another origin (http → https, example.com → www.example.com), the
   * origin it lands on is the site.
   */
  startUrl: string;
  fetcher: PageFetcher;
  robots: RobotsPolicy;
  store: CrawlStore;
  /** More URLs to start from, given the site's origin: such as those of its existing sitemaps. */
  seeds?: ((site: string) => AsyncIterable<string> | Iterable<string>) | undefined;
  /** Most pages to request (default: no limit). */
  maxPages?: number | undefined;
  /** Most link hops from a seed (default: no limit). */
  maxDepth?: number | undefined;
  /** Where spider traps are cut off (see traps.ts; default DEFAULT_TRAP_LIMITS). */
  trapLimits?: { [Limit in keyof TrapLimits]?: number | undefined } | undefined;
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
  /** Query parameter name globs to remove from every URL besides TRACKING_PARAMS (`session*`). */
  stripParams?: readonly string[] | undefined;
  /** Query parameter name globs to keep although TRACKING_PARAMS or stripParams name them. */
  keepParams?: readonly string[] | undefined;
  /**
   * Requests in flight at once (the crawl stays on one host). Default 4. URLs waiting for a
   * retry's backoff are not in flight: the pool holds them, however many.
   */
  concurrency?: number | undefined;
  /** Least time between two requests, in ms; robots.txt's Crawl-delay raises it. */
  delayMs?: number | undefined;
  /** Called as the crawl advances (often: throttle any drawing). */
  onProgress?: ((progress: CrawlProgress) => void) | undefined;
  /** Stops the crawl early; pages in flight are finished first. */
  signal?: AbortSignal | undefined;
}

/** Counts of a running crawl, for a progress line. */
export interface CrawlProgress {
  fetched: number;
  /** Of `fetched`, those an earlier run of a resumed crawl had fetched: not work of this run. */
  fetchedEarlier: number;
  queued: number;
  listed: number;
  /** Pages that could not be read (server error, no answer, cut off): what the summary counts as unread; a 4xx is read. */
  errors: number;
  inFlight: number;
}

/** How a crawl ended: the site crawled (after redirects), and whether it finished or was stopped. */
export interface CrawlResult {
  startUrl: string;
  /** The origin crawled: the start URL's, or the one its redirect landed on. */
  site: string;
  /** The outcome of the start URL, or of the page its redirects land on. */
  startOutcome: Outcome | undefined;
  /** Why the start page was left out, when it was. */
  startDetail?: string;
  /** True when the frontier was exhausted (false when stopped by the signal). */
  finished: boolean;
}

/** Requests in flight at once when `concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * Pages that failed in a way that may pass at their try at the end too, and get a last one: at
 * most this many (more is a site that is down, not flaky), one at a time, two attempts back to
 * back, which a balancer failing every other request cannot both fail.
 */
export const LAST_PASS_PAGES = 10;

/** What the progress line counts as errors: the pages the summary says could not be read, no more. */
const ERROR_OUTCOMES = new Set<string>(UNREAD_REASONS);

/**
 * How a URL is visited: `first` fetches once and sets a failure that may pass aside for one more
 * try; `start` (the start URL, fetched alone) and `retry` (that one more try) use the fetcher's
 * own retries, their waits held by the pool; `last` is the last pass's try of a page that failed
 * at its retry too.
 */
type Visit = 'first' | 'start' | 'retry' | 'last';

/** One task of the crawl's work pool. */
interface CrawlTask {
  item: QueuedUrl;
  how: Visit;
  /** Attempts and waits of the fetcher's retries, across the pool's restarts of the task. */
  retries: RetryState;
  /** Sees the answer before it is judged. */
  onAnswer?: ((page: FetchedPage) => void) | undefined;
}

/**
 * Crawls a site from `options.startUrl` and judges every page it reaches; the pages to list are
 * then in `options.store` (`store.listedEntries()`). Resumable: a store that holds an interrupted
 * crawl continues it.
 */
export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const crawl = new Crawl(options);
  return crawl.run();
}

/** One run of a crawl: its limits, its counters, and its passes. */
class Crawl {
  private readonly store: CrawlStore;
  private readonly rules: PageRules;
  private readonly visitor: PageVisitor;
  private readonly normalise: (href: string) => string | undefined;
  private readonly startUrl: string;
  private readonly maxPages: number;
  private readonly maxDepth: number;
  private readonly queryVariants: QueryVariants;
  private readonly frontier: Frontier;
  private readonly pool: WorkPool<CrawlTask>;
  /** Tasks the pool holds at most beyond those running: enough to start one as soon as a worker frees up. */
  private readonly window: number;
  /** Whether the pool is fed from the frontier (not while the start URL settles the site). */
  private feeding = false;
  /** Queued URLs in the pool, queued or running: while there are any, they may queue more. */
  private frontierTasks = 0;
  private inFlight = 0;
  private progress: Omit<CrawlProgress, 'inFlight'>;
  /** Pages that failed at their retry in a way that may pass, for the last pass; undefined once too many did. */
  private lastPass: QueuedUrl[] | undefined = [];

  constructor(private readonly options: CrawlOptions) {
    this.store = options.store;
    const strip = paramFilter({ strip: options.stripParams, keep: options.keepParams });
    this.normalise = (href) =>
      normaliseCrawlUrl(href, undefined, strip, (stripped) => this.store.recordStripped(stripped));
    // A folder's index file is crawled as the folder's URL, as its links are (normalise.ts).
    const given = this.normalise(options.startUrl);
    const start = given === undefined ? undefined : folderUrl(given);
    if (start === undefined) throw new Error(`"${options.startUrl}" is not an http(s) URL to crawl`);
    this.startUrl = start;
    this.maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    const traps = trapLimits(options.trapLimits);
    this.rules = new PageRules(this.scopeOf(new URL(start).origin), this.normalise, traps, this.maxDepth);
    this.visitor = { rules: this.rules, fetcher: options.fetcher, robots: options.robots };
    this.queryVariants = new QueryVariants(traps.maxQueryVariants, this.store.queryVariantCounts());
    this.frontier = new Frontier(this.store);
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.window = concurrency;
    this.pool = new WorkPool<CrawlTask>({
      run: (task, context) => this.visit(task, context),
      // A visit settles every failure of its page itself: what it throws is a fault of the crawl.
      onSettled: (_task, settled) => {
        if (!settled.ok) throw settled.error;
      },
      refill: () => this.fill(),
      concurrency,
      perHost: { concurrency, delayMs: options.delayMs ?? 0 },
      signal: options.signal,
    });
    const counts = this.store.outcomeCounts();
    const fetched = this.store.fetchedCount();
    this.progress = {
      fetched,
      fetchedEarlier: fetched,
      queued: this.store.queuedCount(),
      listed: counts.get('listed') ?? 0,
      errors: [...ERROR_OUTCOMES].reduce((sum, outcome) => sum + (counts.get(outcome) ?? 0), 0),
    };
  }

  async run(): Promise<CrawlResult> {
    if (this.store.getMeta('start-url') === undefined) this.store.setMeta('start-url', this.startUrl);
    this.addQueued(this.store.enqueue([{ url: this.startUrl, depth: 0 }]));
    const startOrigin = new URL(this.startUrl).origin;
    await this.politeness(startOrigin);
    const site = await this.settleSite();
    if (site !== startOrigin) await this.politeness(site);
    await this.seed(site);
    await this.crawl();
    const finished = !this.options.signal?.aborted;
    if (finished) {
      this.store.settleRemaining(
        { outcome: 'max-pages', detail: `not fetched: --max-pages ${this.maxPages} reached` },
        { outcome: 'max-depth', detail: `found only deeper than --max-depth ${this.maxDepth}` },
      );
      this.store.setMeta('finished', 'true');
    }
    this.report();
    // A start URL that redirects stands or falls with the page it lands on.
    const landed = this.store.getMeta('landed') ?? this.startUrl;
    const start = this.store.outcomeOf(landed);
    const startOutcome = (start?.outcome ?? undefined) as Outcome | undefined;
    const startDetail = start?.detail ?? undefined;
    return {
      startUrl: this.startUrl,
      site,
      startOutcome,
      ...(startDetail === undefined ? {} : { startDetail }),
      finished,
    };
  }

  /**
   * The frontier, with one more try of every failure that may pass once nothing else is queued
   * (recovered pages may queue new URLs), until nothing is left. Each URL is retried once at most.
   */
  private async crawl(): Promise<void> {
    this.feeding = true;
    for (;;) {
      this.fill();
      const { running, queued, deferred } = this.pool.stats;
      if (running + queued + deferred === 0) {
        // The pages recovered in the last pass may queue more, crawled in turn.
        if (await this.runLastPass()) continue;
        return;
      }
      await this.pool.idle();
      if (this.options.signal?.aborted) return;
      // Nothing is in flight: URLs set aside behind the last sweep are met on this one.
      this.frontier.sweepSetAsideAgain();
    }
  }

  /** Each page that failed at its retry too, one at a time, alone; false when there was none. */
  private async runLastPass(): Promise<boolean> {
    const last = this.lastPass ?? [];
    if (last.length === 0 || this.options.signal?.aborted) return false;
    this.lastPass = [];
    this.feeding = false;
    for (const item of last) {
      if (this.options.signal?.aborted) break;
      this.pool.enqueue({ item, how: 'last', retries: new RetryState() }, hostOf(item.url));
      await this.pool.idle();
    }
    this.feeding = true;
    return true;
  }

  /** Queues tasks until the pool holds `window` waiting to start, or there are none left. */
  private fill(): void {
    if (!this.feeding) return;
    while (this.pool.stats.queued < this.window && !this.options.signal?.aborted) {
      const task = this.nextTask();
      if (task === undefined) return;
      this.pool.enqueue(task, hostOf(task.item.url));
    }
  }

  /** A queued URL; when none is, nor may be queued by a visit under way, one set aside for one more try. */
  private nextTask(): CrawlTask | undefined {
    // At the page limit the rest of the frontier is settled in one go at the end.
    const queued = this.progress.fetched >= this.maxPages ? undefined : this.frontier.takeQueued();
    if (queued !== undefined) {
      this.frontierTasks += 1;
      return { item: queued, how: 'first', retries: new RetryState() };
    }
    if (this.frontierTasks > 0) return undefined;
    const setAside = this.frontier.takeSetAside();
    return setAside && { item: setAside, how: 'retry', retries: new RetryState() };
  }

  /** Spacing of requests to `site`: --delay or robots.txt's Crawl-delay, whichever is longer. */
  private async politeness(site: string): Promise<void> {
    const crawlDelay = await this.options.robots.crawlDelay(site);
    this.pool.configureHost(hostOf(site), { delayMs: Math.max(this.options.delayMs ?? 0, (crawlDelay ?? 0) * 1000) });
  }

  /**
   * Fetches the start URL alone, first, to learn the site: the origin its redirects land on, if
   * any. Remembered in the store, so a resumed crawl keeps to the same site.
   */
  private async settleSite(): Promise<string> {
    const remembered = this.store.getMeta('site');
    let site = remembered ?? new URL(this.startUrl).origin;
    this.useSite(site);
    if (remembered !== undefined) return site;
    const start = this.store.queuedUrl(this.startUrl);
    if (start !== undefined) {
      const onAnswer = (page: FetchedPage) => {
        const landed = this.normalise(page.url);
        if (landed === undefined) return;
        this.store.setMeta('landed', landed);
        site = new URL(landed).origin;
        this.useSite(site);
      };
      this.pool.enqueue({ item: start, how: 'start', retries: new RetryState(), onAnswer }, hostOf(start.url));
      await this.pool.idle();
    }
    this.store.setMeta('site', site);
    return site;
  }

  private useSite(site: string): void {
    this.rules.scope = this.scopeOf(site);
  }

  private scopeOf(site: string): Scope {
    return createScope(site, { include: this.options.include, exclude: this.options.exclude });
  }

  /** Queues the extra seeds once per crawl (a resumed crawl that had seeded skips this). */
  private async seed(site: string): Promise<void> {
    if (this.options.seeds === undefined || this.store.getMeta('seeded') === 'true') return;
    let batch: FoundUrl[] = [];
    for await (const href of this.options.seeds(site)) {
      const url = this.normalise(href);
      if (url !== undefined) batch.push(this.rules.place(folderUrl(url), 0));
      if (batch.length >= 1000) {
        this.addQueued(this.store.enqueue(batch));
        batch = [];
      }
    }
    this.addQueued(this.store.enqueue(batch));
    this.store.setMeta('seeded', 'true');
  }

  /** One task of the pool: judges one URL. */
  private async visit(task: CrawlTask, context: TaskContext): Promise<void> {
    this.inFlight += 1;
    try {
      await this.visitNow(task, context);
    } finally {
      this.inFlight -= 1;
      // A first visit never waits for a retry: it is done.
      if (task.how === 'first') this.frontierTasks -= 1;
    }
  }

  /** Fetches and judges the URL (./visit.ts); throws RetryLater when the fetcher must wait before its next attempt. */
  private async visitNow({ item, how, retries, onAnswer }: CrawlTask, context: TaskContext): Promise<void> {
    const { url } = item;
    const firstRun = context.run === 1;
    // A retried URL was counted as fetched, and as an error, on its first visit.
    const again = how === 'retry' || how === 'last';
    if (firstRun && again) this.progress.errors -= 1;
    else if (firstRun) this.progress.queued -= 1;
    const retryLater = how === 'first';
    const visit = await visitPage(this.visitor, item, {
      fetch: retryLater
        ? { retries: 0 }
        : how === 'last'
          ? { retries: 1, triedBefore: true }
          : { deferRetries: retries, triedBefore: how === 'retry' },
      retryLater,
      refuse: firstRun && !again ? () => this.refuseFetch(url) : undefined,
      onAnswer,
      landing: this.landing,
    });
    if (visit.kind === 'not-fetched') {
      context.madeNoRequest();
      this.finish(visit.finished);
    } else if (visit.kind === 'failed') {
      // No answer, or a body that broke off (timeout, reset, bad Content-Encoding); tried again at
      // the end unless no try can mend it (a name that does not resolve, headers too large).
      const mayPass = !isPermanentFailure(visit.error);
      this.finish({
        url,
        outcome: 'fetch-error',
        detail: visit.error.message,
        fetched: true,
        retry: retryLater && mayPass,
      });
      // A timeout had its retry: only other failures get a last pass.
      if (how === 'retry' && mayPass && !isTimeoutFailure(visit.error)) this.toLastPass(item);
    } else {
      this.finish(visit.finished, visit.found);
      if (how === 'retry' && RETRIED_REASONS.includes(visit.finished.outcome as LeftOutReason)) this.toLastPass(item);
    }
  }

  /**
   * A followed redirect's target is judged from the answer in hand while the page limit allows,
   * unless the crawl met it before; it counts as a page fetched.
   */
  private readonly landing = {
    wanted: () => this.progress.fetched < this.maxPages,
    claim: (target: string) => {
      if (this.store.outcomeOf(target) !== undefined) return false;
      this.progress.fetched += 1;
      return true;
    },
  };

  /** Sets aside a page that failed at its retry too, for the last pass, while they are few. */
  private toLastPass(item: QueuedUrl): void {
    this.lastPass?.push(item);
    if ((this.lastPass?.length ?? 0) > LAST_PASS_PAGES) this.lastPass = undefined;
  }

  /**
   * Why a queued URL is not to be fetched at all: the page limit, or a trap's query space. One
   * that is to be fetched counts as fetched from here.
   */
  private refuseFetch(url: string): Refusal | undefined {
    if (this.progress.fetched >= this.maxPages)
      return { outcome: 'max-pages', detail: `not fetched: --max-pages ${this.maxPages} reached` };
    const trap = this.queryVariants.admit(url);
    if (trap !== undefined) return { outcome: 'trap', detail: trap };
    this.progress.fetched += 1;
    return undefined;
  }

  private finish(finished: FinishedUrl, found: FoundUrl[] = []): void {
    this.addQueued(this.store.finish(finished, found));
    for (const settled of [finished, ...found]) {
      if (settled.outcome === 'listed') this.progress.listed += 1;
      if (settled.outcome !== undefined && ERROR_OUTCOMES.has(settled.outcome)) this.progress.errors += 1;
    }
    this.report();
  }

  private addQueued(count: number): void {
    this.progress.queued += count;
  }

  private report(): void {
    this.options.onProgress?.({ ...this.progress, inFlight: this.inFlight });
  }
}

function hostOf(url: string): string {
  return new URL(url).host;
}

/** The trap limits given, each one undefined keeping its default. */
export function trapLimits(limits: CrawlOptions['trapLimits'] = {}): TrapLimits {
  const given = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_TRAP_LIMITS, ...given };
}
