import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:net';
import { HttpClient, HttpError, parseRetryAfter, type HttpResponse } from '../../src/discover/http.js';
import { DEFAULT_USER_AGENT } from '../../src/version.js';
import { startSite, type Site } from './site-server.js';

/** Short timeouts and backoffs so failure paths take milliseconds. */
const FAST = {
  connectTimeoutMs: 5_000,
  firstByteTimeoutMs: 5_000,
  idleTimeoutMs: 300,
  backoffMs: 10,
  maxBackoffMs: 50,
};

async function text(response: HttpResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('HttpClient', () => {
  let site: Site;
  let failuresLeft = 2;
  const big = 'x'.repeat(100_000);

  before(async () => {
    site = await startSite({
      '/plain': { headers: { 'content-type': 'text/plain' }, body: 'hello' },
      '/r1': { status: 301, headers: { location: '/r2' } },
      '/r2': { status: 302, headers: { location: '/r3' } },
      '/r3': { status: 307, headers: { location: '/plain' } },
      '/loop-a': { status: 302, headers: { location: '/loop-b' } },
      '/loop-b': { status: 302, headers: { location: '/loop-a' } },
      ...Object.fromEntries(
        Array.from({ length: 7 }, (_, i) => [`/hop${i}`, { status: 302, headers: { location: `/hop${i + 1}` } }]),
      ),
      '/bad-scheme': { status: 302, headers: { location: 'ftp://example.com/x' } },
      '/flaky': (_req, res) => {
        if (failuresLeft-- > 0) res.writeHead(503, { 'retry-after': '1' }).end('busy');
        else res.writeHead(200).end('finally');
      },
      '/always-503': { status: 503, body: 'down' },
      '/too-long-retry-after': { status: 429, headers: { 'retry-after': '3600' } },
      '/stall': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<urlset>'); // then silence
      },
      '/no-headers': () => {
        // never answers
      },
      '/gzip-encoded': { headers: { 'content-encoding': 'gzip' }, body: gzipSync(big) },
      '/broken-encoding': { headers: { 'content-encoding': 'gzip' }, body: 'this is not gzip at all' },
      '/big': { body: big },
      '/echo-accept': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers.accept ?? '');
      },
      '/slow': (_req, res) => {
        setTimeout(() => res.writeHead(200).end('ok'), 60);
      },
    });
  });
  after(() => site.close());

  it('sends the sitemapkit User-Agent, or the one given', async () => {
    const client = new HttpClient(FAST);
    assert.equal(await text(await client.get(site.url('/plain'))), 'hello');
    assert.equal(site.lastUserAgent, DEFAULT_USER_AGENT);
    assert.match(DEFAULT_USER_AGENT, /^sitemapkit\/\d+\.\d+\.\d+ \(\+https:\/\/\S+\)$/);
    const custom = new HttpClient({ ...FAST, userAgent: 'AuditBot/2.0' });
    (await custom.get(site.url('/plain'))).discard();
    assert.equal(site.lastUserAgent, 'AuditBot/2.0');
    await Promise.all([client.close(), custom.close()]);
  });

  it('asks for sitemap formats by default, and for what the caller reads when told (the crawler: HTML)', async () => {
    const client = new HttpClient(FAST);
    assert.match(await text(await client.get(site.url('/echo-accept'))), /^application\/xml/);
    assert.match(await text(await client.get(site.url('/echo-accept'), { accept: 'text/html' })), /^text\/html$/);
    await client.close();
  });

  it('follows a chain of 3 redirects and records each hop', async () => {
    const client = new HttpClient(FAST);
    const response = await client.get(site.url('/r1'));
    assert.equal(response.status, 200);
    assert.equal(response.url, site.url('/plain'));
    assert.deepEqual(response.redirects, [
      { from: site.url('/r1'), to: site.url('/r2'), status: 301 },
      { from: site.url('/r2'), to: site.url('/r3'), status: 302 },
      { from: site.url('/r3'), to: site.url('/plain'), status: 307 },
    ]);
    assert.equal(await text(response), 'hello');
    await client.close();
  });

  it('refuses a redirect loop, more than 5 redirects, and a non-http target', async () => {
    const client = new HttpClient(FAST);
    const loop = await client.get(site.url('/loop-a')).catch((e: unknown) => e);
    assert.ok(loop instanceof HttpError);
    assert.equal(loop.kind, 'redirect-loop');
    assert.equal(loop.redirects.length, 2);
    const long = await client.get(site.url('/hop0')).catch((e: unknown) => e);
    assert.ok(long instanceof HttpError);
    assert.equal(long.kind, 'too-many-redirects');
    assert.equal(long.redirects.length, 6);
    const five = await new HttpClient({ ...FAST, maxRedirects: 7 }).get(site.url('/hop0'));
    assert.equal(five.status, 404); // /hop7 is not a route: 7 hops followed, then the answer
    five.discard();
    const ftp = await client.get(site.url('/bad-scheme')).catch((e: unknown) => e);
    assert.ok(ftp instanceof HttpError);
    assert.equal(ftp.kind, 'bad-redirect');
    await client.close();
  });

  it('retries a 503 honouring Retry-After, then succeeds', async () => {
    const client = new HttpClient(FAST);
    failuresLeft = 2;
    const started = Date.now();
    const response = await client.get(site.url('/flaky'));
    const elapsed = Date.now() - started;
    assert.equal(response.status, 200);
    assert.equal(response.attempts, 3);
    assert.equal(await text(response), 'finally');
    assert.ok(elapsed >= 1_950, `waited ${elapsed} ms for two Retry-After: 1`);
    assert.ok(elapsed < 4_000, `waited ${elapsed} ms`);
    await client.close();
  });

  it('returns the last 5xx once retries are spent, and does not wait for a huge Retry-After', async () => {
    const client = new HttpClient({ ...FAST, retries: 2 });
    const before503 = site.hits.get('/always-503') ?? 0;
    const down = await client.get(site.url('/always-503'));
    assert.equal(down.status, 503);
    assert.equal(down.attempts, 3);
    assert.equal(site.hits.get('/always-503'), before503 + 3);
    down.discard();
    const started = Date.now();
    const busy = await client.get(site.url('/too-long-retry-after'));
    assert.equal(busy.status, 429);
    assert.equal(busy.attempts, 1);
    assert.ok(Date.now() - started < 1_000);
    busy.discard();
    await client.close();
  });

  it('gives up on a body that stalls (idle timeout) and says so', async () => {
    const client = new HttpClient(FAST);
    const response = await client.get(site.url('/stall'));
    const failure = await text(response).catch((e: unknown) => e);
    assert.ok(failure instanceof HttpError);
    assert.equal(failure.kind, 'idle-timeout');
    assert.equal(response.transfer.error, failure);
    assert.equal(response.transfer.bytes, '<urlset>'.length);
    await client.close();
  });

  it('times out waiting for response headers, retrying first', async () => {
    const client = new HttpClient({ ...FAST, firstByteTimeoutMs: 150, retries: 1 });
    const before = site.hits.get('/no-headers') ?? 0;
    const failure = await client.get(site.url('/no-headers')).catch((e: unknown) => e);
    assert.ok(failure instanceof HttpError);
    assert.equal(failure.kind, 'first-byte-timeout');
    assert.equal(failure.attempts, 2);
    assert.equal(site.hits.get('/no-headers'), before + 2);
    await client.close();
  });

  it('reports a refused connection after its retries', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = new HttpClient({ ...FAST, retries: 2 });
    const failure = await client.get(`http://127.0.0.1:${port}/sitemap.xml`).catch((e: unknown) => e);
    assert.ok(failure instanceof HttpError);
    assert.equal(failure.kind, 'connect');
    assert.equal(failure.attempts, 3);
    await client.close();
  });

  it('undoes Content-Encoding gzip and counts wire and decoded bytes', async () => {
    const client = new HttpClient(FAST);
    const response = await client.get(site.url('/gzip-encoded'));
    assert.equal(await text(response), big);
    assert.equal(response.transfer.bytes, big.length);
    assert.equal(response.transfer.wireBytes, gzipSync(big).length);
    const broken = await client.get(site.url('/broken-encoding'));
    const failure = await text(broken).catch((e: unknown) => e);
    assert.ok(failure instanceof HttpError);
    assert.equal(failure.kind, 'content-encoding');
    await client.close();
  });

  it('stops reading at the byte cap, also for an encoded body', async () => {
    const client = new HttpClient(FAST);
    for (const path of ['/big', '/gzip-encoded']) {
      const response = await client.get(site.url(path), { maxBytes: 1_000 });
      assert.equal((await text(response)).length, 1_000);
      assert.equal(response.transfer.truncated, true);
      assert.equal(response.transfer.bytes, 1_000);
    }
    await client.close();
  });

  it('keeps to the per-host concurrency and delay', async () => {
    site.maxInFlight = 0;
    const client = new HttpClient({ ...FAST, perHostConcurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, async () => text(await client.get(site.url('/slow')))));
    assert.equal(site.maxInFlight, 2);
    await client.close();

    const polite = new HttpClient({ ...FAST, perHostConcurrency: 4, perHostDelayMs: 100 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 4 }, async () => text(await polite.get(site.url('/plain')))));
    assert.ok(Date.now() - started >= 290, `4 requests 100 ms apart took ${Date.now() - started} ms`);
    await polite.close();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('2'), 2_000);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')), 5_000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});
