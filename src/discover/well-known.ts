/**
 * Where sites put sitemaps without declaring them in robots.txt, and a polite way to look: one
 * request at a time, no retries, in order of how common the location is, stopping at the first
 * that answers with a document that is not an HTML page.
 */
import { HttpError, isHtmlContentType, type HttpClient, type HttpResponse } from './http.js';

/** Most common first: the plain names, then CMS and generator defaults. */
export const WELL_KNOWN_SITEMAP_PATHS: readonly string[] = [
  '/sitemap.xml',
  '/sitemap_index.xml',
  '/sitemap-index.xml',
  '/sitemap.xml.gz',
  '/sitemap.txt',
  '/wp-sitemap.xml',
  '/sitemap/sitemap.xml',
  '/sitemaps.xml',
  '/sitemap1.xml',
  '/sitemap/index.xml',
];

export interface Probe {
  url: string;
  /** HTTP status, or undefined when there was no answer. */
  status?: number;
  /** Why the location was not taken, or 'found'. */
  outcome: 'found' | 'missing' | 'html' | 'blocked' | 'error';
}

export interface ProbeResult {
  probes: Probe[];
  /** The response of the location found, body unread, or undefined. */
  found?: HttpResponse;
}

/**
 * Tries each well-known location of `siteUrl`'s origin in turn. `isAllowed` keeps the probes
 * inside robots.txt; the body of the location found is left for the caller to read.
 */
export async function probeWellKnown(
  siteUrl: string,
  http: HttpClient,
  options: {
    isAllowed?: ((url: string) => boolean) | undefined;
    paths?: readonly string[] | undefined;
    signal?: AbortSignal | undefined;
    maxBytes?: number | undefined;
  } = {},
): Promise<ProbeResult> {
  const probes: Probe[] = [];
  for (const path of options.paths ?? WELL_KNOWN_SITEMAP_PATHS) {
    const url = new URL(path, siteUrl).href;
    if (options.isAllowed && !options.isAllowed(url)) {
      probes.push({ url, outcome: 'blocked' });
      continue;
    }
    let response: HttpResponse;
    try {
      response = await http.get(url, { retries: 0, signal: options.signal, maxBytes: options.maxBytes });
    } catch (error) {
      if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
      probes.push({ url, outcome: 'error' });
      continue;
    }
    if (response.status !== 200) {
      response.discard();
      probes.push({ url, status: response.status, outcome: 'missing' });
      continue;
    }
    if (isHtmlContentType(response.headers['content-type'])) {
      // A "soft 404": the site's HTML error or home page served for any path.
      response.discard();
      probes.push({ url, status: response.status, outcome: 'html' });
      continue;
    }
    probes.push({ url, status: response.status, outcome: 'found' });
    return { probes, found: response };
  }
  return { probes };
}
