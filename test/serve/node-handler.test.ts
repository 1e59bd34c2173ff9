/**
 * sitemapHandler on a real Node http server (issue 25 §9, §10): entries it leaves out are counted
 * and reported, methods it does not serve get 405 and a Host that is no host 400 (not 500), and a
 * client that goes away mid-body is not logged as a failure.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { sitemapHandler, type SitemapHandler, type SitemapHandlerOptions } from '../../src/serve/node.js';
import type { PagedSource } from '../../src/serve/serve-sitemaps.js';

/** `count` URLs on `host`, read a page at a time, as a database query would give them. */
function source(count: number, host: string): PagedSource {
  return {
    count: () => count,
    *page(index, size) {
      for (let i = index * size; i < Math.min(count, (index + 1) * size); i++) yield { loc: `https://${host}/p/${i}` };
    },
  };
}

async function serve(handler: SitemapHandler): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => void handler(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Sends `head` as the raw request head and gives back the status line. */
async function rawStatus(origin: string, head: string): Promise<string> {
  const socket = connect(Number(new URL(origin).port), '127.0.0.1');
  socket.end(head);
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  return text.split('\r\n')[0]!;
}

describe('sitemapHandler', () => {
  const errors: unknown[] = [];
  const problems: Diagnostic[] = [];
  let handler: SitemapHandler;
  let origin: string;
  let server: Server;
  before(async () => {
    const options: SitemapHandlerOptions = {
      baseUrl: 'https://example.com/',
      onError: (error) => errors.push(error),
      onProblem: (problem) => problems.push(problem),
    };
    // 120,000 URLs on www. while the base URL is not: every entry is left out.
    handler = sitemapHandler(source(120_000, 'www.example.com'), options);
    ({ origin, server } = await serve(handler));
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('counts and reports every entry it leaves out, instead of an empty urlset said nothing of', async () => {
    const response = await fetch(`${origin}/sitemap-2.xml`);
    assert.equal(response.status, 200);
    assert.doesNotMatch(await response.text(), /<url>/);
    assert.equal(handler.dropped, 20_000);
    assert.equal(problems.length, 20_000);
    assert.equal(problems[0]!.code, 'URL-004');
    assert.equal(problems[0]!.url, 'https://www.example.com/p/100000');
  });

  it('says in one line what an answer left out when no onProblem is given', async () => {
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    const quiet = sitemapHandler(source(3, 'www.example.com'), { baseUrl: 'https://example.com/' });
    const running = await serve(quiet);
    try {
      const response = await fetch(`${running.origin}/sitemap.xml`);
      assert.equal(response.status, 200);
      await response.text();
    } finally {
      console.warn = warn;
      running.server.close();
    }
    assert.equal(quiet.dropped, 3);
    assert.equal(warnings.length, 1);
    assert.match(
      String(warnings[0]![0]),
      /^sitemapkit: \/sitemap\.xml left out 3 entries of the source; the first: .*www\.example\.com\/p\/0/,
    );
  });

  it('answers 405 to TRACE and other methods it does not serve, with Allow', async () => {
    for (const method of ['TRACE', 'POST', 'DELETE', 'PROPFIND']) {
      assert.match(
        await rawStatus(origin, `${method} /sitemap.xml HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n`),
        /^HTTP\/1\.1 405 /,
        method,
      );
    }
    const options = await fetch(`${origin}/sitemap.xml`, { method: 'OPTIONS' });
    assert.equal(options.status, 405);
    assert.equal(options.headers.get('allow'), 'GET, HEAD');
  });

  it('answers 400 to a Host header that is no host', async () => {
    for (const host of ['exa mple.com', 'example.com/evil', 'a@b', '[::1', 'example.com:port']) {
      assert.match(
        await rawStatus(origin, `GET /sitemap.xml HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
        /^HTTP\/1\.1 400 /,
        host,
      );
    }
    assert.match(
      await rawStatus(origin, `GET /sitemap.xml HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n`),
      /^HTTP\/1\.1 200 /,
    );
    assert.deepEqual(errors, []);
  });

  it('does not report a client that goes away mid-body as a failure', async () => {
    const onError: unknown[] = [];
    // A source that reads as a database does, a page of rows at a time: the client leaves between two.
    const slow: PagedSource = {
      count: () => 50_000,
      async *page(index, size) {
        for (let i = index * size; i < (index + 1) * size; i++) {
          if (i % 1_000 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
          yield { loc: `https://example.com/p/${i}` };
        }
      },
    };
    const big = sitemapHandler(slow, {
      baseUrl: 'https://example.com/',
      onError: (e) => onError.push(e),
    });
    const running = await serve(big);
    const answered = new Promise<void>((resolve) =>
      running.server.once('request', (_req, res) => res.once('close', resolve)),
    );
    const req = httpRequest(`${running.origin}/sitemap.xml`);
    req.end();
    const [res] = (await once(req, 'response')) as [NodeJS.ReadableStream];
    await once(res, 'data'); // the body has begun
    req.destroy();
    await answered;
    await new Promise((resolve) => setTimeout(resolve, 100)); // the handler's catch runs after the close
    running.server.close();
    assert.deepEqual(onError, []);
  });
});
