/**
 * The HTTP stack, one layer at a time against real servers on 127.0.0.1 (the hostile server of
 * test/helpers for the broken ones), then the client they make up.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { Agent } from 'undici';
import { HttpClient, HttpError, parseRetryAfter, RetryState, type HttpResponse } from '../../src/http/client.js';
import { byteCap } from '../../src/http/byte-cap.js';
import { decompress } from '../../src/http/decompress.js';
import { followRedirects } from '../../src/http/redirects.js';
import { retry, type RetryNotice, type RetryPolicy } from '../../src/http/retries.js';
import { minimumRate } from '../../src/http/transfer-rate.js';
import { transport } from '../../src/http/transport.js';
import { compose, type Fetch, type HttpRequest } from '../../src/http/types.js';
import { RetryLater } from '../../src/pool/index.js';
import { DEFAULT_USER_AGENT } from '../../src/version.js';
import { hostile, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { startSite, urlset, type Site } from '../helpers/site-server.js';

const BODY = urlset(Array.from({ length: 200 }, (_, i) => `https://example.com/page/${i}`));

async function text(response: HttpResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function failureOf(promise: Promise<unknown>): Promise<HttpError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(failure instanceof HttpError, `an HttpError, not ${String(failure)}`);
  return failure;
}

function request(url: string, fields: Partial<HttpRequest> = {}): HttpRequest {
  return {
    url,
    headers: { 'user-agent': 'layer-test' },
    signal: new AbortController().signal,
    maxBytes: Infinity,
    retries: 0,
    retryState: new RetryState(),
    deferRetries: false,
    ...fields,
  };
}

/** An http URL on a port where nothing listens. */
async function closedPort(): Promise<string> {
  const site = await startSite({});
  await site.close();
  return site.url('/sitemap.xml');
}

describe('the HTTP layers', () => {
  let server: HostileServer;
  let agent: Agent;
  /** The transport every layer is tried on: timeouts no busy machine reaches. */
  let base: Fetch;
  /** The transport the timeout tests use: timeouts short enough to wait for. */
  let tight: Fetch;
  let failuresLeft = 0;

  before(async () => {
    server = await startHostileServer((origin) => ({
      '/sitemap.xml': hostile.sitemap(BODY),
      '/echo-headers': (socket, req) => hostile.sitemap(JSON.stringify(req.headers), 'application/json')(socket, req),
      '/slow-headers': hostile.slowHeaders(20),
      '/never': hostile.neverAnswers(),
      '/stall': hostile.stall(BODY, 100),
      '/trickle': hostile.trickle(BODY, { intervalMs: 50 }),
      '/reset': hostile.resetMidBody(BODY, 1_000),
      '/short': hostile.shortBody(BODY, 1_000),
      '/chunks': hostile.brokenChunking(BODY, 3_000),
      '/huge-headers': hostile.headerOverflow(),
      '/gzip': hostile.answer(200, { 'content-encoding': 'gzip' }, gzipSync(BODY)),
      '/not-gzip': hostile.answer(200, { 'content-encoding': 'gzip' }, 'this is not gzip at all'),
      '/bomb': hostile.gzipBomb(20, 'content'),
      '/endless': hostile.endless('<urlset>', '<url><loc>https://example.com/x</loc></url>'),
      '/r1': hostile.answer(301, { location: '/r2' }),
      '/r2': hostile.answer(302, { location: `${origin}/r3` }),
      '/r3': hostile.answer(307, { location: '/sitemap.xml' }),
      '/loop-a': hostile.answer(302, { location: '/loop-b' }),
      '/loop-b': hostile.answer(302, { location: '/loop-a' }),
      ...Object.fromEntries(
        Array.from({ length: 7 }, (_, i) => [`/hop${i}`, hostile.answer(302, { location: `/hop${i + 1}` })]),
      ),
      '/to-ftp': hostile.answer(302, { location: 'ftp://example.com/x' }),
      '/to-reset': hostile.answer(302, { location: '/reset-at-once' }),
      '/reset-at-once': hostile.hangUp(),
      '/flaky': (socket, req) => (failuresLeft-- > 0 ? hostile.retryAfter(1) : hostile.sitemap('finally'))(socket, req),
      '/busy': hostile.retryAfter(120),
      '/always-503': hostile.answer(503, {}, 'down'),
      '/not-found': hostile.notFound(),
    }));
    agent = new Agent({ connect: { timeout: 2_000 } });
    base = transport({ agent: () => Promise.resolve(agent), firstByteTimeoutMs: 10_000, idleTimeoutMs: 10_000 });
    tight = transport({ agent: () => Promise.resolve(agent), firstByteTimeoutMs: 300, idleTimeoutMs: 300 });
  });
  after(async () => {
    await agent.destroy();
    await server.close();
  });

  describe('transport', () => {
    it('sends the headers asked for and hands the body over, counted on the wire', async () => {
      const response = await base(
        request(server.url('/echo-headers'), { headers: { 'user-agent': 'Bot/1', accept: 'x/y' } }),
      );
      const sent = JSON.parse(await text(response)) as Record<string, string>;
      assert.deepEqual([sent['user-agent'], sent.accept], ['Bot/1', 'x/y']);
      assert.equal(response.status, 200);
      assert.equal(response.transfer.wireBytes, Buffer.byteLength(JSON.stringify(sent)));
    });

    it('times out headers that come a byte at a time (the server cannot stretch the first-byte timeout)', async () => {
      const started = Date.now();
      const failure = await failureOf(tight(request(server.url('/slow-headers'))));
      assert.equal(failure.kind, 'first-byte-timeout');
      assert.ok(Date.now() - started < 2_000, `gave up after ${Date.now() - started} ms`);
    });

    it('times out a server that never answers, and a body that stops', async () => {
      assert.equal((await failureOf(tight(request(server.url('/never'))))).kind, 'first-byte-timeout');
      const stalled = await tight(request(server.url('/stall')));
      const failure = await failureOf(text(stalled));
      assert.equal(failure.kind, 'idle-timeout');
      assert.match(failure.message, /\/stall stopped sending data mid-body/);
      assert.equal(stalled.transfer.wireBytes, 100);
    });

    it('names each way a body breaks off: reset, short body, broken chunking', async () => {
      const cases: [string, RegExp][] = [
        ['/reset', /\/reset: the connection broke off \(reset\)/],
        ['/short', /\/short: the connection broke off \(closed by the server\)/],
        ['/chunks', /\/chunks: the response breaks the HTTP\/1\.1 protocol \(Invalid character in chunk size\)/],
      ];
      for (const [path, message] of cases) {
        const response = await base(request(server.url(path)));
        const failure = await failureOf(text(response));
        assert.equal(failure.kind, 'network', path);
        assert.match(failure.message, message);
        assert.ok(response.transfer.wireBytes >= 1_000, `${path}: ${response.transfer.wireBytes} bytes read before`);
      }
    });

    it('hands over every byte that came before a break, though the reader was slow to take them', async () => {
      for (const [path, sent] of [
        ['/chunks', 3_000],
        ['/short', 1_000],
      ] as const) {
        const response = await base(request(server.url(path)));
        // The whole answer, break included, arrives while nobody reads: its bytes wait in buffers.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const received: Uint8Array[] = [];
        const failure = await failureOf(
          (async () => {
            for await (const chunk of response.body) received.push(chunk);
          })(),
        );
        assert.equal(failure.kind, 'network', path);
        assert.equal(Buffer.concat(received).toString(), BODY.slice(0, sent), path);
      }
    });

    it('names the failures no retry can mend: huge headers, a name that does not resolve, no TLS', async () => {
      const huge = await failureOf(base(request(server.url('/huge-headers'))));
      assert.deepEqual([huge.kind, huge.permanent], ['header-overflow', true]);
      const dns = await failureOf(base(request('http://no-such-host.invalid/sitemap.xml')));
      assert.deepEqual([dns.kind, dns.permanent], ['dns', true]);
      assert.match(dns.message, /no-such-host\.invalid does not resolve \(ENOTFOUND\)/);
      const tls = await failureOf(base(request(server.url('/sitemap.xml').replace('http:', 'https:'))));
      assert.deepEqual([tls.kind, tls.permanent], ['not-tls', true]);
      assert.equal(
        tls.message,
        `the server at ${server.origin.replace('http:', 'https:')} does not speak TLS; try ${server.url('/sitemap.xml')}`,
      );
      const refused = await failureOf(base(request(await closedPort())));
      assert.deepEqual([refused.kind, refused.permanent], ['connect', false]);
      assert.match(
        refused.message,
        /could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): is the server up\?/,
      );
    });
  });

  describe('TLS', () => {
    it('says in one sentence that a certificate is not trusted, and never retries it', async () => {
      // A self-signed certificate for 127.0.0.1, made for this test (the key protects nothing).
      const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
      const secure = createHttpsServer({ key: fixture('self-signed.key'), cert: fixture('self-signed.crt') }, (_q, r) =>
        r.end('ok'),
      );
      await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
      try {
        const origin = `https://127.0.0.1:${(secure.address() as { port: number }).port}`;
        const failure = await failureOf(base(request(`${origin}/sitemap.xml`)));
        assert.deepEqual([failure.kind, failure.permanent], ['tls', true]);
        assert.match(
          failure.message,
          /^the TLS certificate of 127\.0\.0\.1:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT: self[- ]signed certificate\)$/,
        );
      } finally {
        await new Promise<void>((resolve) => secure.close(() => resolve()));
      }
    });
  });

  describe('minimum transfer rate', () => {
    it('stops a body that trickles, which no idle timeout would', async () => {
      const paced = compose(base, minimumRate({ minBytesPerSecond: 200, windowMs: 300 }));
      const response = await paced(request(server.url('/trickle')));
      const started = Date.now();
      const failure = await failureOf(text(response));
      assert.equal(failure.kind, 'too-slow');
      assert.match(failure.message, /\/trickle sent \d+ bytes in 0\.\d s, slower than the minimum 200 bytes\/s/);
      assert.ok(Date.now() - started < 1_500);
    });

    it('lets a body at a good pace through whole', async () => {
      const paced = compose(base, minimumRate({ minBytesPerSecond: 200, windowMs: 300 }));
      assert.equal(await text(await paced(request(server.url('/sitemap.xml')))), BODY);
    });
  });

  describe('decompress', () => {
    const decoding = () => compose(base, decompress());

    it('undoes Content-Encoding gzip; the wire count stays the compressed size', async () => {
      const response = await decoding()(request(server.url('/gzip')));
      assert.equal(await text(response), BODY);
      assert.equal(response.transfer.wireBytes, gzipSync(BODY).length);
    });

    it('reports a body that does not decode as content-encoding, not as a broken connection', async () => {
      const failure = await failureOf(text(await decoding()(request(server.url('/not-gzip')))));
      assert.equal(failure.kind, 'content-encoding');
      assert.match(failure.message, /Content-Encoding gzip does not decode/);
    });
  });

  describe('byte cap', () => {
    it('stops at the cap, plain or encoded, and says the body was cut', async () => {
      const capped = compose(base, byteCap(), decompress());
      for (const path of ['/sitemap.xml', '/gzip']) {
        const response = await capped(request(server.url(path), { maxBytes: 1_000 }));
        assert.equal(await text(response), BODY.slice(0, 1_000));
        assert.deepEqual([response.transfer.bytes, response.transfer.truncated], [1_000, true]);
      }
    });

    it('stops a gzip bomb and a body that never ends at the cap, reading little more', async () => {
      const capped = compose(base, byteCap(), decompress());
      const bomb = await capped(request(server.url('/bomb'), { maxBytes: 1024 * 1024 }));
      assert.equal((await text(bomb)).length, 1024 * 1024);
      assert.ok(bomb.transfer.wireBytes < 64 * 1024, `${bomb.transfer.wireBytes} bytes on the wire`);
      const endless = await capped(request(server.url('/endless'), { maxBytes: 2 * 1024 * 1024 }));
      assert.equal((await text(endless)).length, 2 * 1024 * 1024);
      assert.equal(endless.transfer.truncated, true);
    });
  });

  describe('redirects', () => {
    const following = (max = 5) => compose(base, followRedirects(max));

    it('follows a chain and records each hop', async () => {
      const response = await following()(request(server.url('/r1')));
      assert.equal(response.url, server.url('/sitemap.xml'));
      assert.equal(response.requestedUrl, server.url('/r1'));
      assert.deepEqual(response.redirects, [
        { from: server.url('/r1'), to: server.url('/r2'), status: 301 },
        { from: server.url('/r2'), to: server.url('/r3'), status: 302 },
        { from: server.url('/r3'), to: server.url('/sitemap.xml'), status: 307 },
      ]);
      assert.equal(await text(response), BODY);
    });

    it('refuses a loop, too many hops and a target that is not http(s), with the chain so far', async () => {
      const loop = await failureOf(following()(request(server.url('/loop-a'))));
      assert.deepEqual([loop.kind, loop.redirects.length, loop.permanent], ['redirect-loop', 2, true]);
      const long = await failureOf(following()(request(server.url('/hop0'))));
      assert.deepEqual([long.kind, long.redirects.length], ['too-many-redirects', 6]);
      const seven = await following(7)(request(server.url('/hop0')));
      assert.equal(seven.status, 404); // /hop7 is not a route: 7 hops followed, then the answer
      seven.discard();
      const ftp = await failureOf(following()(request(server.url('/to-ftp'))));
      assert.equal(ftp.kind, 'bad-redirect');
      const broken = await failureOf(following()(request(server.url('/to-reset'))));
      assert.deepEqual(
        [broken.kind, broken.url, broken.redirects.map((r) => r.to)],
        ['network', server.url('/to-reset'), [server.url('/reset-at-once')]],
      );
    });
  });

  describe('retry', () => {
    const POLICY: RetryPolicy = {
      backoffMs: 10,
      maxBackoffMs: 50,
      maxWaitMs: 30_000,
      deadlineMs: 30_000,
      random: () => 0.5,
    };
    const retrying = (policy: Partial<RetryPolicy> = {}, over = base) =>
      compose(over, retry({ ...POLICY, ...policy }), followRedirects(5), byteCap());

    it('retries a 503 honouring Retry-After, says so before each wait, then reads the answer', async () => {
      failuresLeft = 2;
      const notices: RetryNotice[] = [];
      const started = Date.now();
      const response = await retrying({ onRetry: (n) => notices.push(n) })(
        request(server.url('/flaky'), { retries: 3 }),
      );
      assert.equal(await text(response), 'finally');
      assert.equal(response.attempts, 3);
      assert.ok(Date.now() - started >= 1_950, 'two waits of one second');
      assert.deepEqual(
        notices.map((n) => [n.attempt, n.maxAttempts, n.delayMs, n.reason]),
        [
          [2, 4, 1_000, 'HTTP 503 (Retry-After: 1 s)'],
          [3, 4, 1_000, 'HTTP 503 (Retry-After: 1 s)'],
        ],
      );
    });

    it('returns the last 5xx once the retries are spent', async () => {
      const before = server.hits.get('/always-503') ?? 0;
      const down = await retrying()(request(server.url('/always-503'), { retries: 2 }));
      assert.deepEqual([down.status, down.attempts, down.notRetried], [503, 3, undefined]);
      assert.equal(server.hits.get('/always-503'), before + 3);
      down.discard();
    });

    it('does not wait for a Retry-After over the wait cap, and says why', async () => {
      const started = Date.now();
      const busy = await retrying({ maxWaitMs: 30_000 })(request(server.url('/busy'), { retries: 3 }));
      assert.deepEqual([busy.status, busy.attempts], [503, 1]);
      assert.equal(
        busy.notRetried,
        'not retried: the server asked to wait 120 s, more than the 30 s of waiting left (--max-wait)',
      );
      assert.ok(Date.now() - started < 1_000);
      busy.discard();
    });

    it('never retries a permanent failure, and a timeout only once', async () => {
      const before = server.hits.get('/huge-headers') ?? 0;
      const huge = await failureOf(retrying()(request(server.url('/huge-headers'), { retries: 3 })));
      assert.deepEqual([huge.kind, huge.attempts], ['header-overflow', 1]);
      assert.equal(server.hits.get('/huge-headers'), before + 1);
      const dns = await failureOf(retrying()(request('http://no-such-host.invalid/x', { retries: 3 })));
      assert.deepEqual([dns.kind, dns.attempts], ['dns', 1]);
      const silent = await failureOf(retrying({}, tight)(request(server.url('/never'), { retries: 3 })));
      assert.deepEqual([silent.kind, silent.attempts], ['first-byte-timeout', 2]);
      assert.match(silent.message, /; a timeout is retried once$/);
    });

    it('retries a refused connection with backoff, up to the retries', async () => {
      const notices: RetryNotice[] = [];
      const refused = await failureOf(
        retrying({ onRetry: (n) => notices.push(n) })(request(await closedPort(), { retries: 2 })),
      );
      assert.deepEqual([refused.kind, refused.attempts], ['connect', 3]);
      assert.deepEqual(
        notices.map((n) => n.delayMs),
        [8, 15], // 10 and 20 ms, each ×0.75 with the jitter fixed at 0.5
      );
    });

    it('waits a tenth of the backoff for a URL of a host that answers nearly everything else', async () => {
      const notices: RetryNotice[] = [];
      const fetchOnce = retrying({ backoffMs: 200, maxBackoffMs: 1_000, onRetry: (n) => notices.push(n) });
      const broken = async () => (await fetchOnce(request(server.url('/always-503'), { retries: 1 }))).discard();
      // No answers yet: nothing is known of the host, the backoff is whole.
      await broken();
      for (let i = 0; i < 30; i++) (await fetchOnce(request(server.url('/sitemap.xml')))).discard();
      // Of the host's last 32 documents, 2 failed at their first attempt: the page is broken, not
      // the host (a retry is no new document, and says nothing more of the host).
      await broken();
      await broken();
      // 4 of 34: more than a tenth of the host's documents fail, the backoff is whole again.
      await broken();
      assert.deepEqual(
        notices.map((n) => n.delayMs),
        [150, 15, 15, 150], // 200 ms ×0.75 (the jitter fixed at 0.5), a tenth of it, and whole again
      );
    });

    it('ends a document at its total deadline, body included: a trickle cannot hold it', async () => {
      const started = Date.now();
      const response = await retrying({ deadlineMs: 400 })(request(server.url('/trickle'), { retries: 3 }));
      const failure = await failureOf(text(response));
      assert.equal(failure.kind, 'deadline');
      assert.match(failure.message, /\/trickle did not finish within 0\.4 s \(--timeout\), retries included/);
      assert.ok(Date.now() - started < 1_500, `ended after ${Date.now() - started} ms`);
    });

    it('does not start a wait that would end past the deadline', async () => {
      failuresLeft = 1;
      const response = await retrying({ deadlineMs: 500 })(request(server.url('/flaky'), { retries: 3 }));
      assert.deepEqual([response.status, response.attempts], [503, 1]);
      assert.equal(response.notRetried, 'not retried: no time left within 0.5 s (--timeout)');
      response.discard();
      failuresLeft = 0;
    });

    it('hands the wait back to a work pool as RetryLater, keeping count across restarts', async () => {
      failuresLeft = 1;
      const state = new RetryState();
      const pooled = retrying();
      const first = await pooled(
        request(server.url('/flaky'), { retries: 3, retryState: state, deferRetries: true }),
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.ok(first instanceof RetryLater);
      assert.equal(first.delayMs, 1_000);
      assert.match(first.message, /\/flaky: HTTP 503 \(Retry-After: 1 s\)/);
      assert.deepEqual([state.attempts, state.waitedMs], [1, 1_000]);
      const second = await pooled(request(server.url('/flaky'), { retries: 3, retryState: state, deferRetries: true }));
      assert.deepEqual([second.status, second.attempts], [200, 2]);
      assert.equal(await text(second), 'finally');
    });

    it('gives a later pass over a document only what is left of its waits and its deadline', async () => {
      const firstPass = new RetryState();
      const before = server.hits.get('/always-503') ?? 0;
      const policy = { maxWaitMs: 30, deadlineMs: 30_000 };
      (await retrying(policy)(request(server.url('/always-503'), { retries: 3, retryState: firstPass }))).discard();
      const firstAttempts = server.hits.get('/always-503')! - before;
      assert.ok(firstPass.waitedMs > 0 && firstAttempts > 1, 'the first pass waited between its attempts');

      const later = await retrying(policy)(
        request(server.url('/always-503'), { retries: 3, retryState: firstPass.laterPass(100) }),
      );
      later.discard();
      assert.equal(later.attempts, 1, 'no wait is left for a retry');
      assert.match(
        later.notRetried!,
        /^not retried: waiting longer than [\d.]+ s in all is not allowed \(--max-wait\)$/,
      );

      assert.equal(server.hits.get('/always-503')! - before, firstAttempts + 1);

      const fetched = server.hits.get('/sitemap.xml') ?? 0;
      const spent = new RetryState().laterPass(30_000);
      const tooLate = await failureOf(retrying(policy)(request(server.url('/sitemap.xml'), { retryState: spent })));
      assert.equal(tooLate.kind, 'deadline');
      assert.equal(server.hits.get('/sitemap.xml') ?? 0, fetched, 'a pass with no time left makes no request');
    });
  });
});

describe('HttpClient', () => {
  let site: Site;
  before(async () => {
    site = await startSite({
      '/plain': { headers: { 'content-type': 'text/plain' }, body: 'hello' },
      '/echo-accept': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers.accept ?? '');
      },
      '/gzip-encoded': { headers: { 'content-encoding': 'gzip' }, body: gzipSync('x'.repeat(100_000)) },
      '/stall': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<urlset>'); // then silence
      },
      '/echo-post': (req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (piece: string) => (body += piece));
        req.on('end', () => {
          posts += 1;
          // The first POST meets a busy server; the second is answered with what it carried.
          if (posts === 1) res.writeHead(503, { 'retry-after': '0' }).end('busy');
          else
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ method: req.method, type: req.headers['content-type'], body }));
        });
      },
      '/moved-post': { status: 308, headers: { location: '/echo-post' } },
      '/echo-conditional': (req, res) => {
        res.writeHead(304, { etag: req.headers['if-none-match'] ?? '' }).end();
      },
    });
  });
  after(() => site.close());
  let posts = 0;

  it('POSTs a body, sent again whole when a 503 is retried; a redirect is its answer, not followed', async () => {
    const client = new HttpClient({ backoffMs: 1 });
    const body = JSON.stringify({ urlList: ['https://example.com/é'] });
    const response = await client.post(site.url('/echo-post'), body, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(response.attempts, 2);
    assert.deepEqual(JSON.parse(await text(response)), {
      method: 'POST',
      type: 'application/json; charset=utf-8',
      body,
    });
    const moved = await client.post(site.url('/moved-post'), body);
    assert.deepEqual([moved.status, moved.headers.location, moved.redirects], [308, '/echo-post', []]);
    moved.discard();
    assert.equal(posts, 2, 'the redirect was not followed');
    await client.close();
  });

  it("sends the headers a request adds, such as a conditional GET's If-None-Match", async () => {
    const client = new HttpClient();
    const response = await client.get(site.url('/echo-conditional'), { headers: { 'if-none-match': '"v1"' } });
    assert.deepEqual([response.status, response.headers.etag], [304, '"v1"']);
    response.discard();
    await client.close();
  });

  it('sends the sitemapkit User-Agent, or the one given', async () => {
    const client = new HttpClient();
    assert.equal(await text(await client.get(site.url('/plain'))), 'hello');
    assert.equal(site.lastUserAgent, DEFAULT_USER_AGENT);
    assert.match(DEFAULT_USER_AGENT, /^sitemapkit\/\d+\.\d+\.\d+ \(\+https:\/\/\S+\)$/);
    const custom = new HttpClient({ userAgent: 'AuditBot/2.0' });
    (await custom.get(site.url('/plain'))).discard();
    assert.equal(site.lastUserAgent, 'AuditBot/2.0');
    await Promise.all([client.close(), custom.close()]);
  });

  it('asks for sitemap formats by default, and for what the caller reads when told (the crawler: HTML)', async () => {
    const client = new HttpClient();
    assert.match(await text(await client.get(site.url('/echo-accept'))), /^application\/xml/);
    assert.match(await text(await client.get(site.url('/echo-accept'), { accept: 'text/html' })), /^text\/html$/);
    await client.close();
  });

  it('stacks the layers: decoded, capped, its failure kept in transfer.error, read once', async () => {
    const client = new HttpClient({ idleTimeoutMs: 300 });
    const response = await client.get(site.url('/gzip-encoded'), { maxBytes: 1_000 });
    assert.equal(await text(response), 'x'.repeat(1_000));
    assert.equal(response.transfer.truncated, true);
    await assert.rejects(text(response), /can be read only once/);
    const stalled = await client.get(site.url('/stall'));
    const failure = await failureOf(text(stalled));
    assert.equal(stalled.transfer.error, failure);
    assert.equal(stalled.transfer.bytes, '<urlset>'.length);
    await client.close();
  });

  it('keeps no per-host limiter: requests to one host go out together (the work pool owns politeness)', async () => {
    // Each answer waits until all 8 requests are in (or 3 s): a limiter would keep some out.
    const waiting: (() => void)[] = [];
    const answerAll = () => waiting.splice(0).forEach((answer) => answer());
    const slow = await startSite({
      '/slow': (_req, res) => {
        waiting.push(() => res.writeHead(200).end('ok'));
        if (waiting.length === 8) answerAll();
        else setTimeout(answerAll, 3_000).unref();
      },
    });
    const client = new HttpClient();
    try {
      await Promise.all(Array.from({ length: 8 }, async () => text(await client.get(slow.url('/slow')))));
      assert.equal(slow.maxInFlight, 8);
    } finally {
      await client.close();
      await slow.close();
    }
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('2'), 2_000);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')), 5_000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});
