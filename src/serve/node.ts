/**
 * serveSitemaps on Node's http server: the request is handed over as a web Request, the Response
 * streamed back into the ServerResponse with backpressure. A client that goes away cancels the
 * body, which stops reading the source's page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { serveSitemaps, type PagedSource, type ServeSitemapsOptions } from './serve-sitemaps.js';

/** Options of {@link sitemapHandler}. */
export interface SitemapHandlerOptions extends ServeSitemapsOptions {
  /**
   * Called with what went wrong when an answer failed (the source threw, or the client went away
   * mid-body); the client got a 500 when nothing had been sent yet. Default: console.error.
   */
  onError?: ((error: unknown) => void) | undefined;
}

/** The request headers serveSitemaps reads: the conditional ones. */
const FORWARDED_HEADERS = ['if-none-match', 'if-modified-since'] as const;

/**
 * A request handler for `http.createServer` (or Express, Fastify's raw mode…) that answers the
 * sitemaps of a paged source as {@link serveSitemaps} does. Its promise settles when the answer
 * is sent; it never rejects (failures go to `onError`).
 *
 * ```ts
 * const sitemaps = sitemapHandler(products, { baseUrl: 'https://shop.example.com/' });
 * createServer((req, res) => (req.url?.startsWith('/sitemap') ? sitemaps(req, res) : app(req, res)));
 * ```
 */
export function sitemapHandler(
  source: PagedSource,
  options: SitemapHandlerOptions,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const onError = options.onError ?? ((error: unknown) => console.error('sitemapkit: a sitemap answer failed:', error));
  return async (request, response) => {
    try {
      const answer = await serveSitemaps(webRequest(request), source, options);
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body === null) response.end();
      else await pipeline(Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>), response);
    } catch (error) {
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('the sitemap could not be served\n');
      } else response.destroy();
      onError(error);
    }
  };
}

function webRequest(request: IncomingMessage): Request {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  return new Request(url, { method: request.method ?? 'GET', headers });
}
