/**
 * `tree --state DIR`: conditional fetches against a local site whose sitemaps speak ETag,
 * Last-Modified or neither, change between walks, or fail. A 304 or an unchanged body marks a
 * sitemap unchanged; --changed-only prints only the entries of what changed; a 5xx, 408 or 429 is
 * never taken for unchanged or empty.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { sitemapIndex, startSite, urlset, XML } from '../helpers/site-server.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-tree-state-'));
after(() => rm(scratch, { recursive: true, force: true }));

/** What each sitemap serves in the current walk, and the conditional headers each request carried. */
interface Versions {
  a: number;
  /** d's answer: 200, or a failure status. */
  d: number;
}

async function startChangingSite(versions: Versions) {
  const seen: { path: string; ifNoneMatch?: string; ifModifiedSince?: string }[] = [];
  const LAST_MODIFIED = 'Mon, 01 Jan 2024 00:00:00 GMT';
  const record = (req: IncomingMessage) => {
    seen.push({
      path: req.url ?? '',
      ...(req.headers['if-none-match'] ? { ifNoneMatch: req.headers['if-none-match'] } : {}),
      ...(req.headers['if-modified-since'] ? { ifModifiedSince: req.headers['if-modified-since'] } : {}),
    });
  };
  /** Serves `body` with ETag `tag`, or a 304 when the request names it. */
  const withEtag = (tag: () => string, body: () => string) => (req: IncomingMessage, res: ServerResponse) => {
    record(req);
    if (req.headers['if-none-match'] === tag()) res.writeHead(304, { etag: tag() }).end();
    else res.writeHead(200, { ...XML, etag: tag() }).end(body());
  };
  const site = await startSite((origin) => ({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `Sitemap: ${origin}/index.xml\n` },
    '/index.xml': withEtag(
      () => '"index-1"',
      () => sitemapIndex(['a', 'b', 'c', 'd'].map((name) => `${origin}/${name}.xml`)),
    ),
    '/a.xml': withEtag(
      () => `"a-${versions.a}"`,
      () => urlset([`${origin}/a1`, { loc: `${origin}/a-v${versions.a}`, lastmod: `2024-0${versions.a}-01` }]),
    ),
    '/b.xml': (req, res) => {
      record(req);
      if (req.headers['if-modified-since'] === LAST_MODIFIED) res.writeHead(304).end();
      else res.writeHead(200, { ...XML, 'last-modified': LAST_MODIFIED }).end(urlset([`${origin}/b1`, `${origin}/b2`]));
    },
    '/c.xml': (req, res) => {
      record(req);
      res.writeHead(200, XML).end(urlset([`${origin}/c1`]));
    },
    '/d.xml': (req, res) => {
      record(req);
      if (versions.d !== 200) res.writeHead(versions.d, { 'content-type': 'text/plain' }).end('not now');
      else res.writeHead(200, XML).end(urlset([`${origin}/d1`]));
    },
  }));
  return { site, seen };
}

const locs = (stdout: string, origin: string): string[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { loc: string }).loc.replace(origin, ''))
    .sort();

test('--urls --changed-only: the first walk prints everything; the next ones only what changed, asked conditionally', async () => {
  const versions: Versions = { a: 1, d: 200 };
  const { site, seen } = await startChangingSite(versions);
  const state = join(scratch, 'changed-only');
  const walk = (...extra: string[]) =>
    runCli(['tree', site.origin, '--urls', '--state', state, '--changed-only', '--retries', '0', ...extra]);
  try {
    const first = await walk();
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(locs(first.stdout, site.origin), ['/a-v1', '/a1', '/b1', '/b2', '/c1', '/d1']);

    versions.a = 2;
    seen.length = 0;
    const second = await walk();
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(locs(second.stdout, site.origin), ['/a-v2', '/a1']);
    assert.deepEqual(
      seen.sort((x, y) => (x.path < y.path ? -1 : 1)),
      [
        { path: '/a.xml', ifNoneMatch: '"a-1"' },
        { path: '/b.xml', ifModifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT' },
        { path: '/c.xml' },
        { path: '/d.xml' },
        { path: '/index.xml', ifNoneMatch: '"index-1"' },
      ],
    );

    // Nothing changed: nothing printed, and the walk is a success.
    const third = await walk();
    assert.deepEqual([third.code, third.stdout], [0, '']);
    assert.match(third.stderr, /0 URLs from 5 of 5 sitemaps, 5 unchanged since the last walk\n/);
  } finally {
    await site.close();
  }
});

test('a 5xx, 408 or 429 is never taken for unchanged or empty: reported, and the sitemap is whole again next time', async () => {
  const versions: Versions = { a: 1, d: 200 };
  const { site } = await startChangingSite(versions);
  const state = join(scratch, 'failures');
  const walk = () =>
    runCli(['tree', site.origin, '--urls', '--state', state, '--changed-only', '--retries', '0', '--max-wait', '0']);
  try {
    assert.equal((await walk()).code, 0);
    for (const status of [503, 408, 429]) {
      versions.d = status;
      const failed = await walk();
      assert.equal(failed.code, 1, `HTTP ${status} fails the walk`);
      assert.equal(failed.stdout, '');
      assert.match(failed.stderr, /0 URLs from 4 of 5 sitemaps, 4 unchanged since the last walk\n/);
    }
    // d answers again, as it was: unchanged since it was last read whole, so not printed again.
    versions.d = 200;
    const back = await walk();
    assert.deepEqual([back.code, back.stdout], [0, '']);

    // The tree itself says which sitemaps are unchanged, with their remembered counts.
    versions.a = 3;
    const tree = await runCli(['tree', site.origin, '--state', state]);
    assert.equal(tree.code, 0, tree.stderr);
    assert.match(tree.stdout, /\/b\.xml\s+✓ 304 · unchanged · urlset · 2 URLs/);
    assert.match(tree.stdout, /\/c\.xml\s+✓ 200 · unchanged · urlset · 1 URL/);
    assert.match(tree.stdout, /\/a\.xml\s+✓ 200 · urlset · 2 URLs/);
    assert.match(tree.stdout, /5 sitemaps \(5 read, 0 failed, 4 unchanged\)/);
    const json = await runCli(['tree', site.origin, '--state', state, '--json']);
    const parsed = JSON.parse(json.stdout) as { totals: { unchanged: number; urls: number } };
    assert.deepEqual([parsed.totals.unchanged, parsed.totals.urls], [5, 6]);
  } finally {
    await site.close();
  }
});

test('--urls with --state but without --changed-only prints every entry, fetching every sitemap whole', async () => {
  const versions: Versions = { a: 1, d: 200 };
  const { site, seen } = await startChangingSite(versions);
  const state = join(scratch, 'all');
  try {
    assert.equal((await runCli(['tree', site.origin, '--urls', '--state', state])).code, 0);
    seen.length = 0;
    const again = await runCli(['tree', site.origin, '--urls', '--state', state]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(locs(again.stdout, site.origin).length, 6);
    assert.ok(
      seen.every((request) => request.ifNoneMatch === undefined && request.ifModifiedSince === undefined),
      'no conditional request',
    );
    const usage = await runCli(['tree', site.origin, '--urls', '--changed-only']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--changed-only goes with --urls and --state DIR/);
  } finally {
    await site.close();
  }
});

test('a sitemap unchanged since a walk that found errors reports them again (a 304 hides nothing): exit 1 both times', async () => {
  const site = await startSite((origin) => ({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `Sitemap: ${origin}/bad.xml\n` },
    '/bad.xml': (req, res) => {
      if (req.headers['if-none-match'] === '"bad-1"') res.writeHead(304, { etag: '"bad-1"' }).end();
      else
        res.writeHead(200, { ...XML, etag: '"bad-1"' }).end(
          urlset([
            { loc: `${origin}/a`, lastmod: 'yesterday' },
            { loc: `${origin}/b`, lastmod: '2024-13-40' },
          ]),
        );
    },
  }));
  const state = join(scratch, 'replay');
  try {
    const first = await runCli(['tree', site.origin, '--state', state]);
    assert.equal(first.code, 1, first.stderr);
    const errorsOf = (stdout: string) => /(\d+) errors?/.exec(stdout)?.[1];
    assert.equal(errorsOf(first.stdout), '2', first.stdout);
    const again = await runCli(['tree', site.origin, '--state', state]);
    assert.match(again.stdout, /304 · unchanged/);
    assert.equal(errorsOf(again.stdout), '2', again.stdout);
    assert.equal((again.stdout.match(/DATE-001/g) ?? []).length, (first.stdout.match(/DATE-001/g) ?? []).length);
    assert.equal(again.code, 1, 'the remembered errors fail the run as they did the first time');
    const json = JSON.parse((await runCli(['tree', site.origin, '--state', state, '--json'])).stdout) as {
      roots: { read: string; errors: number; diagnostics: { code: string }[] }[];
    };
    assert.deepEqual(
      [json.roots[0]!.read, json.roots[0]!.errors, json.roots[0]!.diagnostics.map((d) => d.code)],
      ['unchanged', 2, ['DATE-001', 'DATE-003']],
    );
  } finally {
    await site.close();
  }
});
