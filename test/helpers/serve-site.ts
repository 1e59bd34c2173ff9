/**
 * A small web site served on 127.0.0.1 (port 0), over http or (with a key and certificate) https:
 * routes by decoded path, counts every request it receives, can answer slowly so that work can be
 * caught mid-way, and can hold answers behind a gate until a test lets them go.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Uint8Array;
  /** Sends the body itself, after the headers (a body that streams, never ends, …); `body` is then unused. */
  send?: (response: ServerResponse) => void;
}

/** A route answers from the site's origin and the request's URL (path and query). */
export type Route = (origin: string, url: URL) => Reply | undefined;

export interface SiteOptions {
  /** Time before each answer (robots.txt is answered at once). */
  delayMs?: number;
  /** Serve https with this key and certificate (PEM). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Awaited before each answer: a test holds answers back by returning a promise it settles later. */
  gate?: (url: URL) => Promise<void> | void;
}

export interface RunningSite {
  origin: string;
  /** Every request received, as path + query, in arrival order. */
  requests: string[];
  /** Every answer sent to its end, as path + query, in order. */
  answered: string[];
  close(): Promise<void>;
}

export async function serveSite(route: Route, { delayMs = 0, tls, gate }: SiteOptions = {}): Promise<RunningSite> {
  const requests: string[] = [];
  const answered: string[] = [];
  let origin = '';
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    const path = url.pathname + url.search;
    requests.push(path);
    response.on('finish', () => answered.push(path));
    setTimeout(
      () => {
        void Promise.resolve(gate?.(url)).then(() => {
          if (response.destroyed) return;
          const reply = route(origin, url) ?? { status: 404, body: '<!doctype html><title>Not found</title>' };
          response.writeHead(reply.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...reply.headers });
          if (reply.send) reply.send(response);
          else response.end(reply.body ?? '');
        });
      },
      url.pathname === '/robots.txt' ? 0 : delayMs,
    );
  };
  const server = tls ? createTlsServer(tls, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTML page with the given head and body markup. */
export function html(head: string, body: string): string {
  return `<!doctype html>\n<html><head><meta charset="utf-8">${head}</head>\n<body>${body}</body></html>\n`;
}
