/**
 * The crawler's seams wired to the real modules: pages through the discover/ HTTP layer
 * (timeouts, retries, size caps, Content-Encoding), permissions from robots.txt per RFC 9309.
 */
import { RetryState, type HttpClient } from '../http/client.js';
import { RobotsTxtCache, type RobotsTxt } from '../discover/robots.js';
import type { PageFetcher, RobotsPolicy } from './types.js';

/** HTML pages larger than this are read only this far, and left out as cut off (links past it are not seen). */
export const DEFAULT_MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** The crawler reads HTML pages; other types are judged from their headers and never read. */
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

/**
 * The crawler's page fetcher over an {@link HttpClient}: HTML is asked for, at most `maxBytes` of a
 * page are read.
 */
export function httpPageFetcher(http: HttpClient, { maxBytes = DEFAULT_MAX_PAGE_BYTES } = {}): PageFetcher {
  return {
    async fetch(url, { retries, deferRetries, triedBefore = false } = {}) {
      // The task's state across the pool's restarts of it, or this fetch's own.
      const retryState = deferRetries ?? new RetryState();
      // Its first try in the crawl was the retry a timeout gets: a timeout now is not retried.
      if (triedBefore) {
        retryState.timeoutsRetried = Math.max(retryState.timeoutsRetried, 1);
        retryState.triedBefore = true;
      }
      const response = await http.get(url, { maxBytes, accept: PAGE_ACCEPT, retries, deferRetries, retryState });
      // The body streams on to the HTML reader; PDFs, images and errors are never read (see readAnswer).
      return {
        url: response.url,
        redirects: response.redirects,
        status: response.status,
        headers: response.headers,
        body: response.body,
        discard: () => response.discard(),
        cutOff: () =>
          response.transfer.truncated ? { limitBytes: maxBytes, wireBytes: response.transfer.wireBytes } : undefined,
        fetchedAt: Date.now(),
      };
    },
  };
}

/** The search engines whose robots.txt groups are checked too. */
export const ENGINE_AGENTS = ['Googlebot', 'bingbot', 'Yandex'] as const;

/** robots.txt of each origin, fetched once per crawl, read for `userAgent`'s product token. */
export function robotsTxtPolicy(
  http: HttpClient,
  userAgent: string,
): RobotsPolicy & {
  /** The robots.txt that rules `url` (fetched once per origin, then remembered). */
  robotsTxt(url: string): Promise<RobotsTxt>;
} {
  const cache = new RobotsTxtCache(http);
  const robotsTxt = (url: string) => cache.get(url);
  return {
    robotsTxt,
    async check(url) {
      const robots = await robotsTxt(url);
      if (robots.rules.isAllowed(url, userAgent)) {
        const blockedFor = ENGINE_AGENTS.filter((agent) => !robots.rules.isAllowed(url, agent));
        return blockedFor.length === 0 ? { allowed: true } : { allowed: true, blockedFor };
      }
      // A host that gives no answer at all is down (or does not resolve): the page is unreachable, not blocked.
      if (robots.error !== undefined)
        return { allowed: false, why: `no answer: ${robots.error.message}`, noAnswer: true };
      // An unreachable robots.txt disallows everything (RFC 9309): say so, not "disallowed".
      const why =
        robots.outcome === 'unreachable'
          ? (robots.diagnostics[0]?.message ?? `${robots.url} is unreachable`)
          : `disallowed by ${robots.url}`;
      return { allowed: false, why };
    },
    async crawlDelay(url) {
      return (await robotsTxt(url)).rules.crawlDelay(userAgent);
    },
  };
}
