/**
 * The crawl: breadth-first over the site from its seeds, `concurrency` requests at a time, spaced
 * by the politeness gap, every URL judged once. The frontier and the outcomes live in the store,
 * so memory stays flat however large the site, and a killed crawl resumes where it stopped.
 */
import { HostLimiter } from '../discover/host-limiter.js';
import type { CrawlStore, FinishedUrl, FoundUrl, QueuedUrl } from '../store/crawl-store.js';
import { judgeAnswer, readAnswer, type Discovered, type ReadAnswer } from './judge.js';
import { normaliseCrawlUrl, paramFilter } from './normalise.js';
import { createScope, type Scope } from './scope.js';
import type { FetchedPage, Outcome, PageFetcher, RobotsPolicy, RobotsVerdict } from './types.js';

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
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
  /** Query parameter name globs to remove from every URL (`utm_*`). */
  stripParams?: readonly string[] | undefined;
  /** Requests in flight at once (the crawl stays on one host). Default 4. */
  concurrency?: number | undefined;
  /** Least time between two requests, in ms; robots.txt's Crawl-delay raises it. */
  delayMs?: number | undefined;
  onProgress?: ((progress: CrawlProgress) => void) | undefined;
  /** Stops the crawl early; pages in flight are finished first. */
  signal?: AbortSignal | undefined;
}

export interface CrawlProgress {
  fetched: number;
  queued: number;
  listed: number;
  errors: number;
  inFlight: number;
}

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

export const DEFAULT_CONCURRENCY = 4;

const ERROR_OUTCOMES = new Set<string>(['http-error', 'fetch-error']);

export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const crawl = new Crawl(options);
  return crawl.run();
}

/** One run of a crawl: its limits, its counters, and its workers. */
class Crawl {
  private readonly store: CrawlStore;
  private scope: Scope;
  private readonly normalise: (href: string) => string | undefined;
  private readonly startUrl: string;
  private readonly maxPages: number;
  private readonly maxDepth: number;
  private buffer: QueuedUrl[] = [];
  private cursor = 0;
  private inFlight = 0;
  private progress: CrawlProgress;
  private wakeUp: (() => void)[] = [];

  constructor(private readonly options: CrawlOptions) {
    this.store = options.store;
    const strip = paramFilter(options.stripParams ?? []);
    this.normalise = (href) => normaliseCrawlUrl(href, undefined, strip);
    const start = this.normalise(options.startUrl);
    if (start === undefined) throw new Error(`"${options.startUrl}" is not an http(s) URL to crawl`);
    this.startUrl = start;
    this.scope = this.scopeOf(new URL(start).origin);
    this.maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    const counts = this.store.outcomeCounts();
    this.progress = {
      fetched: this.store.fetchedCount(),
      queued: this.store.queuedCount(),
      listed: counts.get('listed') ?? 0,
      errors: [...ERROR_OUTCOMES].reduce((sum, outcome) => sum + (counts.get(outcome) ?? 0), 0),
      inFlight: 0,
    };
  }

  async run(): Promise<CrawlResult> {
    if (this.store.getMeta('start-url') === undefined) this.store.setMeta('start-url', this.startUrl);
    this.addQueued(this.store.enqueue([{ url: this.startUrl, depth: 0 }]));
    const concurrency = this.options.concurrency ?? DEFAULT_CONCURRENCY;
    const startOrigin = new URL(this.startUrl).origin;
    let politeness = await this.politeness(startOrigin, concurrency);
    const site = await this.settleSite(politeness);
    if (site !== startOrigin) politeness = await this.politeness(site, concurrency);
    await this.seed(site);
    const workers = Array.from({ length: concurrency }, () => this.work(politeness));
    await Promise.all(workers);
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

  /** Spacing of requests to `site`: --delay or robots.txt's Crawl-delay, whichever is longer. */
  private async politeness(site: string, concurrency: number): Promise<HostLimiter> {
    const crawlDelay = await this.options.robots.crawlDelay(site);
    return new HostLimiter(concurrency, Math.max(this.options.delayMs ?? 0, (crawlDelay ?? 0) * 1000));
  }

  /**
   * Fetches the start URL alone, first, to learn the site: the origin its redirects land on, if
   * any. Remembered in the store, so a resumed crawl keeps to the same site.
   */
  private async settleSite(politeness: HostLimiter): Promise<string> {
    const remembered = this.store.getMeta('site');
    let site = remembered ?? new URL(this.startUrl).origin;
    this.useSite(site);
    if (remembered !== undefined) return site;
    if (this.store.outcomeOf(this.startUrl)?.outcome === null) {
      await this.visit({ seq: 0, url: this.startUrl, depth: 0 }, politeness, (page) => {
        const landed = this.normalise(page.url);
        if (landed === undefined) return;
        this.store.setMeta('landed', landed);
        site = new URL(landed).origin;
        this.useSite(site);
      });
    }
    this.store.setMeta('site', site);
    return site;
  }

  private useSite(site: string): void {
    this.scope = this.scopeOf(site);
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
      if (url !== undefined) batch.push(this.place(url, 0));
      if (batch.length >= 1000) {
        this.addQueued(this.store.enqueue(batch));
        batch = [];
      }
    }
    this.addQueued(this.store.enqueue(batch));
    this.store.setMeta('seeded', 'true');
  }

  private async work(politeness: HostLimiter): Promise<void> {
    for (;;) {
      if (this.options.signal?.aborted) return;
      const next = this.takeNext();
      if (next !== undefined) {
        this.inFlight += 1;
        try {
          await this.visit(next, politeness);
        } finally {
          this.inFlight -= 1;
          this.wakeAll();
        }
        continue;
      }
      if (this.inFlight === 0) {
        this.wakeAll();
        return;
      }
      // Pages in flight may queue more: wait for one of them to finish.
      await new Promise<void>((resolve) => this.wakeUp.push(resolve));
    }
  }

  private takeNext(): QueuedUrl | undefined {
    // At the page limit the rest of the frontier is settled in one go at the end.
    if (this.progress.fetched >= this.maxPages) return undefined;
    if (this.buffer.length === 0) {
      this.buffer = this.store.nextQueued(this.cursor, 256);
      const last = this.buffer.at(-1);
      if (last !== undefined) this.cursor = last.seq;
    }
    return this.buffer.shift();
  }

  private wakeAll(): void {
    for (const resolve of this.wakeUp.splice(0)) resolve();
  }

  /** Judges one queued URL; `onAnswer` sees the answer before it is judged. */
  private async visit(item: QueuedUrl, politeness: HostLimiter, onAnswer?: (page: FetchedPage) => void): Promise<void> {
    const { url, depth } = item;
    this.progress.queued -= 1;
    const robots = await this.options.robots.check(url);
    if (!robots.allowed) {
      this.finish({ url, outcome: 'robots-blocked', detail: robots.why, fetched: false });
      return;
    }
    if (this.progress.fetched >= this.maxPages) {
      this.finish({
        url,
        outcome: 'max-pages',
        detail: `not fetched: --max-pages ${this.maxPages} reached`,
        fetched: false,
      });
      return;
    }
    this.progress.fetched += 1;
    const release = await politeness.acquire(new URL(url).host);
    let answer: ReadAnswer;
    try {
      const page = await this.options.fetcher.fetch(url);
      onAnswer?.(page);
      answer = await readAnswer(page);
    } catch (error) {
      // No answer, or a body that broke off (timeout, reset, a size cap, bad Content-Encoding).
      this.finish({ url, outcome: 'fetch-error', detail: (error as Error).message, fetched: true });
      return;
    } finally {
      release();
    }
    const judged = this.judge(url, answer, depth, robots.blockedFor);
    if (judged.finished.outcome === 'redirected') {
      // The fetcher followed the redirect: the answer is the target's own page, if it is new.
      const target = judged.found[0]!.url;
      const targetRobots = await this.robotsForRedirectTarget(target);
      if (targetRobots?.allowed) {
        // No await from this check to the store write: no other worker can meet the target between.
        if (this.store.outcomeOf(target) === undefined) {
          const landed = this.judge(
            target,
            { ...answer, page: { ...answer.page, url: target, redirects: [] } },
            depth,
            targetRobots.blockedFor,
          );
          this.progress.fetched += 1;
          judged.found = [{ ...landed.finished, depth }, ...landed.found];
        }
      }
    }
    this.finish(judged.finished, judged.found);
  }

  /** @param blockedFor search engines robots.txt keeps out of the URL: noted on a listed page */
  private judge(
    url: string,
    answer: ReadAnswer,
    depth: number,
    blockedFor: string[] = [],
  ): { finished: FinishedUrl; found: FoundUrl[] } {
    const { verdict, discovered } = judgeAnswer(url, answer, this.normalise);
    const found = discovered.map((d) => this.place(d.url, depthOf(d, depth)));
    const note = blockedFor.length > 0 ? { detail: `robots.txt blocks ${blockedFor.join(', ')}` } : {};
    const finished: FinishedUrl =
      verdict.outcome === 'listed'
        ? { url, outcome: 'listed', entry: verdict.entry, fetched: true, ...note }
        : { url, outcome: verdict.outcome, detail: verdict.detail, fetched: true };
    return { finished, found };
  }

  /** A followed redirect's target is judged from the answer in hand when it is ours to crawl. */
  private async robotsForRedirectTarget(target: string): Promise<RobotsVerdict | undefined> {
    if (!this.scope(target).inScope || this.progress.fetched >= this.maxPages) return undefined;
    return this.options.robots.check(target);
  }

  /** Where a found URL goes: the queue, straight to an outcome, or aside if too deep. */
  private place(url: string, depth: number): FoundUrl {
    const verdict = this.scope(url);
    if (!verdict.inScope) return { url, depth, outcome: 'out-of-scope', detail: verdict.why };
    return depth > this.maxDepth ? { url, depth, beyondDepth: true } : { url, depth };
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

/** Links lead one hop deeper; a redirect or canonical target stands in for the same page. */
function depthOf(found: Discovered, depth: number): number {
  return found.via === 'redirect' || found.via === 'canonical' ? depth : depth + 1;
}
