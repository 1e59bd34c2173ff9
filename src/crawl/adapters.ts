/**
 * The crawler's seams wired to the real modules: pages through the discover/ HTTP layer
 * (timeouts, retries, size caps, Content-Encoding), permissions from robots.txt per RFC 9309.
 */
import type { HttpClient } from '../discover/http.js';
import { RobotsTxtCache, type RobotsTxt } from '../discover/robots.js';
import type { PageFetcher, RobotsPolicy } from './types.js';

/** HTML pages larger than this are read only this far, and left out as cut off (links past it are not seen). */
export const DEFAULT_MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** The crawler reads HTML pages; other types are judged from their headers and never read. */
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

export function httpPageFetcher(http: HttpClient, { maxBytes = DEFAULT_MAX_PAGE_BYTES } = {}): PageFetcher {
  return {
    async fetch(url, { retries, deferRetries } = {}) {
      const response = await http.get(url, { maxBytes, accept: PAGE_ACCEPT, retries, deferRetries });
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

/** The search engines whose robots.txt groups are checked too (RULES.md CR-01). */
export const ENGINE_AGENTS = ['Googlebot', 'bingbot', 'Yandex'] as const;

/** robots.txt of each origin, fetched once per crawl, read for `userAgent`'s product token. */
export function robotsTxtPolicy(
  http: HttpClient,
  userAgent: string,
): RobotsPolicy & { robotsTxt(url: string): Promise<RobotsTxt> } {
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
