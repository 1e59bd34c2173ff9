/**
 * The listing decision for one fetched URL: listed only when it
 * answered 200 with HTML (by its bytes, not only its Content-Type), was read whole (no size limit
 * cut it), does not send the browser on (meta refresh, script), is not noindex and is its own
 * canonical (or has none). Every other outcome has a reason. Also returns the URLs the page leads
 * to, each with how it was found.
 *
 * In two steps: readAnswer streams the body through the HTML reader (I/O, async), judgeAnswer
 * decides from what was read (pure, synchronous).
 */
import { createHash } from 'node:crypto';
import { pageLastmod, w3cToEpochMillis } from '../core/datetime.js';
import type { Alternate } from '../core/entry.js';
import { isHtmlContentType } from '../http/client.js';
import { LIMITS } from '../core/limits.js';
import { addRobotsHeader, type RobotsDirectives } from '../html/directives.js';
import type { ClientRedirect } from '../html/client-redirect.js';
import { charsetOf } from '../html/one-pass.js';
import { createHtmlReader, type PageFacts } from './html.js';
import { lastmodFromHeader } from './lastmod.js';
import { folderUrl } from './normalise.js';
import { pageShape } from './page-shape.js';
import { parseLinkHeader } from './link-header.js';
import { SNIFF_BYTES, whyNotHtml } from './sniff.js';
import { headerValues, type CutOff, type FetchedPage, type LeftOutReason, type ListedEntry } from './types.js';
import { looksAbsoluteHttp } from '../core/url.js';

/**
 * How a URL was found: links lead one level deeper; a redirect or canonical is the same page, and
 * so is `index-file`, the index file of a folder whose URL does not answer. A page's own redirect
 * (meta refresh, script) is followed like a link, a level deeper: nothing but the depth limit
 * bounds a chain of them, as the fetcher's hop limit bounds HTTP redirects.
 */
export type Via = 'link' | 'alternate' | 'redirect' | 'client-redirect' | 'canonical' | 'index-file';

export interface Discovered {
  url: string;
  via: Via;
}

export type Verdict = { outcome: 'listed'; entry: ListedEntry } | { outcome: LeftOutReason; detail: string };

export interface Judgement {
  verdict: Verdict;
  discovered: Discovered[];
}

/** Normalises a found URL (see normalise.ts); undefined drops it. */
export type Normaliser = (href: string) => string | undefined;

/**
 * An answer with its body read: `facts` is what the page says; `notHtml` why it is no HTML page,
 * when its bytes say so; `cut` the size limit that stopped the reading, when one did.
 */
export interface ReadAnswer {
  page: FetchedPage;
  facts?: PageFacts;
  notHtml?: string;
  cut?: CutOff;
  /** The page's shape (./page-shape.ts), when it was asked for. */
  shape?: string;
  /** A digest of the HTML's bytes as served (see ListedEntry.bodyDigest). */
  bodyDigest?: string;
}

/** Hex digits kept of a body's digest: 128 bits tell pages apart. */
const BODY_DIGEST_CHARS = 32;

/**
 * Reads the body of a 200 answer declared HTML (or of no type): its first bytes decide whether it
 * is HTML at all, then the HTML reader takes it chunk by chunk. Lets go of any other body unread.
 * With `shape`, the page's shape is read too (the trap rules ask for it on long chains only: it
 * holds the page's bytes until the end).
 */
export async function readAnswer(page: FetchedPage, { shape = false }: { shape?: boolean } = {}): Promise<ReadAnswer> {
  const contentType = headerValues(page.headers, 'content-type')[0];
  if (page.status !== 200 || (contentType !== undefined && !isHtmlContentType(contentType))) {
    page.discard?.();
    return { page };
  }
  const body = chunksOf(page.body)[Symbol.asyncIterator]();
  try {
    const head = await readHead(body, SNIFF_BYTES);
    const notHtml = await whyNotHtml(Buffer.concat(head.chunks), contentType);
    if (notHtml !== undefined) return { page, notHtml };
    // Relative URLs resolve against the URL that answered, at the end of any redirects.
    const reader = createHtmlReader(page.url, charsetOf(contentType));
    const digest = createHash('sha256');
    const kept: Uint8Array[] | undefined = shape ? [...head.chunks] : undefined;
    for (const chunk of head.chunks) {
      reader.write(chunk);
      digest.update(chunk);
    }
    if (!head.done)
      for (let next = await body.next(); next.done !== true; next = await body.next()) {
        reader.write(next.value);
        digest.update(next.value);
        kept?.push(next.value);
      }
    const facts = reader.end();
    const cut = page.cutOff?.();
    const bodyDigest = digest.digest('hex').slice(0, BODY_DIGEST_CHARS);
    const read: ReadAnswer = cut === undefined ? { page, facts, bodyDigest } : { page, facts, cut, bodyDigest };
    if (kept !== undefined) read.shape = await pageShape(kept);
    return read;
  } finally {
    await body.return?.();
    page.discard?.();
  }
}

async function* chunksOf(body: FetchedPage['body']): AsyncIterable<Uint8Array> {
  if (body instanceof Uint8Array) yield body;
  else yield* body;
}

/** The first chunks of a body, until they hold `bytes` bytes or the body ends (the audit sniffs pages with it too). */
export async function readHead(
  body: AsyncIterator<Uint8Array>,
  bytes: number,
): Promise<{ chunks: Uint8Array[]; done: boolean }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < bytes) {
    const next = await body.next();
    if (next.done === true) return { chunks, done: true };
    chunks.push(next.value);
    length += next.value.length;
  }
  return { chunks, done: false };
}

export function judgeAnswer(
  url: string,
  { page, facts, notHtml, cut, bodyDigest }: ReadAnswer,
  normalise: Normaliser,
): Judgement {
  const redirect = judgeRedirect(url, page, normalise);
  if (redirect !== undefined) return redirect;
  if (page.status !== 200) {
    const outcome = isServerError(page.status) ? 'server-error' : 'http-error';
    return { verdict: { outcome, detail: `HTTP ${page.status}` }, discovered: indexFileOf(url, page.status) };
  }
  if (facts === undefined) {
    const detail = notHtml ?? headerValues(page.headers, 'content-type')[0] ?? 'no Content-Type';
    return { verdict: { outcome: 'non-html', detail }, discovered: [] };
  }

  const signals = readSignals(page, facts, normalise);
  const discovered: Discovered[] = [
    ...(signals.directives.nofollow ? [] : signals.links.map((link): Discovered => ({ url: link, via: 'link' }))),
    ...signals.alternates.map((alternate): Discovered => ({ url: alternate.href, via: 'alternate' })),
  ];
  // What was read before the cut is followed; the page is not listed: the rest of it went unseen.
  if (cut !== undefined) return { verdict: { outcome: 'cut-off', detail: describeCut(cut) }, discovered };
  const clientRedirect = judgeClientRedirect(url, facts.clientRedirect, normalise);
  if (clientRedirect !== undefined) {
    return { verdict: clientRedirect.verdict, discovered: [...clientRedirect.discovered, ...discovered] };
  }
  if (signals.directives.noindex) {
    return { verdict: { outcome: 'noindex', detail: `noindex in the ${signals.noindexSource}` }, discovered };
  }
  // One canonical elsewhere wins; conflicting canonicals are ignored (CR-04).
  const [canonical, ...others] = signals.canonicals;
  if (canonical !== undefined && others.length === 0 && canonical !== url) {
    discovered.push({ url: canonical, via: 'canonical' });
    return { verdict: { outcome: 'canonicalised', detail: `canonical is ${canonical}` }, discovered };
  }
  const entry = listedEntry(url, page, signals);
  if (bodyDigest !== undefined) entry.bodyDigest = bodyDigest;
  return { verdict: { outcome: 'listed', entry }, discovered };
}

/**
 * Links to a folder's index file are followed to the folder's URL (normalise.ts's folderUrl); a
 * folder URL the server does not answer (no directory index: 403, 404, 410) falls back to its
 * `index.html`, so the page is not lost.
 */
function indexFileOf(url: string, status: number): Discovered[] {
  if (status !== 403 && status !== 404 && status !== 410) return [];
  if (!url.endsWith('/') || url.includes('?')) return [];
  return [{ url: `${url}index.html`, via: 'index-file' }];
}

/** 429 and 5xx: the server failed, the page may well exist (501 Not Implemented is an answer). */
function isServerError(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

function describeCut({ limitBytes, wireBytes }: CutOff): string {
  const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;
  // Compression beyond 100:1 is no ordinary page: say what it looks like.
  const why =
    wireBytes * 100 < limitBytes
      ? `unpacked from ${bytes(wireBytes)} on the wire: a compression bomb?`
      : 'the page is larger, or never ends';
  return `cut off at ${bytes(limitBytes)} (--max-page-bytes): ${why}`;
}

/** What the page says about itself, from its HTML and its headers alike, URLs normalised. */
interface PageSignals {
  links: string[];
  canonicals: string[];
  alternates: Alternate[];
  images: string[];
  directives: RobotsDirectives;
  noindexSource: string;
  /** When the page says it last changed, as written. */
  modified: string | undefined;
}

function readSignals(page: FetchedPage, facts: PageFacts, normalise: Normaliser): PageSignals {
  const headerLinks = headerValues(page.headers, 'link').flatMap(parseLinkHeader);
  const directives: RobotsDirectives = { ...facts.directives };
  for (const value of headerValues(page.headers, 'x-robots-tag')) addRobotsHeader(directives, value);
  const headerCanonicals = headerLinks
    .filter((link) => link.rel.includes('canonical'))
    .map((link) => resolveAgainst(link.target, page.url));
  const headerAlternates = headerLinks
    .filter((link) => link.rel.includes('alternate') && link.hreflang)
    .map((link) => ({ hreflang: link.hreflang!, href: resolveAgainst(link.target, page.url) ?? '' }));
  return {
    links: defined(facts.links.map((link) => asFolder(normalise(link)))),
    canonicals: [
      ...new Set(defined([...facts.canonicals, ...defined(headerCanonicals)].map((href) => normalise(href)))),
    ],
    alternates: distinctAlternates([...facts.alternates, ...headerAlternates], normalise),
    images: facts.images.filter(looksAbsoluteHttp),
    directives,
    noindexSource: facts.directives.noindex ? 'robots <meta> tag' : 'X-Robots-Tag header',
    modified: facts.modified,
  };
}

/**
 * The sitemap entry of a listed page: images, hreflang alternates, and lastmod, as `generate DIR`
 * dates a page: by its own date when it gives one (not later than the fetch), else by
 * Last-Modified (CR-07), which is kept beside it either way.
 */
function listedEntry(url: string, page: FetchedPage, signals: PageSignals): ListedEntry {
  const entry: ListedEntry = { kind: 'url', loc: url };
  const lastModified = lastmodFromHeader(
    headerValues(page.headers, 'last-modified')[0],
    page.fetchedAt,
    headerValues(page.headers, 'date')[0],
  );
  const lastmod = ownLastmod(signals.modified, page.fetchedAt) ?? lastModified;
  if (lastmod !== undefined) entry.lastmod = lastmod;
  if (lastModified !== undefined) entry.lastModified = lastModified;
  const images = signals.images.slice(0, LIMITS.maxImagesPerUrl);
  if (images.length > 0) entry.images = images.map((loc) => ({ loc }));
  if (signals.alternates.length > 0) entry.alternates = signals.alternates;
  return entry;
}

/** The page's own date as a lastmod; undefined when it has none, or one later than the fetch. */
function ownLastmod(modified: string | undefined, fetchedAt: number): string | undefined {
  const lastmod = pageLastmod(modified);
  const millis = lastmod === undefined ? undefined : w3cToEpochMillis(lastmod);
  return millis === undefined || millis > fetchedAt ? undefined : lastmod;
}

/**
 * A URL that redirected elsewhere is left out and its target queued, to be judged as itself
 * (CR-06). A redirect back to the same normalised URL (a dropped tracking parameter) is no
 * redirect: the answer is judged as the page.
 */
function judgeRedirect(url: string, page: FetchedPage, normalise: Normaliser): Judgement | undefined {
  const first = page.redirects[0];
  if (first === undefined) return undefined;
  const target = normalise(page.url);
  if (target === url) return undefined;
  if (target === undefined) {
    return {
      verdict: { outcome: 'http-error', detail: `redirects to ${page.url}, which cannot be crawled` },
      discovered: [],
    };
  }
  const hops = page.redirects.length === 1 ? '' : ` in ${page.redirects.length} hops`;
  return {
    verdict: { outcome: 'redirected', detail: `HTTP ${first.status} to ${target}${hops}` },
    discovered: [{ url: target, via: 'redirect' }],
  };
}

/**
 * A page that sends the browser on by itself (a meta refresh with a URL, a script) is left out
 * and its target queued (CR-06), whatever its robots directives say, as an HTTP redirect's would
 * be. Its links are still followed. One that sends the browser back to itself is the page.
 */
function judgeClientRedirect(
  url: string,
  redirect: ClientRedirect | undefined,
  normalise: Normaliser,
): Judgement | undefined {
  if (redirect === undefined) return undefined;
  const target = asFolder(normalise(redirect.href));
  if (target === url) return undefined;
  const how =
    redirect.kind === 'meta-refresh'
      ? `meta refresh${redirect.delaySeconds > 0 ? ` after ${redirect.delaySeconds} s` : ''}`
      : `${redirect.how} in an inline script`;
  if (target === undefined) {
    return {
      verdict: { outcome: redirect.kind, detail: `${how} to ${redirect.href}, which cannot be crawled` },
      discovered: [],
    };
  }
  return {
    verdict: { outcome: redirect.kind, detail: `${how} to ${target}` },
    discovered: [{ url: target, via: 'client-redirect' }],
  };
}

function resolveAgainst(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

function asFolder(url: string | undefined): string | undefined {
  return url === undefined ? undefined : folderUrl(url);
}

function defined(values: (string | undefined)[]): string[] {
  return values.filter((value): value is string => value !== undefined);
}

function distinctAlternates(alternates: Alternate[], normalise: Normaliser): Alternate[] {
  const seen = new Set<string>();
  const result: Alternate[] = [];
  for (const { hreflang, href } of alternates) {
    const target = href === '' ? undefined : asFolder(normalise(href));
    const key = `${hreflang.toLowerCase()} ${target}`;
    if (target === undefined || seen.has(key)) continue;
    seen.add(key);
    result.push({ hreflang, href: target });
  }
  return result;
}
