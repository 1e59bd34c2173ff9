/**
 * How an audit checks one listed URL: robots.txt asked first (Googlebot's group, then ours), the
 * page fetched unless it keeps us out, then judged (./check.ts); the check encoded as the audit's
 * run keeps it. The worker of the audit's run calls it for each URL it leases.
 */
import { looksAbsoluteHttp } from '../core/url.js';
import type { HttpClient, RetryState } from '../http/client.js';
import { productToken, type RobotsTxt, type RobotsTxtCache } from '../discover/robots.js';
import { checkListing, redirectTargets, type CheckContext, type CheckedUrl, type Listing } from './check.js';
import { findingBits } from './findings.js';
import type { StoredCheck } from './listings.js';
import { fetchLiveAnswer, type LiveAnswer } from './live-page.js';
import type { NotFoundProbes } from './soft-404.js';

/** The search engine whose robots.txt group decides robots-blocked (with `*` behind it, per RFC 9309). */
const SEARCH_ENGINE_AGENT = 'Googlebot';

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
  /** Whether a URL is listed too (a redirect's target): asked of the audit's run. */
  isListed(url: string): boolean | Promise<boolean>;
  /** What each host answers for a URL that cannot exist (soft-404), when the audit asks it. */
  probes?: NotFoundProbes | undefined;
}

/**
 * The one place an audit checks a listed URL: asked for (./live-page.ts), then judged
 * (./check.ts), by the worker of the audit's run (run/audit-checks.ts); `fetched` says whether a
 * request was made for it.
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
 * fetched when robots.txt keeps Googlebot or us out, else its live answer.
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

/** A check as the audit's run keeps it: the row's facts as JSON, the findings as bits, the live hreflang aside. */
export function encodeCheck(checked: CheckedUrl): StoredCheck {
  const { liveHreflang, ...facts } = checked;
  return {
    result: JSON.stringify(facts),
    findings: findingBits(checked.findings),
    ...(liveHreflang ? { liveHreflang: JSON.stringify(liveHreflang) } : {}),
  };
}
