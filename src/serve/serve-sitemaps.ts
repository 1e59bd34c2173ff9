/**
 * serveSitemaps: a set of sitemaps answered from a route, on any runtime with Request and
 * Response, from a paged source (a database query) instead of files. The entry point
 * (`/sitemap.xml`) is an index of the shards (`/sitemap-N.xml[.gz]`, N from 0), or the one urlset
 * itself when the set fits in one page. A shard is one page of the source streamed through
 * sitemapStream, so the set is never held in memory and the 200th shard costs what the 1st does.
 *
 * Caching: each answer carries an ETag and, when its entries have dates, a Last-Modified from the
 * newest lastmod (of the shard, or of all shards for the index); a request whose If-None-Match or
 * If-Modified-Since still holds gets 304 without a body (and without the page being streamed).
 */
import { LIMITS, fingerprint, formatUtcDateTime, w3cToEpochMillis } from '../core/index.js';
import type { CheckOptions, UrlInput } from '../generate/checked-entries.js';
import { folderUrl } from '../generate/checked-entries.js';
import { GenerateError } from '../generate/errors.js';
import { serializeSitemapIndex } from '../generate/serialize.js';
import type { ExtensionName } from '../generate/types.js';
import { sitemapStream } from '../generate/web-stream.js';

/**
 * A set of URLs read a page at a time: a database table, a search index, a product feed. Page
 * `index` holds the entries from `index * size` up to `(index + 1) * size` in a stable order (a
 * keyset or OFFSET query); the set is never read whole.
 */
export interface PagedSource {
  /** How many URLs the set holds now. */
  count(): number | Promise<number>;
  /** The `index`-th page of `size` entries (fewer on the last page). */
  page(index: number, size: number): Iterable<UrlInput> | AsyncIterable<UrlInput>;
  /**
   * The newest lastmod of a page (a `max(updated_at)` query), when the source can tell it without
   * reading the page: the index then lists each shard's lastmod, and a shard's ETag needs no first
   * pass over its page. Left out, a shard's page is read twice (once for its validators, once for
   * its body; a 304 needs only the first) and the index lists no lastmod.
   */
  lastmod?(index: number, size: number): string | Date | undefined | Promise<string | Date | undefined>;
}

/** Options of {@link serveSitemaps}. */
export interface ServeSitemapsOptions extends CheckOptions {
  /**
   * The public URL of the folder the sitemaps are served from (`https://example.com/` serves
   * `https://example.com/sitemap.xml`); the index lists shards under it, relative locs resolve
   * against it, and URLs outside it are refused unless `allowOtherHosts`.
   */
  baseUrl: string;
  /** URLs per shard; default and maximum 50,000. */
  pageSize?: number | undefined;
  /** List the shards as gzip files (`sitemap-N.xml.gz`). Either form of a shard is answered whatever this says. */
  gzip?: boolean | undefined;
  /** Name of the files: `<name>.xml` and `<name>-N.xml`; default 'sitemap'. */
  fileBaseName?: string | undefined;
  /** URL of an XSLT or CSS stylesheet, written as an xml-stylesheet processing instruction. */
  stylesheet?: string | undefined;
  /** Extension namespaces declared on every urlset root; default all four. */
  namespaces?: readonly ExtensionName[] | undefined;
  /** Accept URLs on another host or outside baseUrl's folder (cross-submission through robots.txt). */
  allowOtherHosts?: boolean | undefined;
  /** A Cache-Control header for every answer (e.g. `public, max-age=3600`); none by default. */
  cacheControl?: string | undefined;
  /** The present, for DATE-005 and NEWS-003 and to ignore lastmods in the future; default: the clock. */
  now?: Date | undefined;
}

const XML_TYPE = 'application/xml; charset=utf-8';
const GZIP_TYPE = 'application/gzip';
/** Shards whose lastmod is asked for at once while the index is written. */
const LASTMOD_CONCURRENCY = 8;

/**
 * Answers a request for the sitemaps of a paged source: the index at `<baseUrl><name>.xml`, the
 * shards at `<baseUrl><name>-N.xml` and `<name>-N.xml.gz`. Anything else under the route is a
 * 404, as is a shard past the last; methods other than GET and HEAD get 405.
 *
 * ```ts
 * export default {
 *   fetch: (request: Request) => serveSitemaps(request, products, { baseUrl: 'https://shop.example.com/' }),
 * };
 * ```
 */
export async function serveSitemaps(
  request: Request,
  source: PagedSource,
  options: ServeSitemapsOptions,
): Promise<Response> {
  const settings = settingsOf(options);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('sitemaps answer GET and HEAD only\n', {
      status: 405,
      headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const wanted = routeOf(new URL(request.url).pathname, settings);
  if (wanted === undefined)
    return notFound(`no sitemap is served at this path; the entry point is ${settings.entryUrl}`);
  const count = await source.count();
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`the source's count() must be a whole number of URLs, not ${count}`);
  const shards = Math.ceil(count / settings.pageSize);
  if (shards > LIMITS.maxSitemapsPerIndex) {
    throw new RangeError(
      `${count.toLocaleString('en-US')} URLs need ${shards.toLocaleString('en-US')} shards of ${settings.pageSize.toLocaleString('en-US')}, more than one index may list (${LIMITS.maxSitemapsPerIndex.toLocaleString('en-US')})`,
    );
  }
  const answer = new Answer(request, settings, count);
  if (wanted.kind === 'entry') {
    if (count === 0) return notFound('the set has no URLs yet, so there is no sitemap to serve');
    if (shards === 1) return answer.page(source, 0, false);
    return answer.index(source, shards);
  }
  if (shards <= 1 || wanted.index >= shards) {
    const served = shards <= 1 ? `the set fits one sitemap, served at ${settings.entryUrl}` : `${shards} shards`;
    return notFound(`there is no shard ${wanted.index} (${served})`);
  }
  return answer.page(source, wanted.index, wanted.gzip);
}

interface Settings {
  options: ServeSitemapsOptions;
  baseUrl: string;
  /** The path of the base URL's folder, ending in '/'. */
  basePath: string;
  baseName: string;
  entryUrl: string;
  pageSize: number;
  now: number;
  /** Tells apart the answers of different settings in the validators. */
  variant: string;
}

function settingsOf(options: ServeSitemapsOptions): Settings {
  const pageSize = options.pageSize ?? LIMITS.maxUrlsPerSitemap;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > LIMITS.maxUrlsPerSitemap)
    throw new RangeError(`pageSize must be a whole number from 1 to ${LIMITS.maxUrlsPerSitemap}, not ${pageSize}`);
  const baseName = options.fileBaseName ?? 'sitemap';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(baseName))
    throw new RangeError(`fileBaseName "${baseName}" must be a plain file name`);
  const baseUrl = folderUrl(options.baseUrl);
  const variant = JSON.stringify([baseUrl, baseName, pageSize, options.stylesheet, options.namespaces]);
  return {
    options,
    baseUrl,
    basePath: new URL(baseUrl).pathname,
    baseName,
    entryUrl: `${baseUrl}${baseName}.xml`,
    pageSize,
    now: options.now?.getTime() ?? Date.now(),
    variant,
  };
}

type Route = { kind: 'entry' } | { kind: 'shard'; index: number; gzip: boolean };

/** What a path asks for: the entry point, a shard (N without leading zeros), or nothing of ours. */
function routeOf(path: string, settings: Settings): Route | undefined {
  if (!path.startsWith(settings.basePath)) return undefined;
  const name = path.slice(settings.basePath.length);
  if (name === `${settings.baseName}.xml`) return { kind: 'entry' };
  const prefix = `${settings.baseName}-`;
  if (!name.startsWith(prefix)) return undefined;
  const shard = /^(0|[1-9]\d{0,8})\.xml(\.gz)?$/.exec(name.slice(prefix.length));
  return shard === null ? undefined : { kind: 'shard', index: Number(shard[1]), gzip: shard[2] !== undefined };
}

function shardUrl(settings: Settings, index: number): string {
  return `${settings.baseUrl}${settings.baseName}-${index}.xml${settings.options.gzip ? '.gz' : ''}`;
}

/** The answers to one request, with its conditional headers. */
class Answer {
  constructor(
    private readonly request: Request,
    private readonly settings: Settings,
    private readonly count: number,
  ) {}

  /** The index of `shards` shards (each with its lastmod when the source can tell it). */
  async index(source: PagedSource, shards: number): Promise<Response> {
    const { settings } = this;
    const newest = await shardLastmods(source, shards, settings);
    const refs = newest.map((millis, index) => {
      const loc = shardUrl(settings, index);
      return millis === undefined ? { loc } : { loc, lastmod: formatUtcDateTime(new Date(millis)) };
    });
    const stylesheet = settings.options.stylesheet;
    const xml = serializeSitemapIndex(refs, stylesheet === undefined ? {} : { stylesheet });
    const dated = newest.filter((millis): millis is number => millis !== undefined);
    const lastModified = dated.length === 0 ? undefined : Math.max(...dated);
    return this.respond(etagOf(xml), lastModified, XML_TYPE, () => xml);
  }

  /** Page `index` as a urlset, gzip or not. */
  async page(source: PagedSource, index: number, gzip: boolean): Promise<Response> {
    const { settings } = this;
    const size = settings.pageSize;
    const newest = source.lastmod
      ? lastmodMillis(await source.lastmod(index, size), settings.now)
      : await newestOfPage(source.page(index, size), size, settings.now);
    const etag = etagOf(`${settings.variant} ${this.count} ${index} ${newest ?? '-'}`, gzip ? 'gz' : 'xml');
    return this.respond(etag, newest, gzip ? GZIP_TYPE : XML_TYPE, () =>
      sitemapStream(pageOf(source, index, size), { ...settings.options, gzip }),
    );
  }

  private respond(
    etag: string,
    lastModified: number | undefined,
    contentType: string,
    body: () => ReadableStream<Uint8Array> | string,
  ): Response {
    const headers = new Headers({ etag });
    if (lastModified !== undefined) headers.set('last-modified', new Date(lastModified).toUTCString());
    const { cacheControl } = this.settings.options;
    if (cacheControl !== undefined) headers.set('cache-control', cacheControl);
    if (this.unchanged(etag, lastModified)) return new Response(null, { status: 304, headers });
    headers.set('content-type', contentType);
    return new Response(this.request.method === 'HEAD' ? null : body(), { status: 200, headers });
  }

  /** RFC 9110 §13.2.2: If-None-Match (weak comparison) when present, else If-Modified-Since. */
  private unchanged(etag: string, lastModified: number | undefined): boolean {
    const noneMatch = this.request.headers.get('if-none-match');
    if (noneMatch !== null) {
      const opaque = etag.replace(/^W\//, '');
      return noneMatch
        .split(',')
        .map((tag) => tag.trim().replace(/^W\//, ''))
        .some((tag) => tag === '*' || tag === opaque);
    }
    const modifiedSince = this.request.headers.get('if-modified-since');
    if (modifiedSince === null || lastModified === undefined) return false;
    const since = Date.parse(modifiedSince);
    // HTTP dates have whole seconds: a lastmod within the second given is not newer.
    return !Number.isNaN(since) && Math.floor(lastModified / 1000) * 1000 <= since;
  }
}

/** A weak validator: the same for equivalent answers, different when what they list changed. */
function etagOf(text: string, variant = ''): string {
  const hash = new Uint32Array(2);
  fingerprint(text, hash);
  return `W/"${hash[0]!.toString(36)}${hash[1]!.toString(36)}${variant === '' ? '' : `-${variant}`}"`;
}

/** A lastmod as epoch milliseconds, when it is a date that is not in the future. */
function lastmodMillis(value: string | Date | undefined, now: number): number | undefined {
  const millis = value instanceof Date ? value.getTime() : value === undefined ? undefined : w3cToEpochMillis(value);
  return millis === undefined || Number.isNaN(millis) || millis > now ? undefined : millis;
}

/** The newest lastmod of each shard, from the source's lastmod() (none without it). */
async function shardLastmods(source: PagedSource, shards: number, settings: Settings): Promise<(number | undefined)[]> {
  const newest = new Array<number | undefined>(shards).fill(undefined);
  if (!source.lastmod) return newest;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < shards; index = next++)
      newest[index] = lastmodMillis(await source.lastmod!(index, settings.pageSize), settings.now);
  };
  await Promise.all(Array.from({ length: Math.min(LASTMOD_CONCURRENCY, shards) }, worker));
  return newest;
}

/** The newest lastmod of a page, read in one pass that keeps nothing but the newest. */
async function newestOfPage(
  entries: Iterable<UrlInput> | AsyncIterable<UrlInput>,
  size: number,
  now: number,
): Promise<number | undefined> {
  let newest: number | undefined;
  let read = 0;
  const consider = (entry: UrlInput): void => {
    if (++read > size) throw oversizedPage(size);
    const millis = typeof entry?.lastmod === 'string' ? lastmodMillis(entry.lastmod, now) : undefined;
    if (millis !== undefined && (newest === undefined || millis > newest)) newest = millis;
  };
  if (Symbol.iterator in entries) for (const entry of entries) consider(entry);
  else for await (const entry of entries) consider(entry);
  return newest;
}

/** Page `index` of the source, refusing a page longer than asked for (which would break the paging). */
function pageOf(source: PagedSource, index: number, size: number): Iterable<UrlInput> | AsyncIterable<UrlInput> {
  const entries = source.page(index, size);
  return Symbol.iterator in entries ? capped(entries, size) : cappedAsync(entries, size);
}

function* capped(entries: Iterable<UrlInput>, size: number): Generator<UrlInput> {
  let read = 0;
  for (const entry of entries) {
    if (++read > size) throw oversizedPage(size);
    yield entry;
  }
}

async function* cappedAsync(entries: AsyncIterable<UrlInput>, size: number): AsyncGenerator<UrlInput> {
  let read = 0;
  for await (const entry of entries) {
    if (++read > size) throw oversizedPage(size);
    yield entry;
  }
}

function oversizedPage(size: number): GenerateError {
  return new GenerateError(
    `the source's page() gave more than the ${size.toLocaleString('en-US')} entries asked for; a page must hold at most its size, or shards would overlap`,
  );
}

function notFound(message: string): Response {
  return new Response(`${message}\n`, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
