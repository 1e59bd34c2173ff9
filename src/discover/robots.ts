/**
 * Fetching a site's robots.txt and what its HTTP outcome means (RFC 9309 §2.3.1): 2xx is parsed,
 * 4xx allows everything, 5xx (and 429) or no answer disallows everything, redirects are followed
 * up to 5 hops and the result applies to the original origin. At most 500 KiB is read.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import { LIMITS } from '../core/limits.js';
import { HttpError, isHtmlContentType, type HttpClient, type Redirect } from '../http/client.js';
import { parseRobotsTxt, RobotsRules } from '../core/robots-txt.js';
import { bytesStartLikeHtml } from '../core/html.js';

export { parseRobotsTxt, productToken, RobotsRules, type RobotsSitemap } from '../core/robots-txt.js';

/** How the fetch went: `ok` (parsed), `unavailable` (4xx: no rules), `unreachable` (5xx or no answer: all disallowed). */
export type RobotsOutcome = 'ok' | 'unavailable' | 'unreachable';

/**
 * A site's robots.txt as fetched: its outcome (rules, none, or unreachable), its rules, its
 * Sitemap: lines and its problems.
 */
export interface RobotsTxt {
  /** The robots.txt URL of the origin. */
  url: string;
  /** Final HTTP status, when there was a response. */
  status?: number;
  outcome: RobotsOutcome;
  /** Why no response came, when none did (a bare host's caller may then try http). */
  error?: HttpError;
  redirects: Redirect[];
  /** Sitemap URLs declared, absolute, in file order. */
  sitemaps: string[];
  diagnostics: Diagnostic[];
  rules: RobotsRules;
  durationMs: number;
}

/** `https://host/robots.txt` for any URL of the site. */
export function robotsUrlFor(siteUrl: string): string {
  return new URL('/robots.txt', siteUrl).href;
}

/**
 * Fetches and reads the robots.txt of `siteUrl`'s origin; never throws for HTTP trouble. The
 * client comes first, as in robotsTxtPolicy(http, userAgent) and httpPageFetcher(http); the
 * order of earlier versions, (siteUrl, http), is still taken.
 */
export async function fetchRobotsTxt(
  http: HttpClient,
  siteUrl: string,
  options?: { signal?: AbortSignal | undefined },
): Promise<RobotsTxt>;
/** @deprecated the order of earlier versions: write fetchRobotsTxt(http, siteUrl). */
export async function fetchRobotsTxt(
  siteUrl: string,
  http: HttpClient,
  options?: { signal?: AbortSignal | undefined },
): Promise<RobotsTxt>;
export async function fetchRobotsTxt(
  first: HttpClient | string,
  second: HttpClient | string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<RobotsTxt> {
  const [http, siteUrl] = typeof first === 'string' ? [second as HttpClient, first] : [first, second as string];
  const url = robotsUrlFor(siteUrl);
  const started = Date.now();
  const finish = (fields: Omit<RobotsTxt, 'url' | 'durationMs' | 'sitemaps' | 'diagnostics'>): RobotsTxt => ({
    url,
    ...fields,
    sitemaps: fields.rules.sitemaps.map((s) => s.url),
    diagnostics: [...fields.rules.diagnostics],
    durationMs: Date.now() - started,
  });

  let response;
  try {
    response = await http.get(url, { maxBytes: LIMITS.robotsMaxBytes + 1, signal: options.signal });
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    if (error.kind === 'too-many-redirects' || error.kind === 'redirect-loop' || error.kind === 'bad-redirect') {
      // Too many hops: the file is unavailable, which allows everything (RFC 9309 §2.3.1.2).
      return finish({ outcome: 'unavailable', redirects: [...error.redirects], rules: RobotsRules.allowAll() });
    }
    return finish({
      outcome: 'unreachable',
      error,
      redirects: [...error.redirects],
      rules: RobotsRules.disallowAll([unreachable(url, error.message)]),
    });
  }
  const { status, redirects } = response;
  if (status >= 500 || status === 429) {
    response.discard();
    return finish({
      status,
      outcome: 'unreachable',
      redirects,
      rules: RobotsRules.disallowAll([unreachable(url, `HTTP ${status}`)]),
    });
  }
  if (status >= 300) {
    response.discard();
    return finish({ status, outcome: 'unavailable', redirects, rules: RobotsRules.allowAll() });
  }

  let bytes: Uint8Array;
  try {
    bytes = await collect(response.body);
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    return finish({
      status,
      outcome: 'unreachable',
      redirects,
      rules: RobotsRules.disallowAll([unreachable(url, error.message)]),
    });
  }
  if (isHtmlContentType(response.headers['content-type']) || bytesStartLikeHtml(bytes)) {
    const served = diagnostic(
      'ROBOTS-003',
      `${url} answered with an HTML page, not a robots.txt; it is read as having no rules`,
      { source: url },
    );
    return finish({ status, outcome: 'unavailable', redirects, rules: RobotsRules.allowAll([served]) });
  }
  return finish({ status, outcome: 'ok', redirects, rules: parseRobotsTxt(bytes, url) });
}

/**
 * The robots.txt of each origin a run meets, fetched once (the first caller's request is shared
 * by all who ask meanwhile) and kept for the run.
 */
export class RobotsTxtCache {
  private readonly byOrigin = new Map<string, Promise<RobotsTxt>>();

  constructor(
    private readonly http: HttpClient,
    private readonly options: { signal?: AbortSignal | undefined } = {},
  ) {}

  /** The robots.txt of `url`'s origin. */
  get(url: string): Promise<RobotsTxt> {
    const origin = new URL(url).origin;
    let pending = this.byOrigin.get(origin);
    if (pending === undefined) {
      pending = fetchRobotsTxt(this.http, origin, this.options);
      this.byOrigin.set(origin, pending);
    }
    return pending;
  }
}

/** The Sitemap: lines of each origin's robots.txt, fetched once per origin (validate's cross-submission proof). */
export function robotsSitemaps(http: HttpClient): (url: string) => Promise<readonly string[]> {
  const cache = new RobotsTxtCache(http);
  return async (url) => (await cache.get(url)).sitemaps;
}

function unreachable(url: string, why: string): Diagnostic {
  return diagnostic(
    'ROBOTS-004',
    `${url} is unreachable (${why}): the whole site is treated as disallowed for crawling`,
    { source: url },
  );
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
