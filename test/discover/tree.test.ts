import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import type { SourcedEntry } from '../../src/core/entry.js';
import {
  fetchSitemapTree,
  resolveStart,
  walkSitemapTree,
  type SitemapTree,
  type TreeNode,
  type TreeOptions,
} from '../../src/discover/tree.js';
import { renderTree } from '../../src/report/tree.js';
import { sitemapIndex, startSite, urlset, XML, type Site } from '../helpers/site-server.js';

const HTML_PAGE = readFileSync(new URL('./fixtures/not-a-sitemap.html', import.meta.url));
const GZIP = { 'content-type': 'application/gzip' };

/** Small timeouts and backoffs keep the failure cases fast; Retry-After: 1 is still honoured. */
const OPTIONS: TreeOptions = {
  http: {
    connectTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    idleTimeoutMs: 400,
    retries: 2,
    backoffMs: 10,
    maxBackoffMs: 50,
  },
  maxBytesPerSitemap: 1024 * 1024,
};

/** A node as the tests compare it: path instead of URL, the codes of its problems, its children. */
interface Shape {
  path: string;
  foundBy: string;
  status?: number;
  kind?: string;
  urls: number;
  ok: boolean;
  codes: string[];
  children?: Shape[];
}

function shape(node: TreeNode, origin: string): Shape {
  const path = node.url.startsWith(origin) ? node.url.slice(origin.length) : node.url;
  const out: Shape = {
    path,
    foundBy: node.foundBy,
    ...(node.status === undefined ? {} : { status: node.status }),
    ...(node.kind === undefined ? {} : { kind: node.kind }),
    urls: node.urls,
    ok: node.ok,
    codes: node.diagnostics.map((d) => d.code),
  };
  if (node.children.length > 0) out.children = node.children.map((child) => shape(child, origin));
  return out;
}

function find(tree: SitemapTree, url: string): TreeNode {
  const stack = [...tree.roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.url === url) return node;
    stack.push(...node.children);
  }
  throw new Error(`no node ${url}`);
}

/** A gzip bomb: a valid urlset start followed by megabytes of whitespace, a few KB compressed. */
function gzipBomb(megabytes: number): Buffer {
  return gzipSync(
    Buffer.concat([Buffer.from(urlset([]).replace('</urlset>\n', '')), Buffer.alloc(megabytes * 1024 * 1024, 0x20)]),
    { level: 9 },
  );
}

/** A gzip file cut short: the first part inflates, then the stream ends without its trailer. */
function corruptGzip(text: string): Buffer {
  const whole = gzipSync(text);
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}
/** `<url>` elements complete in what a cut gzip still inflates to. */
function completeUrls(cut: Buffer): number {
  const inflated = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  return inflated.split('</url>').length - 1;
}
let CORRUPT_READABLE = -1;

describe('sitemap tree of a site with every kind of trouble', () => {
  let site: Site;
  let tree: SitemapTree;
  let flakyCalls = 0;

  before(async () => {
    site = await startSite((origin) => {
      const u = (path: string) => `${origin}${path}`;
      const corrupt = corruptGzip(urlset(Array.from({ length: 200 }, (_, i) => u(`/c${i}`))));
      CORRUPT_READABLE = completeUrls(corrupt);
      return {
        '/robots.txt': {
          headers: { 'content-type': 'text/plain' },
          body: `User-agent: *\nDisallow: /private/\n\nSitemap: /index.xml\nsITEmap: ${u('/problems.xml')}\n`,
        },
        '/index.xml': {
          headers: XML,
          body: sitemapIndex([u('/gz/a.xml.gz'), u('/gz/b.xml.gz'), u('/index.xml'), u('/pages.xml'), u('/pages.xml')]),
        },
        '/gz/a.xml.gz': {
          headers: GZIP,
          body: gzipSync(
            urlset([
              { loc: u('/a1'), lastmod: '2024-01-05' },
              { loc: u('/a2'), lastmod: '2024-03-01T10:00:00+02:00' },
              { loc: u('/a3') },
            ]),
          ),
        },
        '/gz/b.xml.gz': { headers: GZIP, body: gzipSync(urlset([{ loc: u('/b1'), lastmod: '2023-12-31' }, u('/b2')])) },
        '/pages.xml': { headers: XML, body: urlset([u('/p1'), u('/p2')]) },
        '/problems.xml': {
          headers: XML,
          body: sitemapIndex([
            u('/missing.xml'),
            u('/flaky.xml'),
            u('/stall.xml'),
            u('/page.html'),
            u('/r1.xml'),
            u('/loop-a.xml'),
            u('/bomb.xml.gz'),
            u('/bomb-encoded.xml'),
            u('/nested.xml'),
            u('/private/hidden.xml'),
            u('/corrupt.xml.gz'),
            u('/bad-encoding.xml'),
          ]),
        },
        '/flaky.xml': (_req, res) => {
          if (++flakyCalls <= 2) res.writeHead(503, { 'retry-after': '1' }).end('try later');
          else res.writeHead(200, XML).end(urlset([u('/f1')]));
        },
        '/stall.xml': (_req, res) => {
          res.writeHead(200, XML);
          res.write(urlset(Array.from({ length: 40 }, (_, i) => u(`/s${i}`))).replace('</urlset>\n', '')); // and never finishes
        },
        '/page.html': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: HTML_PAGE },
        '/r1.xml': { status: 301, headers: { location: '/r2.xml' } },
        '/r2.xml': { status: 302, headers: { location: '/r3.xml' } },
        '/r3.xml': { status: 308, headers: { location: '/final.xml' } },
        '/final.xml': { headers: XML, body: urlset([u('/r-page')]) },
        '/loop-a.xml': { status: 302, headers: { location: '/loop-b.xml' } },
        '/loop-b.xml': { status: 302, headers: { location: '/loop-a.xml' } },
        '/bomb.xml.gz': { headers: GZIP, body: gzipBomb(8) },
        '/bomb-encoded.xml': { headers: { ...XML, 'content-encoding': 'gzip' }, body: gzipBomb(8) },
        '/nested.xml': { headers: XML, body: sitemapIndex([u('/pages.xml'), u('/deep.xml'), u('/problems.xml')]) },
        '/deep.xml': { headers: XML, body: urlset([u('/d1')]) },
        '/private/hidden.xml': { headers: XML, body: urlset([u('/h1')]) },
        '/corrupt.xml.gz': { headers: GZIP, body: corrupt },
        '/bad-encoding.xml': { headers: { ...XML, 'content-encoding': 'gzip' }, body: urlset([u('/never')]) },
      };
    });
    tree = await fetchSitemapTree(site.origin, OPTIONS);
  });
  after(() => site.close());

  it('reads robots.txt: two sitemaps, one relative (ROBOTS-002), one on an odd-case field', () => {
    assert.equal(tree.mode, 'site');
    assert.deepEqual(tree.robots && { ...tree.robots, diagnostics: tree.robots.diagnostics.map((d) => d.code) }, {
      url: site.url('/robots.txt'),
      status: 200,
      outcome: 'ok',
      sitemaps: [site.url('/index.xml'), site.url('/problems.xml')],
      diagnostics: ['ROBOTS-002'],
    });
    assert.deepEqual(tree.probes, []);
  });

  it('builds the whole tree, every node with its status, kind, count and problems', () => {
    assert.deepEqual(
      tree.roots.map((root) => shape(root, site.origin)),
      [
        {
          path: '/index.xml',
          foundBy: 'robots',
          status: 200,
          kind: 'sitemapindex',
          urls: 0,
          ok: true,
          codes: ['IDX-005', 'IDX-005'],
          children: [
            { path: '/gz/a.xml.gz', foundBy: 'index', status: 200, kind: 'urlset', urls: 3, ok: true, codes: [] },
            { path: '/gz/b.xml.gz', foundBy: 'index', status: 200, kind: 'urlset', urls: 2, ok: true, codes: [] },
            { path: '/pages.xml', foundBy: 'index', status: 200, kind: 'urlset', urls: 2, ok: true, codes: [] },
          ],
        },
        {
          path: '/problems.xml',
          foundBy: 'robots',
          status: 200,
          kind: 'sitemapindex',
          urls: 0,
          ok: true,
          codes: [],
          children: [
            { path: '/missing.xml', foundBy: 'index', status: 404, urls: 0, ok: false, codes: ['FETCH-001'] },
            { path: '/flaky.xml', foundBy: 'index', status: 200, kind: 'urlset', urls: 1, ok: true, codes: [] },
            {
              path: '/stall.xml',
              foundBy: 'index',
              status: 200,
              kind: 'urlset',
              urls: 40,
              ok: false,
              codes: ['FETCH-001'],
            },
            {
              path: '/page.html',
              foundBy: 'index',
              status: 200,
              kind: 'html',
              urls: 0,
              ok: false,
              codes: ['FETCH-007'],
            },
            { path: '/r1.xml', foundBy: 'index', status: 200, kind: 'urlset', urls: 1, ok: true, codes: ['FETCH-002'] },
            { path: '/loop-a.xml', foundBy: 'index', urls: 0, ok: false, codes: ['FETCH-002', 'FETCH-001'] },
            {
              path: '/bomb.xml.gz',
              foundBy: 'index',
              status: 200,
              kind: 'urlset',
              urls: 0,
              ok: false,
              codes: ['FETCH-006'],
            },
            {
              path: '/bomb-encoded.xml',
              foundBy: 'index',
              status: 200,
              kind: 'urlset',
              urls: 0,
              ok: false,
              codes: ['FETCH-006'],
            },
            {
              path: '/nested.xml',
              foundBy: 'index',
              status: 200,
              kind: 'sitemapindex',
              urls: 0,
              ok: true,
              codes: ['IDX-002', 'IDX-005', 'IDX-005'],
              children: [
                { path: '/deep.xml', foundBy: 'index', status: 200, kind: 'urlset', urls: 1, ok: true, codes: [] },
              ],
            },
            { path: '/private/hidden.xml', foundBy: 'index', urls: 0, ok: false, codes: ['FETCH-003'] },
            {
              path: '/corrupt.xml.gz',
              foundBy: 'index',
              status: 200,
              kind: 'urlset',
              urls: CORRUPT_READABLE,
              ok: false,
              codes: ['FETCH-005', 'XML-014'],
            },
            { path: '/bad-encoding.xml', foundBy: 'index', status: 200, urls: 0, ok: false, codes: ['FETCH-005'] },
          ],
        },
      ],
    );
  });

  it('says why each repeated child is not read again (IDX-005)', () => {
    const index = find(tree, site.url('/index.xml'));
    assert.deepEqual(
      index.diagnostics.map((d) => [d.code, d.severity, d.url, d.message]),
      [
        [
          'IDX-005',
          'warning',
          site.url('/index.xml'),
          `the index lists itself (${site.url('/index.xml')}); it is read once`,
        ],
        [
          'IDX-005',
          'warning',
          site.url('/pages.xml'),
          `${site.url('/pages.xml')} is listed twice in this index; it is read once`,
        ],
      ],
    );
    const nested = find(tree, site.url('/nested.xml'));
    assert.equal(nested.parent, site.url('/problems.xml'));
    assert.deepEqual(
      nested.diagnostics.map((d) => [d.code, d.url ?? null]),
      [
        ['IDX-002', null],
        ['IDX-005', site.url('/pages.xml')],
        ['IDX-005', site.url('/problems.xml')],
      ],
    );
    assert.match(nested.diagnostics[1]!.message, /already listed by .*\/index\.xml/);
    assert.match(nested.diagnostics[2]!.message, /^loop: /);
    assert.equal(site.hits.get('/pages.xml'), 1);
    assert.equal(site.hits.get('/index.xml'), 1);
    assert.equal(site.hits.get('/problems.xml'), 1);
  });

  it('retries a 503 twice, honouring Retry-After, and reads the third answer', () => {
    assert.equal(site.hits.get('/flaky.xml'), 3);
    const flaky = find(tree, site.url('/flaky.xml'));
    assert.ok(flaky.durationMs >= 1_950, `flaky took ${flaky.durationMs} ms, Retry-After asked 2 × 1 s`);
  });

  it('records redirects (FETCH-002) and refuses a redirect loop (FETCH-001)', () => {
    const moved = find(tree, site.url('/r1.xml'));
    assert.equal(moved.finalUrl, site.url('/final.xml'));
    assert.deepEqual(
      moved.redirects.map((r) => [r.status, r.to.slice(site.origin.length)]),
      [
        [301, '/r2.xml'],
        [302, '/r3.xml'],
        [308, '/final.xml'],
      ],
    );
    assert.match(moved.diagnostics[0]!.message, /3 hops/);
    const loop = find(tree, site.url('/loop-a.xml'));
    assert.equal(loop.redirects.length, 2);
    assert.match(loop.diagnostics[1]!.message, /redirect loop/);
  });

  it('stops a stalled body at the idle timeout, keeping the entries read before it', () => {
    const stalled = find(tree, site.url('/stall.xml'));
    assert.match(stalled.diagnostics[0]!.message, /stopped sending data/);
    assert.ok(stalled.durationMs < 2_000);
  });

  it('caps gzip bombs, in the file and in Content-Encoding (FETCH-006)', () => {
    for (const path of ['/bomb.xml.gz', '/bomb-encoded.xml']) {
      const bomb = find(tree, site.url(path));
      assert.ok(bomb.bytesIn < 64 * 1024, `${path}: ${bomb.bytesIn} bytes on the wire`);
      assert.ok(bomb.bytesDecoded <= 1024 * 1024, `${path}: ${bomb.bytesDecoded} bytes decoded`);
      assert.equal(bomb.gzip, true);
    }
  });

  it('counts bytes compressed and not, and the lastmod range', () => {
    const gz = find(tree, site.url('/gz/a.xml.gz'));
    assert.equal(gz.gzip, true);
    const served = urlset([
      { loc: site.url('/a1'), lastmod: '2024-01-05' },
      { loc: site.url('/a2'), lastmod: '2024-03-01T10:00:00+02:00' },
      { loc: site.url('/a3') },
    ]);
    assert.equal(gz.bytesIn, gzipSync(served).length);
    assert.equal(gz.bytesDecoded, Buffer.byteLength(served));
    assert.equal(gz.newestLastmod, '2024-03-01T10:00:00+02:00');
    assert.equal(gz.oldestLastmod, '2024-01-05');
    assert.equal(tree.totals.newestLastmod, '2024-03-01T10:00:00+02:00');
    assert.equal(tree.totals.oldestLastmod, '2023-12-31');
  });

  it('keeps the entries of a cut gzip file that inflate, and says what broke (FETCH-005)', () => {
    assert.ok(CORRUPT_READABLE > 50 && CORRUPT_READABLE < 200, `${CORRUPT_READABLE} complete URLs before the cut`);
    const cut = find(tree, site.url('/corrupt.xml.gz'));
    assert.match(cut.diagnostics[0]!.message, /gzip data is corrupt or cut off/);
    const encoded = find(tree, site.url('/bad-encoding.xml'));
    assert.match(encoded.diagnostics[0]!.message, /Content-Encoding gzip does not decode/);
  });

  it('reads several sitemaps at once, never more than 4 from one host', () => {
    assert.ok(site.maxInFlight > 1 && site.maxInFlight <= 4, `${site.maxInFlight} requests in flight at most`);
  });

  it('renders as a terminal tree, problems under their sitemap, the rest counted', () => {
    const lines = renderTree(tree, { maxPerRule: 1 }).split('\n');
    const at = (start: string) => lines.findIndex((line) => line.startsWith(start));
    assert.equal(lines[0], site.origin);
    assert.equal(lines[1], 'robots.txt: HTTP 200, 2 sitemaps declared');
    assert.equal(
      lines[2]!.indexOf(`  ${site.url('/robots.txt')}:4:1: error ROBOTS-002 Sitemap: "/index.xml" is relative`),
      0,
    );
    const index = at('├── /index.xml  ✓ 200 · sitemapindex · 5 sitemaps · ');
    assert.ok(index > 0, lines.join('\n'));
    assert.equal(lines[index + 1]!.indexOf(`│   │ ${site.url('/index.xml')}:`), 0, lines[index + 1]);
    assert.match(lines[index + 1]!, /: warning IDX-005 the index lists itself/);
    assert.equal(lines[index + 2], '│   │ … 1 more IDX-005 warning not shown (--max-per-rule 0 shows all)');
    assert.match(
      lines[index + 3]!,
      /^│ {3}├── \/gz\/a\.xml\.gz {2}✓ 200 · urlset · 3 URLs · \d+ B gzip → \d+ B · lastmod 2024-01-05 … 2024-03-01T10:00:00\+02:00 · \d+ ms$/,
    );
    const missing = at('    ├── /missing.xml  ✗ 404 · ');
    assert.equal(
      lines[missing + 1],
      `    │     ${site.url('/missing.xml')}: error FETCH-001 answered HTTP 404 Not Found: a sitemap must answer 200`,
    );
    assert.ok(at('    ├── /private/hidden.xml  ✗ blocked · ') > missing);
    assert.match(
      lines.at(-2)!,
      /^18 sitemaps \(9 read, 9 failed\) · \d+ URLs · .* · 12 errors, 6 warnings · lastmod 2023-12-31 … 2024-03-01T10:00:00\+02:00 · [\d.]+ s$/,
    );
  });

  it('totals the tree', () => {
    assert.deepEqual(
      {
        ...tree.totals,
        bytesIn: undefined,
        bytesDecoded: undefined,
        newestLastmod: undefined,
        oldestLastmod: undefined,
      },
      {
        sitemaps: 18,
        read: 9,
        failed: 9,
        urls: 50 + CORRUPT_READABLE,
        errors: 12, // 11 in the sitemaps, and robots.txt's ROBOTS-002: the totals count every problem shown
        warnings: 6,
        infos: 0,
        bytesIn: undefined,
        bytesDecoded: undefined,
        newestLastmod: undefined,
        oldestLastmod: undefined,
      },
    );
    assert.equal(tree.complete, true);
    assert.deepEqual(tree.diagnostics, []);
  });
});

describe('roots without robots.txt sitemaps', () => {
  it('probes the well-known locations one at a time and stops at the first sitemap', async () => {
    const site = await startSite((origin) => ({
      '/sitemap_index.xml': { headers: { 'content-type': 'text/html' }, body: HTML_PAGE },
      '/sitemap.xml.gz': { headers: GZIP, body: gzipSync(urlset([`${origin}/one`, `${origin}/two`])) },
      '/sitemap.txt': { headers: { 'content-type': 'text/plain' }, body: `${origin}/never-read\n` },
    }));
    try {
      const tree = await fetchSitemapTree(site.origin, OPTIONS);
      assert.deepEqual([tree.robots?.status, tree.robots?.outcome], [404, 'unavailable']);
      assert.deepEqual(
        tree.probes.map((p) => [p.url.slice(site.origin.length), p.status, p.outcome]),
        [
          ['/sitemap.xml', 404, 'missing'],
          ['/sitemap_index.xml', 200, 'html'],
          ['/sitemap-index.xml', 404, 'missing'],
          ['/sitemap.xml.gz', 200, 'found'],
        ],
      );
      assert.deepEqual(
        tree.roots.map((r) => shape(r, site.origin)),
        [{ path: '/sitemap.xml.gz', foundBy: 'well-known', status: 200, kind: 'urlset', urls: 2, ok: true, codes: [] }],
      );
      assert.equal(site.hits.get('/sitemap.xml.gz'), 1); // the probe's response is the one read
      assert.equal(site.hits.has('/sitemap.txt'), false);
      assert.equal(site.maxInFlight, 1);
    } finally {
      await site.close();
    }
  });

  it('reads nothing from a site whose robots.txt answers 500 (ROBOTS-004)', async () => {
    const site = await startSite({
      '/robots.txt': { status: 500, body: 'internal error' },
      '/sitemap.xml': { headers: XML, body: urlset([]) },
    });
    try {
      const tree = await fetchSitemapTree(site.origin, OPTIONS);
      assert.deepEqual(
        [tree.robots?.status, tree.robots?.outcome, tree.robots?.diagnostics.map((d) => d.code)],
        [500, 'unreachable', ['ROBOTS-004']],
      );
      assert.equal(site.hits.get('/robots.txt'), 3); // first try and two retries
      assert.deepEqual(tree.roots, []);
      assert.deepEqual(tree.probes, []);
      assert.deepEqual(
        tree.diagnostics.map((d) => d.code),
        ['FETCH-001'],
      );
      assert.match(tree.diagnostics[0]!.message, /robots\.txt is unreachable/);
      assert.equal(site.hits.has('/sitemap.xml'), false);
    } finally {
      await site.close();
    }
  });

  it('reports a site with no sitemap anywhere', async () => {
    const site = await startSite({});
    try {
      const tree = await fetchSitemapTree(site.origin, {
        ...OPTIONS,
        wellKnownPaths: ['/sitemap.xml', '/sitemap.txt'],
      });
      assert.deepEqual(
        tree.probes.map((p) => p.outcome),
        ['missing', 'missing'],
      );
      assert.deepEqual(tree.roots, []);
      assert.deepEqual(
        tree.diagnostics.map((d) => d.code),
        ['FETCH-001'],
      );
      assert.deepEqual(tree.totals.sitemaps, 0);
    } finally {
      await site.close();
    }
  });

  it('starts at a sitemap URL given explicitly, without robots.txt', async () => {
    const site = await startSite((origin) => ({
      '/maps/index.xml': { headers: XML, body: sitemapIndex([`${origin}/maps/one.txt`]) },
      '/maps/one.txt': { headers: { 'content-type': 'text/plain' }, body: `${origin}/x\n${origin}/y\n${origin}/z\n` },
    }));
    try {
      const tree = await fetchSitemapTree(site.url('/maps/index.xml'), OPTIONS);
      assert.equal(tree.mode, 'sitemaps');
      assert.equal(tree.robots, undefined);
      assert.equal(site.hits.has('/robots.txt'), false);
      assert.deepEqual(
        tree.roots.map((r) => shape(r, site.origin)),
        [
          {
            path: '/maps/index.xml',
            foundBy: 'explicit',
            status: 200,
            kind: 'sitemapindex',
            urls: 0,
            ok: true,
            codes: [],
            children: [
              { path: '/maps/one.txt', foundBy: 'index', status: 200, kind: 'text', urls: 3, ok: true, codes: [] },
            ],
          },
        ],
      );
    } finally {
      await site.close();
    }
  });

  it('follows indexes only to the depth limit (LIMIT-003)', async () => {
    const site = await startSite((origin) => ({
      '/level0.xml': { headers: XML, body: sitemapIndex([`${origin}/level1.xml`]) },
      '/level1.xml': { headers: XML, body: sitemapIndex([`${origin}/level2.xml`]) },
      '/level2.xml': { headers: XML, body: urlset([`${origin}/deep`]) },
    }));
    try {
      const tree = await fetchSitemapTree(site.url('/level0.xml'), { ...OPTIONS, maxDepth: 1 });
      const level1 = tree.roots[0]!.children[0]!;
      assert.deepEqual(shape(level1, site.origin), {
        path: '/level1.xml',
        foundBy: 'index',
        status: 200,
        kind: 'sitemapindex',
        urls: 0,
        ok: true,
        codes: ['IDX-002', 'LIMIT-003'],
      });
      assert.equal(site.hits.has('/level2.xml'), false);
    } finally {
      await site.close();
    }
  });
});

describe('walkSitemapTree', () => {
  let site: Site;
  before(async () => {
    site = await startSite((origin) => ({
      '/sitemap_index.xml': {
        headers: XML,
        body: sitemapIndex(Array.from({ length: 4 }, (_, i) => `${origin}/part-${i}.xml.gz`)),
      },
      ...Object.fromEntries(
        Array.from({ length: 4 }, (_, i) => [
          `/part-${i}.xml.gz`,
          {
            headers: GZIP,
            body: gzipSync(
              urlset(
                Array.from({ length: 5_000 }, (_, j) => ({ loc: `${origin}/p/${i}/${j}`, lastmod: '2024-05-01' })),
              ),
            ),
          },
        ]),
      ),
    }));
  });
  after(() => site.close());

  it('streams every URL entry of the tree with its source, then settles the summary', async () => {
    const walk = walkSitemapTree(site.url('/sitemap_index.xml'), OPTIONS);
    const perSource = new Map<string, number>();
    let first: SourcedEntry | undefined;
    for await (const entry of walk) {
      first ??= entry;
      perSource.set(entry.source!, (perSource.get(entry.source!) ?? 0) + 1);
    }
    const tree = await walk.tree;
    assert.deepEqual(first, { kind: 'url', loc: first!.loc, lastmod: '2024-05-01', source: first!.source });
    assert.match(first.loc, /\/p\/\d\/0$/);
    assert.deepEqual(
      [...perSource.entries()].sort(),
      Array.from({ length: 4 }, (_, i) => [site.url(`/part-${i}.xml.gz`), 5_000]),
    );
    assert.equal(tree.totals.urls, 20_000);
    assert.equal(tree.complete, true);
  });

  it('hands the same entries over in batches, bounded by the buffer', async () => {
    const walk = walkSitemapTree(site.url('/sitemap_index.xml'), OPTIONS);
    let total = 0;
    let largest = 0;
    for await (const batch of walk.batches()) {
      total += batch.length;
      largest = Math.max(largest, batch.length);
      assert.ok(batch.every(({ entry, source }) => entry.kind === 'url' && source.endsWith('.xml.gz')));
    }
    assert.equal(total, 20_000);
    assert.equal((await walk.tree).totals.urls, 20_000);
    // 2,048 buffered, plus at most one more from each of the 8 sitemaps read at once
    assert.ok(largest <= 2_048 + 8, `a batch of ${largest} entries`);
  });

  it('works out no lastmod range when asked not to, and streams the same entries', async () => {
    const read = async (lastmodRange: boolean) => {
      const walk = walkSitemapTree(site.url('/sitemap_index.xml'), { ...OPTIONS, lastmodRange });
      const locs: string[] = [];
      for await (const entry of walk) locs.push(`${entry.loc} ${entry.lastmod}`);
      return { locs: locs.sort(), tree: await walk.tree };
    };
    const [plain, ranged] = [await read(false), await read(true)];
    assert.deepEqual(plain.locs, ranged.locs);
    assert.equal(plain.tree.totals.urls, 20_000);
    assert.equal(plain.tree.totals.newestLastmod, undefined);
    assert.equal(ranged.tree.totals.newestLastmod, '2024-05-01');
  });

  it('stops the walk when the reader stops early', async () => {
    const walk = walkSitemapTree(site.url('/sitemap_index.xml'), { ...OPTIONS, concurrency: 1 });
    let read = 0;
    for await (const _ of walk) {
      if (++read === 10) break;
    }
    const tree = await walk.tree;
    assert.equal(tree.complete, false);
    assert.ok(tree.totals.urls < 20_000, `${tree.totals.urls} URLs read after the reader stopped`);
  });

  it('stops when the caller aborts, and says the tree is incomplete', async () => {
    const controller = new AbortController();
    const tree = await fetchSitemapTree(site.url('/sitemap_index.xml'), {
      ...OPTIONS,
      concurrency: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.nodesDone === 1) controller.abort();
      },
    });
    assert.equal(tree.complete, false);
    assert.ok(tree.totals.urls < 20_000, `${tree.totals.urls} URLs read after the abort`);
    assert.deepEqual(tree.diagnostics, []);
  });

  it('reports progress as nodes finish', async () => {
    const seen: number[] = [];
    const tree = await fetchSitemapTree(site.url('/sitemap_index.xml'), {
      ...OPTIONS,
      onProgress: (p) => seen.push(p.nodesDone),
    });
    assert.equal(tree.totals.sitemaps, 5);
    assert.equal(seen.at(-1), 5);
  });
});

describe('resolveStart', () => {
  it('reads a bare host or origin as a site, anything with a path as a sitemap URL', () => {
    assert.deepEqual(resolveStart('example.com'), { mode: 'site', site: 'https://example.com', schemeGuessed: true });
    assert.deepEqual(resolveStart('http://example.com/'), { mode: 'site', site: 'http://example.com' });
    assert.deepEqual(resolveStart('https://example.com/sitemap.xml#top'), {
      mode: 'sitemap',
      url: 'https://example.com/sitemap.xml',
    });
    assert.throws(() => resolveStart('ftp://example.com/'), /not an http\(s\)/);
  });
});
