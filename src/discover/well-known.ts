/**
 * Where sites put sitemaps without declaring them in robots.txt, and a polite way to look: one
 * request at a time, no retries, in order of how common the location is, stopping at the first
 * that answers with a sitemap. A page served as HTML is a "soft 404" only when its bytes are
 * HTML too: some servers label their sitemaps text/html.
 */
import { fetchSitemap, TransferError, type SitemapBody, type SitemapFetcher } from '../http/sitemap-fetch.js';
import { isHtmlContentType, type HttpClient } from '../http/client.js';
import { looksAbsoluteHttp } from '../core/url.js';

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
  /** The sitemap found, its body unread (its first bytes, looked at, are still in it), or undefined. */
  found?: SitemapBody;
}

/** Bytes looked at before an HTML-labelled answer is taken for a soft 404. */
const SNIFF_BYTES = 1024;

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
  // A probe asks once: a location that fails is not where the sitemap is.
  const once: SitemapFetcher = { get: (url, request) => http.get(url, { ...request, retries: 0 }) };
  for (const path of options.paths ?? WELL_KNOWN_SITEMAP_PATHS) {
    const url = new URL(path, siteUrl).href;
    if (options.isAllowed && !options.isAllowed(url)) {
      probes.push({ url, outcome: 'blocked' });
      continue;
    }
    const fetched = await fetchSitemap(once, url, { signal: options.signal, maxBytes: options.maxBytes });
    if (!fetched.ok) {
      probes.push({
        url,
        ...(fetched.status === undefined ? {} : { status: fetched.status }),
        outcome: fetched.status === undefined ? 'error' : 'missing',
      });
      continue;
    }
    if (isHtmlContentType(fetched.headers['content-type'])) {
      const peeked = await peek(fetched.body, SNIFF_BYTES).catch((error: unknown) => {
        if (error instanceof TransferError) return undefined;
        throw error;
      });
      if (peeked === undefined) {
        fetched.release();
        probes.push({ url, status: fetched.status, outcome: 'error' });
        continue;
      }
      const { head, body } = peeked;
      if (!looksLikeSitemap(head)) {
        // A "soft 404": the site's HTML error or home page served for any path.
        fetched.release();
        probes.push({ url, status: fetched.status, outcome: 'html' });
        continue;
      }
      probes.push({ url, status: fetched.status, outcome: 'found' });
      return { probes, found: { ...fetched, body } };
    }
    probes.push({ url, status: fetched.status, outcome: 'found' });
    return { probes, found: fetched };
  }
  return { probes };
}

/**
 * Whether the first bytes of a document are those of a sitemap: gzip, an XML sitemap, index or
 * feed, or a text sitemap (its first line an absolute http(s) URL).
 */
export function looksLikeSitemap(head: Uint8Array): boolean {
  if (head[0] === 0x1f && head[1] === 0x8b) return true;
  const text = new TextDecoder()
    .decode(head)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/<(urlset|sitemapindex|rss|feed|rdf:RDF)[\s>]/i.test(text)) return true;
  const firstLine = text.split('\n', 1)[0]!.trim();
  return looksAbsoluteHttp(firstLine) && !/\s/.test(firstLine);
}

/** The first `bytes` of a body (or all of it, if shorter), and the body again from its start. */
async function peek(
  body: AsyncIterable<Uint8Array>,
  bytes: number,
): Promise<{ head: Uint8Array; body: AsyncIterable<Uint8Array> }> {
  const iterator = body[Symbol.asyncIterator]();
  const seen: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    seen.push(next.value);
    length += next.value.length;
  }
  return { head: Buffer.concat(seen).subarray(0, bytes), body: replay(seen, ended ? undefined : iterator) };
}

/** The chunks already read, then the rest of the body (when it did not end). */
async function* replay(seen: Uint8Array[], rest: AsyncIterator<Uint8Array> | undefined): AsyncGenerator<Uint8Array> {
  yield* seen;
  if (rest !== undefined) yield* { [Symbol.asyncIterator]: () => rest };
}
