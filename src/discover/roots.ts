/**
 * Where a sitemap tree starts: the sitemap URLs given, or for a site its robots.txt Sitemap:
 * lines, else the first well-known location that holds a sitemap. A host typed without a scheme
 * is tried over https, then over http when the server does not speak TLS (tree and crawl alike).
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { SitemapBody } from '../http/sitemap-fetch.js';
import { HttpError, overHttp, type HttpClient } from '../http/client.js';
import { fetchRobotsTxt, type RobotsTxt } from './robots.js';
import type { FoundBy } from './tree-model.js';
import { probeWellKnown, type Probe } from './well-known.js';

/** A site (origin) or a sitemap URL to start from; `schemeGuessed` when the input named no scheme. */
export type Start =
  { mode: 'site'; site: string; schemeGuessed?: true } | { mode: 'sitemap'; url: string; schemeGuessed?: true };

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** True when the text names its scheme (`https://…`, `ftp://…`); a bare host (`example.com`) does not. */
export function hasScheme(text: string): boolean {
  return SCHEME.test(text.trim());
}

/**
 * For a URL whose https was guessed (the host was typed bare): the same URL over http when the
 * server does not speak TLS, else the URL as it is. One request (the origin's robots.txt) tells.
 */
export async function withWorkingScheme(url: string, http: HttpClient, signal?: AbortSignal): Promise<string> {
  try {
    const response = await http.get(new URL('/robots.txt', url).href, { retries: 0, signal });
    response.discard();
  } catch (error) {
    if (error instanceof HttpError && error.kind === 'not-tls') return overHttp(url);
  }
  return url;
}

/** A host, origin or URL as typed → a site origin, or a sitemap URL to start from. */
export function resolveStart(input: string): Start {
  const text = input.trim();
  const schemeGiven = hasScheme(text);
  let url: URL;
  try {
    url = new URL(schemeGiven ? text : `https://${text}`);
  } catch {
    throw new TypeError(`"${input}" is not a site or a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`"${input}" is not an http(s) site or URL`);
  const guessed = schemeGiven ? {} : { schemeGuessed: true as const };
  if ((url.pathname === '/' || url.pathname === '') && url.search === '')
    return { mode: 'site', site: url.origin, ...guessed };
  url.hash = '';
  // A user name and password are never printed or stored (core/url-userinfo.ts), nor sent.
  url.username = '';
  url.password = '';
  return { mode: 'sitemap', url: url.href, ...guessed };
}

export interface Root {
  url: string;
  foundBy: FoundBy;
  /** Tried over http if https meets a server that does not speak TLS. */
  schemeGuessed?: true;
  /** The well-known location's answer, already in hand: its body is read, not fetched again. */
  fetched?: SitemapBody;
}

export interface Roots {
  mode: 'site' | 'sitemaps';
  robots?: RobotsTxt;
  probes: Probe[];
  roots: Root[];
  /** Why there are no roots, when there are none. */
  diagnostics: Diagnostic[];
}

export interface RootOptions {
  signal?: AbortSignal | undefined;
  wellKnownPaths?: readonly string[] | undefined;
  /** Decompressed bytes the parser reads of a sitemap (the probes' transfers stop a little above). */
  maxBytes: number;
}

/** The roots of one site, or of sitemap URLs: anything else is refused with a TypeError. */
export async function findRoots(inputs: readonly string[], http: HttpClient, options: RootOptions): Promise<Roots> {
  const starts = inputs.map(resolveStart);
  const first = starts[0];
  if (starts.length !== 1 || first?.mode !== 'site') {
    const roots = starts.map((start): Root => {
      if (start.mode === 'site')
        throw new TypeError(`give one site, or sitemap URLs: ${start.site} is a site among ${starts.length} inputs`);
      return { url: start.url, foundBy: 'explicit', ...(start.schemeGuessed ? { schemeGuessed: true } : {}) };
    });
    return { mode: 'sitemaps', probes: [], roots, diagnostics: [] };
  }
  let site = first.site;
  let robots = await fetchRobotsTxt(http, site, { signal: options.signal });
  if (first.schemeGuessed && robots.error?.kind === 'not-tls') {
    site = new URL(overHttp(site)).origin;
    robots = await fetchRobotsTxt(http, site, { signal: options.signal });
  }
  const found: Roots = { mode: 'site', robots, probes: [], roots: [], diagnostics: [] };
  if (robots.sitemaps.length > 0) {
    found.roots = robots.sitemaps.map((url) => ({ url, foundBy: 'robots' }));
    return found;
  }
  if (robots.outcome === 'unreachable') {
    found.diagnostics.push(
      diagnostic('FETCH-001', `no sitemap read: robots.txt is unreachable, so ${site} may not be crawled`, {
        source: robots.url,
      }),
    );
    return found;
  }
  const probed = await probeWellKnown(site, http, {
    isAllowed: (url) => robots.rules.isAllowed(url, http.userAgent),
    paths: options.wellKnownPaths,
    signal: options.signal,
    maxBytes: options.maxBytes,
  });
  found.probes = probed.probes;
  if (probed.found) {
    found.roots = [{ url: probed.found.url, foundBy: 'well-known', fetched: probed.found }];
  } else {
    found.diagnostics.push(
      diagnostic(
        'FETCH-001',
        `no sitemap found: robots.txt declares none and no well-known location answered (${probed.probes.length} tried)`,
        { source: site },
      ),
    );
  }
  return found;
}
