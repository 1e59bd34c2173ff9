/**
 * The second part of an audit: every sampled listed URL not yet checked goes through the work
 * pool (per-host politeness, robots.txt's Crawl-delay, retries that wait without holding a
 * worker), is fetched unless robots.txt keeps Googlebot or us out of it, checked (./check.ts), and
 * its result committed within COMMIT_WITHIN_MS (in one transaction with its neighbours: one commit
 * per URL cost more than the check): an audit killed at any moment resumes with what it had, and
 * fetches again only the URLs in flight or checked in that last instant. The pool is fed from the
 * state a window at a time, so memory does not grow with the number of URLs.
 */
import { Batcher } from '../core/batches.js';
import type { Alternate } from '../core/entry.js';
import { FingerprintSet } from '../core/fingerprint-set.js';
import { looksAbsoluteHttp } from '../core/url.js';
import { RetryState, type HttpClient } from '../http/client.js';
import { RobotsTxtCache, productToken, type RobotsTxt } from '../discover/robots.js';
import { WorkPool, type HostPoliteness } from '../pool/index.js';
import type { AuditState, StoredCheck, StoredListing } from '../store/audit-store.js';
import { checkListing, redirectTargets, type CheckContext, type CheckedUrl, type Listing } from './check.js';
import { findingBits } from './findings.js';
import { fetchLiveAnswer, type LiveAnswer } from './live-page.js';
import { NotFoundProbes } from './soft-404.js';

export interface CheckProgress {
  /** Sampled URLs checked, by this run and the runs it resumes. */
  checked: number;
  /** Sampled URLs to check in all. */
  total: number;
  /** Checked URLs with at least one finding. */
  flagged: number;
  /** Checked by this run, and the time it has run (for the rate). */
  checkedNow: number;
  elapsedMs: number;
}

export interface CheckOptions {
  state: AuditState;
  http: HttpClient;
  context: Omit<CheckContext, 'isListed'>;
  /** Decoded bytes read of a page at most. */
  maxPageBytes: number;
  /** Requests at once across hosts. */
  concurrency?: number | undefined;
  /** Politeness of every host; robots.txt's Crawl-delay raises the delay of its host. */
  perHost?: Partial<HostPoliteness> | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: CheckProgress) => void) | undefined;
}

/** The search engine whose robots.txt group decides robots-blocked (with `*` behind it, per RFC 9309). */
const SEARCH_ENGINE_AGENT = 'Googlebot';

/** Listings read from the state per query, and held in the pool at most (queued, parked or running). */
const BATCH = 512;
const WINDOW = 4096;
/** Checks are committed together, at most this long after they end, or as soon as this many wait. */
const COMMIT_WITHIN_MS = 100;
const COMMIT_BATCH = 256;

interface Task {
  listing: StoredListing;
  retry: RetryState;
}

/** Checks every sampled URL not yet checked; true when all were (false when stopped). */
export async function checkListedUrls(options: CheckOptions): Promise<boolean> {
  return new ListingChecker(options).run();
}

class ListingChecker {
  private readonly state: AuditState;
  private readonly robots: RobotsTxtCache;
  /** What each host answers for a URL that cannot exist (soft-404). */
  private readonly probes: NotFoundProbes;
  private readonly pool: WorkPool<Task, CheckedUrl>;
  private readonly politeHosts = new Set<string>();
  private readonly started = Date.now();
  private readonly progress: CheckProgress;
  private cursor = 0;
  private exhausted = false;
  private held = 0;
  /** Checks ended but not yet committed, and the timer that commits them. */
  private readonly unsaved = new Batcher<{ seq: number; check: StoredCheck }>(COMMIT_BATCH, (checks) => {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    this.state.saveChecks(checks);
  });
  private commitTimer: NodeJS.Timeout | undefined;
  /** URLs listed more than once (few): only those ask the state for their repeats. */
  private readonly repeated = new FingerprintSet(1024);

  constructor(private readonly options: CheckOptions) {
    this.state = options.state;
    this.robots = new RobotsTxtCache(options.http, { signal: options.signal });
    this.probes = new NotFoundProbes(options.http, this.robots, options.maxPageBytes, options.signal);
    this.pool = new WorkPool<Task, CheckedUrl>({
      run: (task, { signal }) => this.check(task, signal),
      onSettled: (task, settled) => {
        this.held -= 1;
        this.save(task, settled.ok ? settled.value : crashedCheck(task.listing.url, settled.error));
        this.fill();
      },
      concurrency: options.concurrency,
      perHost: options.perHost,
      signal: options.signal,
    });
    this.progress = {
      checked: this.state.checkedCount(),
      total: this.state.sampledCount(),
      flagged: this.state.flaggedCount(),
      checkedNow: 0,
      elapsedMs: 0,
    };
  }

  async run(): Promise<boolean> {
    for (const url of this.state.repeatedUrls()) this.repeated.add(url);
    this.fill();
    try {
      await this.pool.idle();
    } finally {
      this.commit();
    }
    this.notify();
    return !this.options.signal?.aborted;
  }

  /** Tops the pool up to WINDOW listings, a batch at a time, in the order they were listed. */
  private fill(): void {
    while (!this.exhausted && this.held < WINDOW && !this.options.signal?.aborted) {
      const batch = this.state.nextToCheck(this.cursor, BATCH);
      if (batch.length < BATCH) this.exhausted = true;
      for (const listing of batch) {
        this.cursor = listing.seq;
        this.held += 1;
        this.pool.enqueue({ listing, retry: new RetryState() }, hostOf(listing.url));
      }
    }
  }

  private async check(task: Task, signal: AbortSignal): Promise<CheckedUrl> {
    const listing = listingOf(task.listing, this.repeated.has(task.listing.url) ? this.state : NO_REPEATS);
    const { checked } = await checkListedUrl(listing, {
      http: this.options.http,
      robots: this.robots,
      maxPageBytes: this.options.maxPageBytes,
      signal,
      retry: task.retry,
      onRobots: (robots) => this.respectCrawlDelay(listing.url, robots),
      context: this.options.context,
      isListed: (url) => this.state.isListed(url),
      probes: this.probes,
    });
    return checked;
  }

  /** robots.txt's Crawl-delay for us, once per host, when it is longer than the delay asked for. */
  private respectCrawlDelay(url: string, robots: RobotsTxt): void {
    const host = hostOf(url);
    if (this.politeHosts.has(host)) return;
    this.politeHosts.add(host);
    const seconds = robots.rules.crawlDelay(this.options.http.userAgent);
    const delayMs = (seconds ?? 0) * 1000;
    if (delayMs > (this.options.perHost?.delayMs ?? 0)) this.pool.configureHost(host, { delayMs });
  }

  private save(task: Task, checked: CheckedUrl): void {
    this.unsaved.add({ seq: task.listing.seq, check: encodeCheck(checked) });
    if (this.unsaved.pending > 0) this.commitTimer ??= setTimeout(() => this.commit(), COMMIT_WITHIN_MS);
    this.progress.checked += 1;
    this.progress.checkedNow += 1;
    if (checked.findings.length > 0) this.progress.flagged += 1;
    this.notify();
  }

  private commit(): void {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    this.unsaved.flush();
  }

  private notify(): void {
    if (!this.options.onProgress) return;
    this.progress.elapsedMs = Date.now() - this.started;
    this.options.onProgress({ ...this.progress });
  }
}

/** How {@link listedUrlAnswer} asks. */
export interface ListedUrlFetch {
  http: HttpClient;
  robots: RobotsTxtCache;
  maxPageBytes: number;
  signal?: AbortSignal | undefined;
  /** A work pool's retry state (retries handed back to it); without it, retries are slept through. */
  retry?: RetryState | undefined;
  /** Sees the URL's robots.txt before anything is fetched. */
  onRobots?: ((robots: RobotsTxt) => void) | undefined;
}

/** How a listed URL is checked: how it is asked for, and what its check needs besides. */
export interface ListedUrlCheck extends ListedUrlFetch {
  context: Omit<CheckContext, 'isListed' | 'notFoundAnswer'>;
  /** Whether a URL is listed too (a redirect's target): the audit's state, or a run's store. */
  isListed(url: string): boolean | Promise<boolean>;
  /** What each host answers for a URL that cannot exist (soft-404), when the audit asks it. */
  probes?: NotFoundProbes | undefined;
}

/**
 * The one place an audit checks a listed URL: asked for (./live-page.ts), then judged
 * (./check.ts). Used by the audit's pool and by the workers of an audit run alike; `fetched` says
 * whether a request was made for it.
 */
export async function checkListedUrl(
  listing: Listing,
  options: ListedUrlCheck,
): Promise<{ checked: CheckedUrl; fetched: boolean }> {
  const { probes } = options;
  await probes?.probe(listing.url);
  const answer = await listedUrlAnswer(listing.url, options);
  const fetched = answer.kind === 'answered' || (answer.kind === 'failed' && looksAbsoluteHttp(listing.url));
  // Asked before the check, which is synchronous: a run's store answers over the wire.
  const listed = new Set<string>();
  for (const target of redirectTargets(answer)) if (await options.isListed(target)) listed.add(target);
  const checked = checkListing(listing, answer, {
    ...options.context,
    isListed: (url) => listed.has(url),
    ...(probes === undefined ? {} : { notFoundAnswer: (url: string) => probes.answerFor(url) }),
  });
  return { checked, fetched };
}

/**
 * What asking for a listed URL gives: nothing to fetch when it is no absolute http(s) URL, not
 * fetched when robots.txt keeps Googlebot or us out, else its live answer. Used by the audit's
 * pool and by the workers of an audit run alike.
 */
export async function listedUrlAnswer(url: string, options: ListedUrlFetch): Promise<LiveAnswer> {
  if (!looksAbsoluteHttp(url)) {
    const message = `"${url}" is not an absolute http(s) URL (URL-001): there is nothing to fetch`;
    return { kind: 'failed', message, redirects: [] };
  }
  const robots = await options.robots.get(url);
  options.onRobots?.(robots);
  // A host that gives no answer at all (down, not resolving) is unreachable, not blocked by its robots.txt.
  if (robots.error !== undefined)
    return { kind: 'failed', message: `no answer: ${robots.error.message}`, redirects: [...robots.error.redirects] };
  const blocked = blockedFor(url, robots, options.http.userAgent);
  if (blocked !== undefined) return { kind: 'blocked', why: blocked };
  return fetchLiveAnswer(options.http, url, {
    maxBytes: options.maxPageBytes,
    signal: options.signal,
    retry: options.retry,
  });
}

/** Why robots.txt keeps the URL from being fetched (for Googlebot, or for us), if it does. */
function blockedFor(url: string, robots: RobotsTxt, userAgent: string): string | undefined {
  if (robots.outcome === 'unreachable')
    return `${robots.url} is unreachable (${robots.status === undefined ? 'no answer' : `HTTP ${robots.status}`}): crawlers must take the whole site as disallowed`;
  const agents = [
    ...(robots.rules.isAllowed(url, SEARCH_ENGINE_AGENT) ? [] : [SEARCH_ENGINE_AGENT]),
    ...(robots.rules.isAllowed(url, userAgent) ? [] : [productToken(userAgent)]),
  ];
  return agents.length === 0 ? undefined : `disallowed by ${robots.url} for ${agents.join(' and ')}; not fetched`;
}

/** A check that threw (a bug, or something no HTTP error describes) is still a row, never lost. */
export function crashedCheck(url: string, error: unknown): CheckedUrl {
  return {
    indexable: false,
    findings: ['unreachable'],
    details: { unreachable: `the check failed: ${(error as Error).message ?? String(error)} (${url})` },
  };
}

const NO_REPEATS: Pick<AuditState, 'repeatsOf'> = { repeatsOf: () => [] };

/** A stored listing as the check reads it, with its repeats. */
export function listingOf(stored: StoredListing, state: Pick<AuditState, 'repeatsOf'>): Listing {
  const repeats = state.repeatsOf(stored.url);
  return {
    url: stored.url,
    sitemap: stored.sitemap,
    ...(stored.line === null ? {} : { line: stored.line }),
    ...(stored.lastmod === null ? {} : { lastmod: stored.lastmod }),
    ...(stored.alternates === null ? {} : { alternates: JSON.parse(stored.alternates) as Alternate[] }),
    ...(repeats.length > 0 ? { repeats } : {}),
  };
}

/** A check as the state keeps it: the row's facts as JSON, the findings as bits, the live hreflang aside. */
export function encodeCheck(checked: CheckedUrl): StoredCheck {
  const { liveHreflang, ...facts } = checked;
  return {
    result: JSON.stringify(facts),
    findings: findingBits(checked.findings),
    ...(liveHreflang ? { liveHreflang: JSON.stringify(liveHreflang) } : {}),
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
