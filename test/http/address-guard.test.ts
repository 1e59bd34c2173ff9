/**
 * Private addresses out of a public site's reach (issue 25 §10): the address guard of the HTTP
 * stack, with a resolver that plays a public start host, and the real client on 127.0.0.1, where
 * the start is loopback and so everything stays allowed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpClient, HttpError, RetryState, type HttpResponse } from '../../src/http/client.js';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { createAddressGuard, guardAddresses, isPublicAddress } from '../../src/http/address-guard.js';
import { followRedirects } from '../../src/http/redirects.js';
import { transport } from '../../src/http/transport.js';
import { compose, type Fetch, type HttpRequest } from '../../src/http/types.js';
import { startSite, urlset, XML } from '../helpers/site-server.js';

describe('isPublicAddress', () => {
  const cases: [string, boolean][] = [
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['172.32.0.1', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd12:3456::1', false],
    ['fc00::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::10.0.0.1', false],
    ['2002:0a00:0001::1', false],
    ['2002:0808:0808::1', true],
    ['not an address', false],
  ];
  for (const [address, expected] of cases)
    it(`${address}: ${expected ? 'public' : 'not public'}`, () => assert.equal(isPublicAddress(address), expected));
});

/** Names and their addresses, as a resolver would give them. */
const DNS: Record<string, string[]> = {
  'www.example.com': ['93.184.216.34'],
  'cdn.example.net': ['2606:4700::6810:84e5', '104.16.132.229'],
  'intranet.example.com': ['10.0.0.5'],
  'sneaky.example.com': ['93.184.216.35', '::ffff:192.168.0.1'],
  'localhost.example': ['127.0.0.1'],
};
const resolve = (host: string) =>
  DNS[host] ? Promise.resolve(DNS[host]) : Promise.reject(new Error(`ENOTFOUND ${host}`));

/** A fake transport: /go/URL redirects to URL, everything else answers 200; it records what it was asked. */
function fakeSite(asked: string[]): Fetch {
  return (request) => {
    asked.push(request.url);
    const target = /\/go\/(.*)$/.exec(request.url)?.[1];
    const response: HttpResponse = {
      requestedUrl: request.url,
      url: request.url,
      status: target ? 302 : 200,
      headers: target ? { location: decodeURIComponent(target) } : {},
      redirects: [],
      attempts: 1,
      body: (async function* () {})(),
      transfer: { wireBytes: 0, bytes: 0, truncated: false },
      discard: () => undefined,
    };
    return Promise.resolve(response);
  };
}

function request(url: string): HttpRequest {
  return { url, headers: {}, maxBytes: Infinity, retries: 0, retryState: new RetryState(), deferRetries: false };
}

async function failureOf(promise: Promise<unknown>): Promise<HttpError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(failure instanceof HttpError, `an HttpError, not ${String(failure)}`);
  return failure;
}

describe('the address guard, on a public start host', () => {
  const client = (allowPrivateAddresses: boolean, asked: string[]) =>
    compose(fakeSite(asked), followRedirects(5), guardAddresses({ allowPrivateAddresses, resolve }));

  it('refuses a redirect to the cloud metadata address, and a name that resolves to a private one', async () => {
    const asked: string[] = [];
    const fetch = client(false, asked);
    assert.equal((await fetch(request('https://www.example.com/robots.txt'))).status, 200);
    const metadata = await failureOf(
      fetch(request(`https://www.example.com/go/${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`)),
    );
    assert.equal(metadata.kind, 'private-address');
    assert.equal(metadata.permanent, true, 'not retried');
    assert.match(
      metadata.message,
      /http:\/\/169\.254\.169\.254\/latest\/meta-data\/ is on 169\.254\.169\.254, which resolves to 169\.254\.169\.254, a private address, while the run started on the public host www\.example\.com: not requested \(pass --allow-private-addresses to allow it\)/,
    );
    assert.equal(metadata.redirects.length, 1, 'the chain that led there is kept');
    for (const url of [
      'https://intranet.example.com/sitemap.xml',
      'http://sneaky.example.com/',
      'http://[::1]:8080/',
      'http://[fd00::5]/',
      'http://localhost.example/',
    ]) {
      assert.equal((await failureOf(fetch(request(url)))).kind, 'private-address', url);
    }
    assert.deepEqual(
      asked.map((url) => new URL(url).hostname),
      ['www.example.com', 'www.example.com'],
      'nothing private was requested',
    );
  });

  it('lets public hosts through, and a name that does not resolve to the transport, which reports it', async () => {
    const asked: string[] = [];
    const fetch = client(false, asked);
    await fetch(request('https://www.example.com/'));
    assert.equal((await fetch(request('https://cdn.example.net/sitemap.xml'))).status, 200);
    assert.equal((await fetch(request('https://nowhere.example/'))).status, 200);
    assert.deepEqual(asked, [
      'https://www.example.com/',
      'https://cdn.example.net/sitemap.xml',
      'https://nowhere.example/',
    ]);
  });

  it('allows every address with allowPrivateAddresses', async () => {
    const asked: string[] = [];
    const fetch = client(true, asked);
    await fetch(request('https://www.example.com/'));
    assert.equal((await fetch(request('https://intranet.example.com/sitemap.xml'))).status, 200);
    assert.equal((await fetch(request('http://169.254.169.254/'))).status, 200);
  });

  it('lets a private start go anywhere: an intranet site is crawled from inside', async () => {
    const fetch = client(false, []);
    await fetch(request('https://intranet.example.com/'));
    assert.equal((await fetch(request('http://localhost.example/'))).status, 200);
    assert.equal((await fetch(request('https://www.example.com/'))).status, 200);
  });
});

describe('the HTTP client on 127.0.0.1 (a loopback start)', () => {
  it('follows a redirect to another loopback name, so local sites and the tests work', async () => {
    const site = await startSite((origin) => ({
      '/sitemap.xml': { status: 301, headers: { location: `${origin.replace('127.0.0.1', 'localhost')}/real.xml` } },
      '/real.xml': { headers: XML, body: urlset(['https://example.com/a']) },
    }));
    const client = new HttpClient({ retries: 0 });
    try {
      const response = await client.get(site.url('/sitemap.xml'));
      assert.equal(response.status, 200);
      assert.match(response.url, /^http:\/\/localhost:\d+\/real\.xml$/);
      response.discard();
    } finally {
      await client.close();
      await site.close();
    }
  });
});

describe('DNS rebinding: a name public when checked, private when connected to', () => {
  // The check's resolver says both names are public; the connection's lookup (asked a moment
  // later) answers 127.0.0.1 for both, where the test server listens: a rebinding name.
  const publicDns = (host: string) =>
    ['www.example.com', 'rebind.example'].includes(host)
      ? Promise.resolve(['93.184.216.34'])
      : Promise.reject(new Error(`ENOTFOUND ${host}`));
  const rebinding = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  }) as unknown as LookupFunction;

  async function fetchBoth(connectionsGuarded: boolean): Promise<{ hosts: string[]; second: unknown }> {
    const hosts: string[] = [];
    const site = await startSite({
      '/a.xml': (req, res) => {
        hosts.push(req.headers.host!.replace(/:\d+$/, ''));
        res.writeHead(200, XML).end(urlset(['https://www.example.com/a']));
      },
    });
    const guard = createAddressGuard({ allowPrivateAddresses: false, resolve: publicDns, connectLookup: rebinding });
    const agent = new Agent({ connect: { lookup: connectionsGuarded ? guard.lookup : rebinding } });
    const fetch = compose(
      transport({ agent: () => Promise.resolve(agent), firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000 }),
      guard.layer,
    );
    const port = new URL(site.origin).port;
    try {
      const first = await fetch(request(`http://www.example.com:${port}/a.xml`));
      assert.equal(first.status, 200, 'the start host itself is never refused');
      first.discard();
      const second = await fetch(request(`http://rebind.example:${port}/a.xml`)).then(
        (response) => (response.discard(), response.status),
        (error: unknown) => error,
      );
      return { hosts, second };
    } finally {
      await agent.close();
      await site.close();
    }
  }

  it('refuses the connection to the private address the name rebinds to', async () => {
    const { hosts, second } = await fetchBoth(true);
    assert.ok(second instanceof HttpError, `refused, not ${String(second)}`);
    assert.equal(second.kind, 'private-address');
    assert.equal(second.permanent, true, 'not retried');
    assert.match(
      second.message,
      /^http:\/\/rebind\.example:\d+\/a\.xml: rebind\.example resolved to 127\.0\.0\.1, a private address, when connecting .* --allow-private-addresses/,
    );
    assert.deepEqual(hosts, ['www.example.com'], 'nothing reached the private address for rebind.example');
  });

  it('the check before the request alone lets it through (the gap the lookup closes)', async () => {
    const { hosts, second } = await fetchBoth(false);
    assert.equal(second, 200);
    assert.deepEqual(hosts, ['www.example.com', 'rebind.example']);
  });
});
