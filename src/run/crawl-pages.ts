/**
 * A crawl as work of a run, the one way every crawl is worked (one worker here or many): each item
 * is a page URL, leased with the other URLs of its host, visited (crawl/visit.ts) and judged
 * (crawl/page-rules.ts): robots.txt, then the fetch, then the verdict and the URLs it leads to,
 * which become items of the run (on any host of the site: a site of several hosts is crawled host
 * by host, each at its own pace).
 *
 * The run starts with its start URLs alone ('starting'): a start URL that redirects to another
 * origin (http → https, example.com → www.example.com) makes that origin part of the site, a fact
 * every worker reads before it judges any other page. A failure that may pass (no answer, 429,
 * 5xx) is tried again as the fetcher's retries say (--retries, backoff, Retry-After), but the wait
 * between two attempts is the item's, deferred in the queue: no lease is held through it, and
 * whichever worker claims the item next makes the next attempt.
 *
 * With --use-sitemaps, the start URL's visit adds one more item on the origin it landed on: the
 * reading of that origin's sitemaps, once the crawl knows its site. The worker that claims it
 * reads them under its lease (one sitemap at a time, at the host's pace) and adds their URLs as
 * seeds, a chunk at a time; the run is not done before it is.
 */
import { httpPageFetcher, robotsTxtPolicy } from '../crawl/adapters.js';
import { folderUrl, normaliseCrawlUrl } from '../crawl/normalise.js';
import { PageRules } from '../crawl/page-rules.js';
import { createScope } from '../crawl/scope.js';
import { paramFilter } from '../crawl/tracking-params.js';
import { visitPage, type PageVisit, type PageVisitor, type Refusal } from '../crawl/visit.js';
import { queryVariantPath, queryVariantTrap, trapLimits, type TrapLimits } from '../crawl/traps.js';
import {
  isPermanentFailure,
  isTimeoutFailure,
  RETRIED_REASONS,
  type FetchedPage,
  type FinishedUrl,
  type FoundUrl,
  type LeftOutReason,
  type ListedEntry,
  type PageFetcher,
  type RobotsPolicy,
} from '../crawl/types.js';
import { FingerprintSet } from '../core/fingerprint-set.js';
import { SitemapSeeds } from '../crawl/sitemap-seeds.js';
import { RetryState, type HttpClient } from '../http/client.js';
import { RetryLater } from '../pool/index.js';
import { Turns } from '../pool/turns.js';
import { unreadSitemapsProblem } from '../report/crawl.js';
import type { LeasedItem, Lease, NewItem, WorkQueue } from '../store/run-store.js';
import type { Job } from './job.js';
import type { ItemVisit, WorkKind } from './worker.js';

/** The crawl's rules as the flags give them: the same for one process and for every worker of a run. */
export interface CrawlRules {
  include: string[];
  exclude: string[];
  keepParams: string[];
  stripParams: string[];
  maxDepth?: number | undefined;
  trapLimits: { [Limit in keyof TrapLimits]?: number | undefined };
  maxPageBytes: number;
  /** Least time between two requests to a host, in ms; robots.txt's Crawl-delay raises it. */
  delayMs: number;
  /** Requests in flight to one host, from all workers together. */
  concurrency: number;
}

/** What every worker of a crawl run follows: the creator's flags, as stored with the run. */
export interface CrawlRunOptions extends CrawlRules {
  /** The start URLs, normalised: their origins are the site. */
  startUrls: string[];
  /** Pages requested at most, by all workers together (the run's budget). */
  maxPages?: number | undefined;
  /** Also start from the URLs of the sitemaps of each origin a start URL lands on. */
  useSitemaps?: boolean | undefined;
}

/** The input of the item that reads an origin's sitemaps (--use-sitemaps). */
interface SitemapsInput {
  sitemapsOf: string;
}

/** The outcome of that item: read (its detail says what could not be, if anything). */
export const SITEMAPS_READ = 'sitemaps-read';

/** Whether an item of a crawl run is the reading of an origin's sitemaps rather than a page. */
export function isSitemapsItem(input: unknown): input is SitemapsInput {
  return typeof (input as Partial<SitemapsInput> | undefined)?.sitemapsOf === 'string';
}

/** Its URL, unique in the run and never a page's (a page's URL has no fragment). */
function sitemapsItemUrl(origin: string): string {
  return `${origin}/#sitemaps`;
}

/** Last tries a process gives (two requests each, alone): more pages failing is a site that is down, not flaky. */
export const LAST_TRIES = 100;

/** Sitemap URLs added to the run per transaction. */
const SEED_CHUNK = 1_000;

/** The outcome of the pages left when the run's page budget is spent. */
export function beyondMaxPages(maxPages: number): { outcome: string; detail: string } {
  return { outcome: 'max-pages', detail: `not fetched: --max-pages ${maxPages} reached` };
}

/** The fact key under which a start URL's landing page is kept. */
export function landedFact(startUrl: string): string {
  return `landed ${startUrl}`;
}

/**
 * How a crawl's step reaches the site, beyond the worker's HTTP client: a library caller may hand
 * in its own fetcher (to read a site from disk, say) or robots.txt policy.
 */
export interface CrawlSeams {
  fetcher?: PageFetcher | undefined;
  robots?: RobotsPolicy | undefined;
}

/** The crawl as a job: a listed page's entry is its item's result. */
export const crawlJob: Job<CrawlRunOptions, ListedEntry, CrawlSeams> = {
  kind: 'crawl',
  step: ({ options, id }, { store, http, fetcher, robots }) =>
    new CrawlPages(
      options,
      fetcher ?? httpPageFetcher(http, { maxBytes: options.maxPageBytes }),
      robots ?? robotsTxtPolicy(http, http.userAgent),
      http,
      store,
      id,
    ),
};

class CrawlPages implements WorkKind<ListedEntry> {
  readonly beyondBudget: WorkKind['beyondBudget'];
  /** A page in flight when the crawl is stopped is finished and kept: its request was made. */
  readonly finishesInFlight = true;
  /**
   * Claims grow to 64 pages where the frontier is big: a claim is a transaction, and claims of 10
   * made a crawl of 5,000 pages 510 of them, against 93 (3-4% of its time, bench:crawl's site).
   */
  readonly maxBatch = 64;
  private readonly rules: PageRules;
  private readonly visitor: PageVisitor;
  private readonly normalise: (href: string) => string | undefined;
  private readonly origins: Set<string>;
  /** Stripped parameters met since the last visit returned: they go with its commit. */
  private stripped: NonNullable<ItemVisit['stripped']> = [];
  private readonly strippedKnown = new Set<string>();
  /** --max-query-variants, counted across the run in the store. */
  private readonly maxQueryVariants: number;
  /** Paths whose query variants are all fetched: no need to ask the store again. */
  private readonly variantsSpent = new Set<string>();
  /** Whether the landings of the start URLs have been read (once the run runs past its start). */
  private landingsKnown = false;
  /**
   * URLs this process has sent to the store already (8 bytes each): most links repeat on every
   * page. Too-deep ones stay out: a shallower path may still queue them.
   */
  private readonly known = new FingerprintSet();
  /**
   * The fetcher's attempts of the pages waiting for a retry, by item: a wait between two attempts
   * defers the item (not before the wait is over) instead of holding the host's lease.
   */
  private readonly retries = new Map<number, RetryState>();
  /**
   * Pages that failed through all their attempts in a way that may pass, set aside for a last try
   * alone: two attempts back to back, no other request of this process in flight, which a
   * balancer failing every other request cannot both fail. At most LAST_TRIES of them.
   */
  private readonly lastPass = new Set<number>();
  private lastPassGiven = 0;
  private readonly turns = new Turns();

  constructor(
    private readonly options: CrawlRunOptions,
    private readonly fetcher: PageFetcher,
    private readonly robots: RobotsPolicy,
    private readonly http: HttpClient,
    private readonly store: WorkQueue,
    private readonly runId: number,
  ) {
    const strip = paramFilter({ strip: options.stripParams, keep: options.keepParams });
    this.normalise = (href) =>
      normaliseCrawlUrl(href, undefined, strip, (stripped) => {
        if (this.strippedKnown.has(stripped.from)) return;
        this.strippedKnown.add(stripped.from);
        this.stripped.push(stripped);
      });
    this.origins = new Set(options.startUrls.map((url) => new URL(url).origin));
    const traps = trapLimits(options.trapLimits);
    this.rules = new PageRules(this.scope(), this.normalise, traps, options.maxDepth ?? Number.POSITIVE_INFINITY);
    this.rules.placedBefore = (url) => this.known.has(url);
    this.visitor = { rules: this.rules, fetcher, robots };
    this.maxQueryVariants = traps.maxQueryVariants;
    if (options.maxPages !== undefined) this.beyondBudget = beyondMaxPages(options.maxPages);
  }

  async hostDelay(host: string): Promise<number> {
    const crawlDelay = await this.robots.crawlDelay(host);
    return Math.max(this.options.delayMs, (crawlDelay ?? 0) * 1000);
  }

  async visit(item: LeasedItem, lease: Lease): Promise<ItemVisit<ListedEntry>> {
    const seed = this.options.startUrls.includes(item.url) && item.depth === 0;
    if (!seed) await this.readLandings();
    const turn = this.lastPass.has(item.id) ? this.turns.solo.bind(this.turns) : this.turns.shared.bind(this.turns);
    return turn(async () => {
      this.stripped = [];
      const visit = isSitemapsItem(item.input)
        ? await this.readSitemaps(item.input.sitemapsOf, lease)
        : await this.visitNow(item, lease, seed);
      return this.stripped.length === 0 ? visit : { ...visit, stripped: this.stripped };
    });
  }

  /**
   * Reads the sitemaps of `origin` and adds the URLs they list as seeds, judged as the crawl of
   * one process judges them (scope, traps), a chunk at a time: a worker killed halfway leaves the
   * item to do, and the next one adds the same URLs again, which count once.
   */
  private async readSitemaps(origin: string, lease: Lease): Promise<ItemVisit<ListedEntry>> {
    // One lease of the host: one request in flight, spaced by the host's delay.
    const seeds = new SitemapSeeds(this.http, {
      concurrency: 1,
      perHost: { concurrency: 1, delayMs: lease.delayMs ?? (await this.hostDelay(origin)) },
    });
    const pace = { concurrency: this.options.concurrency };
    let chunk: NewItem[] = [];
    for await (const href of seeds.urls(origin)) {
      const url = this.normalise(href);
      const item = url === undefined ? undefined : this.newItem(this.rules.place(folderUrl(url), 0));
      if (item !== undefined) chunk.push(item);
      if (chunk.length >= SEED_CHUNK) {
        await this.store.addSeeds(this.runId, chunk, pace);
        chunk = [];
      }
    }
    await this.store.addSeeds(this.runId, chunk, pace);
    return { outcome: SITEMAPS_READ, detail: unreadSitemapsProblem(await seeds.unread()), fetched: false };
  }

  /** The item that reads the sitemaps of the origin a start URL landed on, with --use-sitemaps. */
  private sitemapsItem(startUrl: string, facts: Record<string, string>, startItem: number): NewItem[] {
    if (this.options.useSitemaps !== true) return [];
    const origin = new URL(facts[landedFact(startUrl)] ?? startUrl).origin;
    const input: SitemapsInput = { sitemapsOf: origin };
    return [{ url: sitemapsItemUrl(origin), host: origin, depth: 0, foundOn: startItem, input }];
  }

  private async visitNow(item: LeasedItem, lease: Lease, seed: boolean): Promise<ItemVisit<ListedEntry>> {
    const { url } = item;
    const firstTry = item.attempts === 0;
    const facts: Record<string, string> = {};
    const page = { seq: item.id, url, depth: item.depth, chain: item.chain };
    const lastTry = this.lastPass.delete(item.id);
    let visit: PageVisit;
    try {
      const how = {
        // The fetcher's waits between attempts defer the item in the queue: no lease waits.
        fetch: lastTry ? { retries: 0, triedBefore: true } : { deferRetries: this.retryState(item) },
        // A page tried again was counted among its path's query variants at its first try.
        refuse: firstTry ? () => this.admitQueryVariant(url) : undefined,
        onAnswer: seed ? (fetched: FetchedPage) => this.land(url, fetched, facts) : undefined,
      };
      visit = await visitPage(this.visitor, page, how);
      if (lastTry && this.mayPass(visit)) visit = await visitPage(this.visitor, page, how);
    } catch (error) {
      if (!(error instanceof RetryLater)) throw error;
      return { fetched: true, againAfterMs: error.delayMs };
    }
    this.retries.delete(item.id);
    if (visit.kind === 'not-fetched') return this.settled(visit.finished);
    if (!lastTry && this.mayPass(visit) && this.lastPassGiven < LAST_TRIES) {
      this.lastPassGiven += 1;
      this.lastPass.add(item.id);
      return { fetched: true, againAfterMs: 0 };
    }
    if (visit.kind === 'failed')
      return this.settled({ url, outcome: 'fetch-error', detail: visit.error.message, fetched: true });
    // A redirect's target is written only if no one met it before (the store keeps the first).
    const settled = { ...this.settled(visit.finished, visit.found, lease.host), requests: visit.requests };
    if (seed) {
      const sitemaps = this.sitemapsItem(url, facts, item.id);
      if (sitemaps.length > 0) settled.found = [...(settled.found ?? []), ...sitemaps];
    }
    return Object.keys(facts).length === 0 ? settled : { ...settled, facts };
  }

  /** A failure that its attempts did not mend but a last try may: no answer (a timeout had its retry), 5xx, 429. */
  private mayPass(visit: PageVisit): boolean {
    if (visit.kind === 'failed') return !isPermanentFailure(visit.error) && !isTimeoutFailure(visit.error);
    return visit.kind === 'judged' && RETRIED_REASONS.includes(visit.finished.outcome as LeftOutReason);
  }

  /** The fetcher's count of the item's attempts: this worker's, or one made afresh from the queue's count. */
  private retryState(item: LeasedItem): RetryState {
    let state = this.retries.get(item.id);
    if (state === undefined) {
      state = new RetryState();
      state.attempts = item.attempts;
      this.retries.set(item.id, state);
    }
    return state;
  }

  /**
   * Counts a fetch of `url` among the query variants of its path, across all workers, or says
   * why it is a variant too many.
   */
  private async admitQueryVariant(url: string): Promise<Refusal | undefined> {
    const path = queryVariantPath(url);
    if (path === undefined) return undefined;
    if (!this.variantsSpent.has(path) && (await this.store.admitQueryVariant(this.runId, path, this.maxQueryVariants)))
      return undefined;
    this.variantsSpent.add(path);
    return { outcome: 'trap', detail: queryVariantTrap(path, this.maxQueryVariants) };
  }

  /** A start URL that lands on another origin makes that origin part of the site, from its own page on. */
  private land(startUrl: string, page: FetchedPage, facts: Record<string, string>): void {
    const landed = this.normalise(page.url);
    if (landed === undefined) return;
    facts[landedFact(startUrl)] = landed;
    this.addOrigin(new URL(landed).origin);
  }

  private addOrigin(origin: string): void {
    if (this.origins.has(origin)) return;
    this.origins.add(origin);
    this.rules.scope = this.scope();
  }

  private scope() {
    return createScope([...this.origins], { include: this.options.include, exclude: this.options.exclude });
  }

  /** Once past the start, the origins every start URL landed on (by whichever worker) are the site's. */
  private async readLandings(): Promise<void> {
    if (this.landingsKnown) return;
    const facts = await this.store.facts(this.runId);
    for (const startUrl of this.options.startUrls) {
      const landed = facts[landedFact(startUrl)];
      if (landed !== undefined) this.addOrigin(new URL(landed).origin);
    }
    this.landingsKnown = true;
  }

  /** The visit's record for the store: the page's outcome and the URLs it led to, those sent before skipped. */
  private settled(finished: FinishedUrl, found: readonly FoundUrl[] = [], host?: string): ItemVisit<ListedEntry> {
    const items: NewItem[] = [];
    for (const url of found) {
      const item = this.newItem(url, host);
      if (item !== undefined) items.push(item);
    }
    return {
      outcome: finished.outcome,
      detail: finished.detail,
      fetched: finished.fetched ?? false,
      ...(finished.entry === undefined ? {} : { result: finished.entry }),
      ...(items.length === 0 ? {} : { found: items }),
    };
  }

  /** A found URL as an item, unless this process sent it already. */
  private newItem(found: FoundUrl, host?: string): NewItem | undefined {
    const tooDeep = found.outcome === undefined && found.beyondDepth === true;
    if (!tooDeep && !this.known.add(found.url)) return undefined;
    const item: NewItem = {
      url: found.url,
      host: host !== undefined && found.url.startsWith(`${host}/`) ? host : new URL(found.url).origin,
      depth: found.depth,
      chain: found.chain ?? 0,
      ...(found.foundOn === undefined ? {} : { foundOn: found.foundOn }),
    };
    if (found.outcome !== undefined) {
      item.outcome = found.outcome;
      if (found.detail !== undefined) item.detail = found.detail;
      if (found.entry !== undefined) item.result = found.entry;
      if (found.fetched === true) item.fetched = true;
    } else if (found.beyondDepth) {
      item.outcome = 'max-depth';
      item.detail = `found only deeper than --max-depth ${this.options.maxDepth}`;
    }
    return item;
  }
}
