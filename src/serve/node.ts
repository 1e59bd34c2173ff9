/**
 * serveSitemaps on Node's http server: the request is handed over as a web Request, the Response
 * streamed back into the ServerResponse with backpressure. A client that goes away cancels the
 * body, which stops reading the source's page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Diagnostic } from '../core/diagnostics.js';
import { serveSitemaps, type PagedSource, type ServeSitemapsOptions } from './serve-sitemaps.js';

/** Options of {@link sitemapHandler}. */
export interface SitemapHandlerOptions extends ServeSitemapsOptions {
  /**
   * Called with what went wrong when an answer failed (the source threw, or the body broke off on
   * our side); the client got a 500 when nothing had been sent yet. A client that goes away is not
   * a failure and is not reported. Default: console.error.
   */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * Called for each problem of an entry served (an error left the entry or a field out). Left out,
   * an answer that left entries out says so in one console.warn line: how many, and the first why.
   */
  onProblem?: ((problem: Diagnostic) => void) | undefined;
}

/** A request handler for Node's http server, with the count of entries its answers left out. */
export interface SitemapHandler {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Entries left out of the answers so far (a `loc` refused, a URL repeated): none is lost unsaid. */
  readonly dropped: number;
}

/** The request headers serveSitemaps reads: the conditional ones. */
const FORWARDED_HEADERS = ['if-none-match', 'if-modified-since'] as const;

/** Errors of a response whose client went away: nothing the server did wrong. */
const DISCONNECTS = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * A request handler for `http.createServer` (or Express, Fastify's raw mode…) that answers the
 * sitemaps of a paged source as {@link serveSitemaps} does. Its promise settles when the answer
 * is sent; it never rejects (failures go to `onError`). Methods other than GET and HEAD get 405,
 * a Host header that is no host 400. Entries left out are counted in `dropped` and reported.
 *
 * ```ts
 * const sitemaps = sitemapHandler(products, { baseUrl: 'https://shop.example.com/' });
 * createServer((req, res) => (req.url?.startsWith('/sitemap') ? sitemaps(req, res) : app(req, res)));
 * ```
 */
export function sitemapHandler(source: PagedSource, options: SitemapHandlerOptions): SitemapHandler {
  const onError = options.onError ?? ((error: unknown) => console.error('sitemapkit: a sitemap answer failed:', error));
  let dropped = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      plain(response, 405, 'sitemaps answer GET and HEAD only\n', { allow: 'GET, HEAD' });
      return;
    }
    const url = requestUrl(request);
    if (url === undefined) {
      plain(response, 400, 'the Host header does not name a host\n');
      return;
    }
    let droppedHere = 0;
    let firstDrop: Diagnostic | undefined;
    const answerOptions: ServeSitemapsOptions = {
      ...options,
      onDropped: (problem) => {
        dropped++;
        droppedHere++;
        firstDrop ??= problem;
        options.onDropped?.(problem);
      },
    };
    try {
      const answer = await serveSitemaps(
        new Request(url, { method, headers: conditionalHeaders(request) }),
        source,
        answerOptions,
      );
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body === null) response.end();
      else await pipeline(Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>), response);
    } catch (error) {
      if (DISCONNECTS.has((error as { code?: unknown } | null)?.code as string)) return; // the client went away
      if (!response.headersSent) plain(response, 500, 'the sitemap could not be served\n');
      else response.destroy();
      onError(error);
    } finally {
      if (firstDrop !== undefined && options.onProblem === undefined) {
        console.warn(
          `sitemapkit: ${url.pathname} left out ${droppedHere.toLocaleString('en-US')} ${droppedHere === 1 ? 'entry' : 'entries'} of the source; the first: ${firstDrop.message}`,
        );
      }
    }
  };
  return Object.defineProperty(handle, 'dropped', { get: () => dropped, enumerable: true }) as SitemapHandler;
}

function plain(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(body);
}

function conditionalHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return headers;
}

/** The URL asked for, or undefined when the Host header is not a host (and an optional port). */
function requestUrl(request: IncomingMessage): URL | undefined {
  const host = request.headers.host ?? 'localhost';
  if (!/^(?:\[[0-9A-Fa-f:.]+\]|[^\s/?#@\\[\]:]+)(?::\d{1,5})?$/.test(host)) return undefined;
  try {
    return new URL(request.url ?? '/', `http://${host}`);
  } catch {
    return undefined;
  }
}
