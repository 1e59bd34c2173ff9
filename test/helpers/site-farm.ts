/**
 * A farm of sites on 127.0.0.1, each its own host:port: one multi-host site for the crawl tests
 * and the scale benchmark. Every host serves /robots.txt and pages /p/0 … /p/N-1 of HTML, each
 * linking two children (a tree from /p/0), the same page on the next host, and now and then a
 * page that is noindex, has its canonical elsewhere, links to a 404, or to a redirect whose target
 * only the redirect leads to. Pages may answer after `latencyMs`, as real sites do.
 *
 * Every host also serves /sitemap.xml (not named in robots.txt: a crawl never reads it), listing
 * its pages and, for the audit tests, a few URLs that are findings: a page twice, pages gone and
 * moved (a few of their targets listed too), a page robots.txt disallows, and hreflang alternates
 * on the next host that do not link back.
 *
 * The servers count, per host, the requests for each path and the most requests in flight at
 * once: what the crawl tests assert (no page fetched twice, per-host limits held across workers).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FarmOptions {
  hosts: number;
  pagesPerHost: number;
  latencyMs?: number;
  /** robots.txt Crawl-delay in seconds, on every host. */
  crawlDelay?: number;
  /**
   * The last host answers every unknown path 200 with its home page (a soft-404 host), and its
   * sitemap lists one such path, /retired/INDEX: a soft 404 for the audit tests.
   */
  softNotFound?: boolean;
}

export interface FarmHost {
  origin: string;
  /** Requests per path (robots.txt included). */
  hits: Map<string, number>;
  maxInFlight: number;
}

export interface Farm {
  hosts: FarmHost[];
  /** The /sitemap.xml of every host. */
  sitemaps(): string[];
  /** The listed set a correct crawl of the whole farm finds: every page but the noindex and canonicalised ones. */
  expectedListed(): Set<string>;
  /** Forgets the counts, for the next crawl. */
  reset(): void;
  /**
   * Holds the answers to page requests (robots.txt and sitemaps aside) beyond the next `pages`
   * until release(): resolves when the first is held. A test then acts at a known point of a run
   * (kills a worker halfway) however slow the machine, and the run cannot end before it.
   */
  holdAfter(pages: number): Promise<void>;
  /** Answers the requests held, and no longer holds any. */
  release(): void;
  close(): Promise<void>;
}

const FILLER = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>'.repeat(6);

/** The page kinds, by page number: each rule applies to a few pages of every host. */
const isNoindex = (n: number) => n % 17 === 16;
const hasCanonicalElsewhere = (n: number) => n % 23 === 22;
const linksGone = (n: number) => n % 19 === 5;
const linksMoved = (n: number) => n % 13 === 7;

/** The HTML of page `n` of host `index`. */
export function farmPage(origins: readonly string[], index: number, n: number, pages: number): string {
  const links = ['<a href="/">Home</a>'];
  for (const child of [2 * n + 1, 2 * n + 2]) if (child < pages) links.push(`<a href="/p/${child}">Page ${child}</a>`);
  links.push(`<a href="${origins[(index + 1) % origins.length]}/p/${n}">Next host</a>`);
  links.push('<a href="http://127.0.0.1:9/elsewhere">Elsewhere</a>');
  if (linksGone(n)) links.push(`<a href="/gone/${n}">Gone</a>`);
  if (linksMoved(n)) links.push(`<a href="/moved/${n}">Moved</a>`);
  let head = `<title>Host ${index} page ${n}</title>`;
  if (isNoindex(n)) head += '<meta name="robots" content="noindex">';
  if (hasCanonicalElsewhere(n)) head += '<link rel="canonical" href="/p/0">';
  return `<!doctype html><html><head>${head}</head><body><nav>${links.join(' ')}</nav>${FILLER}</body></html>`;
}

/** The sitemap of host `index`: its pages, and the URLs that make findings (see above). */
export function farmSitemap(origins: readonly string[], index: number, pages: number, softNotFound = false): string {
  const origin = origins[index]!;
  const next = origins[(index + 1) % origins.length]!;
  const urls: string[] = [];
  const url = (loc: string, extra = '') => urls.push(`<url><loc>${loc}</loc>${extra}</url>`);
  for (let n = 0; n < pages; n++) {
    const lastmod = n % 5 === 0 ? `<lastmod>2025-0${1 + (n % 9)}-01</lastmod>` : '';
    const alternate = n % 11 === 3 ? `<xhtml:link rel="alternate" hreflang="de" href="${next}/p/${n}"/>` : '';
    url(`${origin}/p/${n}`, lastmod + alternate);
    if (linksGone(n)) url(`${origin}/gone/${n}`);
    if (linksMoved(n)) url(`${origin}/moved/${n}`);
    if (linksMoved(n) && n % 2 === 1) url(`${origin}/landing/${n}`);
  }
  url(`${origin}/p/0`);
  url(`${origin}/private/${index}`);
  if (softNotFound) url(`${origin}/retired/${index}`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls.join('\n')}
</urlset>
`;
}

export async function startFarm(options: FarmOptions): Promise<Farm> {
  const { pagesPerHost: pages, latencyMs = 0 } = options;
  const softHost = (index: number) => options.softNotFound === true && index === options.hosts - 1;
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const hosts: FarmHost[] = [];
  const origins: string[] = [];
  /** While a hold is set: page requests before it, answers held, and who waits for the count. */
  let hold: { after: number; seen: number; held: (() => void)[]; reached: () => void } | undefined;
  for (let index = 0; index < options.hosts; index++) {
    const host: FarmHost = { origin: '', hits: new Map(), maxInFlight: 0 };
    let inFlight = 0;
    const server = createServer((request, response) => {
      const path = request.url ?? '/';
      host.hits.set(path, (host.hits.get(path) ?? 0) + 1);
      inFlight += 1;
      host.maxInFlight = Math.max(host.maxInFlight, inFlight);
      // In flight until the server has answered (or the client is gone): counted to 'close'
      // instead, a request another process sent on receiving the answer could meet this one
      // still counted, the socket's write callback not yet run.
      let counted = true;
      const settle = () => {
        if (counted) inFlight -= 1;
        counted = false;
      };
      response.on('close', settle);
      const answer = () => {
        serve(path, index, response);
        if (response.writableEnded) settle();
      };
      const isPage = path !== '/robots.txt' && path !== '/sitemap.xml';
      if (hold !== undefined && isPage && ++hold.seen > hold.after) {
        hold.held.push(() => {
          if (!response.destroyed) answer();
        });
        if (hold.held.length === 1) hold.reached();
      } else if (latencyMs > 0 && path !== '/robots.txt') setTimeout(answer, latencyMs);
      else answer();
    });
    server.keepAliveTimeout = 30_000;
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push(server);
    hosts.push(host);
    origins.push(host.origin);
  }

  function serve(path: string, index: number, response: ServerResponse): void {
    const html = { 'content-type': 'text/html; charset=utf-8' };
    const page = /^\/p\/(\d+)$/.exec(path);
    const moved = /^\/moved\/(\d+)$/.exec(path);
    const landing = /^\/landing\/(\d+)$/.exec(path);
    if (path === '/robots.txt') {
      const delay = options.crawlDelay === undefined ? '' : `Crawl-delay: ${options.crawlDelay}\n`;
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\n${delay}Disallow: /private/\n`);
    } else if (path === '/sitemap.xml') {
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(farmSitemap(origins, index, pages, softHost(index)));
    } else if (path === '/') {
      response.writeHead(200, html).end('<!doctype html><title>Home</title><a href="/p/0">Start</a>');
    } else if (page && Number(page[1]) < pages) {
      response.writeHead(200, html).end(farmPage(origins, index, Number(page[1]), pages));
    } else if (moved) {
      response.writeHead(301, { location: `/landing/${moved[1]}` }).end();
    } else if (landing) {
      response.writeHead(200, html).end(`<!doctype html><title>Landing ${landing[1]}</title><p>Moved here.</p>`);
    } else if (softHost(index)) {
      response.writeHead(200, html).end('<!doctype html><title>Shop</title><h1>Welcome to the shop</h1>');
    } else {
      response.writeHead(404, html).end('<!doctype html><title>Not found</title>');
    }
  }

  return {
    hosts,
    sitemaps: () => origins.map((origin) => `${origin}/sitemap.xml`),
    expectedListed() {
      const listed = new Set<string>();
      for (const { origin } of hosts) {
        listed.add(`${origin}/`);
        for (let n = 0; n < pages; n++) {
          if (!isNoindex(n) && !hasCanonicalElsewhere(n)) listed.add(`${origin}/p/${n}`);
          if (linksMoved(n)) listed.add(`${origin}/landing/${n}`);
        }
      }
      return listed;
    },
    reset() {
      for (const host of hosts) {
        host.hits.clear();
        host.maxInFlight = 0;
      }
    },
    holdAfter(pages) {
      return new Promise<void>((resolve) => {
        hold = { after: pages, seen: 0, held: [], reached: resolve };
      });
    },
    release() {
      const held = hold?.held ?? [];
      hold = undefined;
      for (const answer of held) answer();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
