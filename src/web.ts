/**
 * `sitemapkit/web`: sitemapkit on any runtime with the web platform's APIs — Deno, Bun,
 * Cloudflare Workers (workerd), browsers, and Node too. Nothing here imports a Node built-in: the
 * parser, the validator's document rules and the writer are the same modules the Node entry
 * uses, bound to the web's edge (ReadableStream, TextDecoder, DecompressionStream,
 * CompressionStream, Request and Response).
 *
 * ```ts
 * import { parseSitemap, serveSitemaps } from 'sitemapkit/web';
 *
 * for await (const entry of parseSitemap(await fetch('https://example.com/sitemap.xml.gz'))) console.log(entry.loc);
 * ```
 */
import { diagnostic } from './core/diagnostics.js';
import { readWebStream } from './parse/input/source.js';
import { WEB_INPUT } from './parse/input/web.js';
import { parserOn } from './parse/parser.js';
import { ParseError, type ParseOptions, type ParsedSitemap, type SitemapSource } from './parse/types.js';
import { fetchSitemap, TransferError, type FetchedResponse } from './http/sitemap-fetch.js';
import type { ValidateOptions, ValidationResult } from './validate/types.js';
import * as validator from './validate/validate.js';

export type {
  Alternate,
  Changefreq,
  DocumentKind,
  Entry,
  Image,
  News,
  SitemapRef,
  UrlEntry,
  Video,
} from './core/entry.js';
export type { Diagnostic, Severity } from './core/diagnostics.js';
export type { Position } from './core/position.js';
export { LIMITS } from './core/limits.js';
export {
  ParseError,
  type EntryLocation,
  type LocatedEntry,
  type ParseLimits,
  type ParseOptions,
  type ParseStats,
  type ParsedSitemap,
} from './parse/types.js';
export { DEFAULT_PARSE_LIMITS, entryBatches, locatedEntryBatches } from './parse/parser.js';
export type { ValidationResult } from './validate/types.js';
export { GenerateError } from './generate/errors.js';
export type { ExtensionName } from './generate/types.js';
export { sitemapStream, type SitemapStreamOptions, type UrlInput } from './generate/web-stream.js';
export { serveSitemaps, type PagedSource, type ServeSitemapsOptions } from './serve/serve-sitemaps.js';
export {
  HTML_SITEMAP_CSS,
  htmlSitemap,
  type HtmlSitemap,
  type HtmlSitemapDocument,
  type HtmlSitemapInput,
  type HtmlSitemapItem,
  type HtmlSitemapLabels,
  type HtmlSitemapOptions,
} from './generate/html-sitemap.js';

/**
 * What the web entry reads: a fetch `Response` (its status is checked as a crawler would: only
 * 200 is a sitemap), a byte stream, bytes, or the document as a string. Gzip is told from the
 * bytes, whatever the source.
 */
export type WebSitemapSource =
  | Response
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>
  | Uint8Array
  | ArrayBuffer
  | string
  | { text: string };

const parseOnWeb = parserOn(WEB_INPUT);

/**
 * Reads a sitemap (XML urlset or index with every extension, RSS, Atom, plain text; plain or
 * gzip) as a stream of entries, in constant memory, with the diagnostics, limits and strict mode
 * of the Node entry. Nothing is read until the result is iterated. A Response's URL names the
 * source and resolves relative locs unless `options` say otherwise; one that is not a 200 throws a
 * ParseError (FETCH-001, FETCH-004) when iterated.
 */
export function parseSitemap(source: WebSitemapSource, options: ParseOptions = {}): ParsedSitemap {
  if (source instanceof Response) {
    const url = source.url === '' ? undefined : source.url;
    const named = { ...options, source: options.source ?? url, baseUrl: options.baseUrl ?? url };
    return parseOnWeb(responseBody(source, named.source ?? 'response'), named);
  }
  return parseOnWeb(sourceOf(source), options);
}

/** Options of the web entry's {@link validateSitemap}. */
export interface WebValidateOptions extends Omit<
  ValidateOptions,
  'http' | 'robotsSitemaps' | 'recursive' | 'onDocument'
> {
  /** The name results and diagnostics give the document (default: the Response's URL, else 'sitemap'). */
  source?: string | undefined;
}

/** No files, no robots.txt: an index's children are not read here (validateSitemap reads one document). */
const WEB_ACCESS: validator.DocumentAccess = {
  parse: parseOnWeb,
  resolveChild: (childUrl) => ({ input: childUrl, location: childUrl }),
};

/**
 * Validates one document against every rule of the catalog that one document can break, as the
 * Node entry does: the same result, diagnostics and codes. A Response's URL is its location for
 * the scope rules (URL-004/005) unless `options.location` says where it is published.
 */
export function validateSitemap(source: WebSitemapSource, options: WebValidateOptions = {}): Promise<ValidationResult> {
  if (source instanceof Response) {
    const url = source.url === '' ? undefined : source.url;
    const name = options.source ?? url ?? 'sitemap';
    const location = options.location ?? url;
    return validator.validateSitemap(
      WEB_ACCESS,
      { name, input: responseBody(source, name) },
      location === undefined ? options : { ...options, location },
    );
  }
  return validator.validateSitemap(WEB_ACCESS, { name: options.source ?? 'sitemap', input: sourceOf(source) }, options);
}

/** A web source in the parser's terms: on the web a string is a document, never a path. */
function sourceOf(source: Exclude<WebSitemapSource, Response>): SitemapSource {
  if (typeof source === 'string') return { text: source };
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  return source;
}

/**
 * A Response's body after the transport rules every sitemap fetch goes through (http/sitemap-fetch.ts):
 * a status other than 200 throws a ParseError carrying FETCH-001 or FETCH-004; a body that breaks
 * off throws one carrying FETCH-001, after the entries read before the break.
 */
async function* responseBody(response: Response, name: string): AsyncGenerator<Uint8Array> {
  const answer = await fetchSitemap({ get: () => Promise.resolve(fetched(response, name)) }, name);
  if (!answer.ok) throw new ParseError(answer.diagnostics.at(-1) ?? diagnostic('FETCH-001', `${name} was not read`));
  try {
    yield* answer.body;
  } catch (error) {
    if (error instanceof TransferError) throw new ParseError(error.diagnostic);
    throw error;
  } finally {
    answer.release();
  }
}

async function* counted(
  chunks: AsyncIterable<Uint8Array>,
  transfer: { wireBytes: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    transfer.wireBytes += chunk.byteLength;
    yield chunk;
  }
}

async function* empty(): AsyncGenerator<Uint8Array> {}

/** A Response in the shape the transport rules read (`name` stands for a URL it was not fetched from). */
function fetched(response: Response, name: string): FetchedResponse {
  const transfer = { wireBytes: 0, truncated: false };
  const body = response.body;
  return {
    url: response.url === '' ? name : response.url,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    redirects: [],
    body: body === null ? empty() : counted(readWebStream(body), transfer),
    transfer,
    discard: () => {
      if (body !== null && !body.locked) void body.cancel().catch(() => undefined);
    },
  };
}
