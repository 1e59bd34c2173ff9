/**
 * The test HTTP server: a real server on 127.0.0.1 (port 0) serving one fixture site from a table
 * of routes (a route may be a function for answers that vary; the route '*' answers any path not
 * in the table). It counts requests per path and
 * the most requests in flight at once, and stops with close(). Tests that need a server start
 * one here rather than writing their own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

export type Route =
  | { status?: number; headers?: Record<string, string>; body?: string | Uint8Array }
  | ((req: IncomingMessage, res: ServerResponse, site: Site) => void | Promise<void>);

export interface Site {
  origin: string;
  /** Requests per path (query included). */
  hits: Map<string, number>;
  /** User-Agent of the last request. */
  lastUserAgent?: string | undefined;
  maxInFlight: number;
  url(path: string): string;
  close(): Promise<void>;
}

/** Starts a site; `routes` may be a function of the origin, for bodies that name their own URLs. */
export async function startSite(
  routes: Record<string, Route> | ((origin: string) => Record<string, Route>),
): Promise<Site> {
  let table: Record<string, Route> = {};
  let inFlight = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    site.hits.set(path, (site.hits.get(path) ?? 0) + 1);
    site.lastUserAgent = req.headers['user-agent'];
    inFlight += 1;
    site.maxInFlight = Math.max(site.maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    // '*' answers every path the table does not name (sites generated as they are asked for).
    const route = table[path] ?? table['*'];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof route === 'function') {
      void route(req, res, site);
      return;
    }
    res.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body ?? '');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const site: Site = {
    origin,
    hits: new Map(),
    maxInFlight: 0,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  table = typeof routes === 'function' ? routes(origin) : routes;
  return site;
}

/** An origin where nothing listens (a port taken and given back): a server that is down. */
export async function closedOrigin(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACES =
  'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"';

/**
 * A urlset document around `body` (its <url> elements, or anything a test puts there), with every
 * extension namespace declared: the one urlset wrapper of the tests.
 */
export function urlsetDocument(body: string): string {
  return `${DECLARATION}<urlset ${NAMESPACES}>\n${body}\n</urlset>\n`;
}

/** A urlset of the given page URLs (with optional lastmods), one <url> a line from line 3. */
export function urlset(urls: readonly (string | { loc: string; lastmod?: string })[]): string {
  const items = urls.map((u) => (typeof u === 'string' ? { loc: u } : u));
  return urlsetDocument(
    items
      .map((u) => `  <url><loc>${u.loc}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
      .join('\n'),
  );
}

/** A sitemap index of the given child URLs. */
export function sitemapIndex(children: readonly string[]): string {
  return `${DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children
    .map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;
}

export const XML = { 'content-type': 'application/xml' };
export const TEXT = { 'content-type': 'text/plain' };
