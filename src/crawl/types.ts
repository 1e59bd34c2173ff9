/**
 * The crawl's types. Its seams: it fetches through a PageFetcher and asks a RobotsPolicy, both
 * injected, so the HTTP layer and the robots.txt module of discover/ plug in (see ./adapters.ts)
 * and tests can drive the crawler directly. Then what a visit settles (FinishedUrl, FoundUrl),
 * what is left out and why, and how a crawl is told and ends (CrawlProgress, CrawlResult).
 */
import type { UrlEntry } from '../core/entry.js';
import type { RetryState } from '../http/client.js';

/** A redirect the fetcher followed on the way to the answer. */
export interface FollowedRedirect {
  from: string;
  to: string;
  status: number;
}

/** The answer for one URL, after the fetcher followed its redirects. */
export interface FetchedPage {
  /** The URL that answered: the requested one, or the end of `redirects`. */
  url: string;
  redirects: readonly FollowedRedirect[];
  status: number;
  /** Header values by lower-case name; repeated headers as arrays. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The body: its chunks as they arrive (read once), or bytes in memory. Capped by the fetcher,
   * which may leave it empty when the type is not HTML.
   */
  body: AsyncIterable<Uint8Array> | Uint8Array;
  /** Lets go of a body left unread (and of what it holds); harmless once it has been read. */
  discard?: () => void;
  /** Once the body has been read: the size limit that cut it short, when one did. */
  cutOff?: () => CutOff | undefined;
  /** Our clock (epoch ms) when the response arrived. */
  fetchedAt: number;
}

/** A body the fetcher stopped reading at its byte limit: the rest of the page was never seen. */
export interface CutOff {
  /** The limit, in decoded bytes. */
  limitBytes: number;
  /** Bytes that came over the wire for them (far fewer than the limit: a compression bomb). */
  wireBytes: number;
}

export interface FetchOptions {
  /**
   * Extra attempts after a failure that may pass (connection, 429, 5xx); the fetcher's default
   * when absent. The crawler asks for none on a first visit: it tries failed URLs again later.
   */
  retries?: number;
  /**
   * The URL was fetched once before, in the crawl, and failed: this is its try at the end. A
   * timeout now is not tried again (a timeout is retried once at most: this is its once).
   */
  triedBefore?: boolean;
  /**
   * For a task of the work pool: a wait between attempts is thrown as RetryLater (the pool starts
   * the task again once it is over) instead of slept through, the attempts counted in this state,
   * which the task passes again each time. A fetcher that cannot defer may sleep instead.
   */
  deferRetries?: RetryState;
}

/**
 * How the crawler fetches a page (see {@link httpPageFetcher}); replaceable, e.g. to read a site
 * from disk.
 */
export interface PageFetcher {
  /**
   * Fetches one URL; rejects when no response came (DNS, connection, timeout), with an error whose
   * `permanent` is true when trying again cannot help (a name that does not resolve, response
   * headers too large, a TLS mismatch: HttpError's).
   */
  fetch(url: string, options?: FetchOptions): Promise<FetchedPage>;
}

/** Whether a fetcher's failure is one no later try can mend: such a URL is not tried again. */
export function isPermanentFailure(error: unknown): boolean {
  return flagOf(error, 'permanent');
}

/** Whether a fetcher's failure is a timeout (HttpError's `timeout`), which is retried once at most. */
export function isTimeoutFailure(error: unknown): boolean {
  return flagOf(error, 'timeout');
}

function flagOf(error: unknown, flag: 'permanent' | 'timeout'): boolean {
  return typeof error === 'object' && error !== null && (error as Record<string, unknown>)[flag] === true;
}

/**
 * May we fetch a URL? When we may, `blockedFor` names the search engines robots.txt keeps out
 * of it all the same: listing it draws their complaint (docs/rules.md URL-010).
 */
export type RobotsVerdict =
  | { allowed: true; blockedFor?: string[] }
  /** `noAnswer`: the host gave no answer at all for its robots.txt (down, not resolving): unreachable, not blocked. */
  | { allowed: false; why: string; noAnswer?: boolean };

/**
 * How the crawler asks robots.txt whether it may fetch a URL, and how long to wait between requests
 * (see {@link robotsTxtPolicy}).
 */
export interface RobotsPolicy {
  /** Whether robots.txt lets our user-agent fetch `url`, and if not, why. */
  check(url: string): Promise<RobotsVerdict>;
  /** The `Crawl-delay` (seconds) robots.txt sets for us on the host of `url`, if any. */
  crawlDelay(url: string): Promise<number | undefined>;
}

/** Why a URL is not in the sitemaps. */
export const LEFT_OUT_REASONS = [
  'redirected',
  'meta-refresh',
  'js-redirect',
  'http-error',
  'server-error',
  'fetch-error',
  'cut-off',
  'non-html',
  'noindex',
  'canonicalised',
  'duplicate',
  'robots-blocked',
  'out-of-scope',
  'trap',
  'max-pages',
  'max-depth',
] as const;
/** Why a URL the crawler met is not listed. */
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

/** What the crawler decided about a URL: listed, or left out for a reason. */
export type Outcome = 'listed' | LeftOutReason;

/**
 * Pages the crawl could not read, so the sitemaps may lack them and the pages they link to: a
 * server error or no answer (after one more try at the end of the crawl), or a body cut off at the
 * size limit. Any of them makes `crawl` exit 1.
 */
export const UNREAD_REASONS: readonly LeftOutReason[] = ['server-error', 'fetch-error', 'cut-off'];

/** Failures that may pass: their URLs are tried once more at the end of the crawl. */
export const RETRIED_REASONS: readonly LeftOutReason[] = ['server-error', 'fetch-error'];

/** All values of one header, whether the fetcher gave a string or a list. */
export function headerValues(headers: FetchedPage['headers'], name: string): string[] {
  const value = headers[name];
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

/** Requests in flight at once to a host when `concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 4;

/** A URL whose outcome is known: listed (with its entry) or left out, and why. */
export interface FinishedUrl {
  url: string;
  /** 'listed' or the reason the URL was left out. */
  outcome: string;
  detail?: string;
  /** True when the URL was requested (whatever the answer); default false. */
  fetched?: boolean;
  entry?: ListedEntry;
}

/**
 * A listed page's entry as the crawl keeps it: with the Last-Modified its server sent (a W3C
 * datetime), among which the outputs find a build's stamp (core/build-stamp.ts), and a digest of
 * its bytes, by which the outputs find a URL with a query that is its twin without one again
 * (./query-twins.ts). Neither is written to a sitemap.
 */
export type ListedEntry = UrlEntry & { lastModified?: string; bodyDigest?: string };

/** Where a found URL was met: its depth, its chain, and the key of the page that led to it (none for seeds). */
interface FoundAt {
  depth: number;
  chain?: number;
  foundOn?: number;
}

/**
 * A URL met while judging a page: to visit at `depth`; or settled at once with an outcome (when
 * it is new); or, `beyondDepth`, met only deeper than the depth limit (settled as such unless a
 * shallower path leads to it).
 */
export type FoundUrl = ({ url: string; outcome?: undefined; beyondDepth?: boolean } | FinishedUrl) & FoundAt;

/** A URL left out, with the page that first led to it (none for a seed or the start URL). */
export interface LeftOutUrl {
  url: string;
  outcome: string;
  detail: string | null;
  foundOn: string | null;
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
  /** True when the crawl's work is all done (false when stopped by the signal). */
  finished: boolean;
}
