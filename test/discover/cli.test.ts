import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import type { SourcedEntry } from '../../src/core/entry.js';
import type { SitemapTree } from '../../src/discover/tree.js';
import { runCli } from '../helpers/cli.js';
import { hostile, startHostileServer } from '../helpers/hostile-server.js';
import { sitemapIndex, startSite, urlset, XML, type Site } from '../helpers/site-server.js';

const FAST = ['--timeout', '5', '--retries', '0'];

describe('sitemapkit tree', () => {
  let site: Site;
  before(async () => {
    site = await startSite((origin) => ({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: `User-agent: *\nDisallow:\nSitemap: ${origin}/sitemap_index.xml\n`,
      },
      '/sitemap_index.xml': {
        headers: XML,
        body: sitemapIndex([`${origin}/pages.xml.gz`, `${origin}/posts.xml`, `${origin}/gone.xml`]),
      },
      '/pages.xml.gz': {
        headers: { 'content-type': 'application/gzip' },
        body: gzipSync(
          urlset([
            { loc: `${origin}/`, lastmod: '2024-04-01' },
            { loc: `${origin}/about`, lastmod: '2024-05-02' },
          ]),
        ),
      },
      '/posts.xml': { headers: XML, body: urlset([`${origin}/posts/1`, `${origin}/posts/2`, `${origin}/posts/3`]) },
    }));
  });
  after(() => site.close());

  it('draws the tree with counts, status, problems and totals', async () => {
    const { code, stdout, stderr } = await runCli(['tree', site.origin, ...FAST]);
    assert.equal(code, 1, 'a listed sitemap that cannot be read loses its URLs: exit 1');
    const lines = stdout.trimEnd().split('\n');
    assert.equal(lines[0], site.origin);
    assert.equal(lines[1], 'robots.txt: HTTP 200, 1 sitemap declared');
    // Durations: milliseconds, or seconds on a busy machine.
    assert.match(
      lines[2]!,
      /^└── \/sitemap_index\.xml {2}✓ 200 · sitemapindex · 3 sitemaps · \d+ B · (\d+ ms|[\d.]+ s)$/,
    );
    assert.match(
      lines[3]!,
      /^ {4}├── \/pages\.xml\.gz {2}✓ 200 · urlset · 2 URLs · \d+ B gzip → \d+ B · lastmod 2024-04-01 … 2024-05-02 · (\d+ ms|[\d.]+ s)$/,
    );
    assert.match(lines[4]!, /^ {4}├── \/posts\.xml {2}✓ 200 · urlset · 3 URLs · \d+ B · (\d+ ms|[\d.]+ s)$/);
    assert.match(lines[5]!, /^ {4}└── \/gone\.xml {2}✗ 404 · (\d+ ms|[\d.]+ s)$/);
    assert.equal(
      lines[6],
      `          ${site.url('/gone.xml')}: error FETCH-001 answered HTTP 404 Not Found: a sitemap must answer 200`,
    );
    assert.equal(lines[7], '');
    assert.match(
      lines[8]!,
      /^4 sitemaps \(3 read, 1 failed\) · 5 URLs · [\d.]+ (B|KiB) transferred, [\d.]+ (B|KiB) decoded · 1 error, 0 warnings · lastmod 2024-04-01 … 2024-05-02 · (\d+ ms|[\d.]+ s)$/,
    );
    assert.equal(lines.length, 9);
    assert.equal(stderr, '');
  });

  it('prints the tree as one JSON document with --json', async () => {
    const { code, stdout } = await runCli(['tree', site.origin, '--json', ...FAST]);
    assert.equal(code, 1, '/gone.xml is lost');
    const tree = JSON.parse(stdout) as SitemapTree;
    assert.equal(tree.mode, 'site');
    assert.deepEqual(tree.robots?.sitemaps, [site.url('/sitemap_index.xml')]);
    assert.deepEqual(
      tree.roots[0]?.children.map((c) => [c.url, c.status, c.urls, c.gzip]),
      [
        [site.url('/pages.xml.gz'), 200, 2, true],
        [site.url('/posts.xml'), 200, 3, false],
        [site.url('/gone.xml'), 404, 0, false],
      ],
    );
    assert.deepEqual(tree.totals.urls, 5);
  });

  it('streams every URL entry as JSONL with its source with --urls', async () => {
    const { code, stdout, stderr } = await runCli(['tree', site.url('/sitemap_index.xml'), '--urls', ...FAST]);
    assert.equal(code, 1, '/gone.xml is lost');
    const entries = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SourcedEntry);
    const sorted = entries.sort((a, b) => a.loc.localeCompare(b.loc));
    assert.deepEqual(sorted, [
      { kind: 'url', loc: `${site.origin}/`, lastmod: '2024-04-01', source: site.url('/pages.xml.gz') },
      { kind: 'url', loc: `${site.origin}/about`, lastmod: '2024-05-02', source: site.url('/pages.xml.gz') },
      { kind: 'url', loc: `${site.origin}/posts/1`, source: site.url('/posts.xml') },
      { kind: 'url', loc: `${site.origin}/posts/2`, source: site.url('/posts.xml') },
      { kind: 'url', loc: `${site.origin}/posts/3`, source: site.url('/posts.xml') },
    ]);
    assert.equal(stderr, '5 URLs from 3 of 4 sitemaps\n');
  });

  it('exits 1 when no sitemap can be found, and 2 on bad usage', async () => {
    const empty = await startSite({});
    try {
      const none = await runCli(['tree', empty.origin, ...FAST]);
      assert.equal(none.code, 1);
      assert.match(
        none.stdout,
        /FETCH-001 no sitemap found: robots\.txt declares none and no well-known location answered \(10 tried\)/,
      );
      assert.match(none.stdout, /well-known locations: \/sitemap\.xml 404, \/sitemap_index\.xml 404/);
    } finally {
      await empty.close();
    }
    assert.equal((await runCli(['tree'])).code, 2);
    assert.equal((await runCli(['tree', site.origin, '--json', '--urls'])).code, 2);
    assert.equal((await runCli(['tree', 'ftp://example.com/x'])).code, 2);
    assert.equal((await runCli(['tree', site.origin, '--max-depth', 'deep'])).code, 2);
  });

  it('sends the User-Agent given', async () => {
    await runCli(['tree', site.url('/posts.xml'), '--user-agent', 'AuditBot/1.0', ...FAST]);
    assert.equal(site.lastUserAgent, 'AuditBot/1.0');
  });

  it('exits 0 only when every sitemap of the tree was read whole', async () => {
    const { code, stderr } = await runCli(['tree', site.url('/posts.xml'), ...FAST]);
    assert.equal(code, 0, stderr);
  });
});

describe('sitemapkit tree on a failing site', () => {
  it('exits 1 when every child fails, and sums up past a screen instead of a line per child', async () => {
    const server = await startHostileServer((origin) => ({
      '/index.xml': hostile.sitemap(sitemapIndex(Array.from({ length: 300 }, (_, i) => `${origin}/c/${i}.xml`))),
    }));
    try {
      const { code, stdout } = await runCli(['tree', server.url('/index.xml'), ...FAST]);
      assert.equal(code, 1);
      const lines = stdout.trimEnd().split('\n');
      assert.ok(lines.length < 50, `${lines.length} lines`);
      assert.equal(lines.filter((line) => line.includes('FETCH-001 answered HTTP 404')).length, 20);
      assert.ok(
        lines.includes('    └── … 280 more sitemaps: 0 read, 280 failed (FETCH-001 ×280) (see --json)'),
        lines.join('\n'),
      );
      assert.match(lines.at(-1)!, /^301 sitemaps \(1 read, 300 failed\) · 0 URLs · .* · 300 errors, 0 warnings · /);
    } finally {
      await server.close();
    }
  });

  it('says on stderr which URL it waits for and why, and does not wait past --max-wait', async () => {
    let first = true;
    const server = await startHostileServer((origin) => ({
      '/index.xml': hostile.sitemap(sitemapIndex([`${origin}/flaky.xml`, `${origin}/busy.xml`])),
      '/flaky.xml': (socket, request) => {
        (first ? hostile.retryAfter(1) : hostile.sitemap(urlset([`${origin}/a`])))(socket, request);
        first = false;
      },
      '/busy.xml': hostile.retryAfter(120),
    }));
    try {
      const started = Date.now();
      const { code, stdout, stderr } = await runCli(['tree', server.url('/index.xml'), '--max-wait', '5']);
      assert.ok(Date.now() - started < 20_000, 'the 120 s Retry-After was not waited for');
      assert.equal(code, 1);
      assert.equal(
        stderr,
        `sitemapkit: waiting 1.0 s to retry ${server.url('/flaky.xml')} (attempt 2 of 4): HTTP 503 (Retry-After: 1 s)\n`,
      );
      assert.match(
        stdout,
        /busy\.xml: error FETCH-001 answered HTTP 503 Service Unavailable: a sitemap must answer 200; not retried: the server asked to wait 120 s, more than the 5 s of waiting left \(--max-wait\)/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('sitemapkit tree on a server that is always busy', () => {
  it('waits --max-wait in all for a sitemap, its last pass included, and says why it stopped', async () => {
    const server = await startHostileServer({ '/busy.xml': hostile.retryAfter(1) });
    try {
      const url = server.url('/busy.xml');
      const { code, stdout, stderr } = await runCli(['tree', url, '--max-wait', '3']);
      assert.equal(code, 1);
      const waits = stderr.split('\n').filter((line) => line.startsWith('sitemapkit: waiting'));
      assert.deepEqual(
        waits,
        [2, 3, 4].map(
          (attempt) =>
            `sitemapkit: waiting 1.0 s to retry ${url} (attempt ${attempt} of 4): HTTP 503 (Retry-After: 1 s)`,
        ),
        'three waits of 1 s: the last pass has none left',
      );
      assert.equal(server.hits.get('/busy.xml'), 5, 'four attempts, then one in the last pass');
      assert.match(stdout, /more than the 0 s of waiting left \(--max-wait\)/);
    } finally {
      await server.close();
    }
  });
});

describe('sitemapkit tree, stopped', () => {
  it('prints the tree read so far on SIGTERM, marked as stopped, and exits 1', async () => {
    const server = await startHostileServer((origin) => ({
      '/index.xml': hostile.sitemap(sitemapIndex([`${origin}/a.xml`, `${origin}/never.xml`])),
      '/a.xml': hostile.sitemap(urlset([`${origin}/a`])),
      '/never.xml': hostile.neverAnswers(),
    }));
    try {
      const started = Date.now();
      const { code, stdout, stderr } = await runCli(['tree', server.url('/index.xml')], {
        onSpawn: (child) => {
          const waitForNever = setInterval(() => {
            if (!server.hits.has('/never.xml')) return;
            clearInterval(waitForNever);
            child.kill('SIGTERM');
          }, 20);
        },
      });
      assert.ok(Date.now() - started < 15_000, 'stopped at once, not after the 20 s first-byte timeout');
      assert.equal(code, 1, stderr);
      assert.match(stdout, /├── \/a\.xml {2}✓ 200 · urlset · 1 URL/);
      assert.match(stdout.trimEnd().split('\n').at(-1)!, / · stopped before the end$/);
    } finally {
      await server.close();
    }
  });
});

describe('the network flags, one set on every command that fetches', () => {
  it('parse, validate and tree each take --timeout, --retries, --max-wait and --user-agent', async () => {
    const site = await startSite((origin) => ({ '/s.xml': { headers: XML, body: urlset([`${origin}/a`]) } }));
    try {
      const flags = ['--timeout', '10', '--retries', '1', '--max-wait', '2', '--user-agent', 'FlagBot/1.0'];
      for (const command of ['parse', 'validate', 'tree']) {
        const { code, stderr } = await runCli([command, site.url('/s.xml'), ...flags]);
        assert.equal(code, 0, `${command}: ${stderr}`);
        assert.equal(site.lastUserAgent, 'FlagBot/1.0', command);
        const help = (await runCli([command, '--help'])).stdout;
        for (const flag of ['--timeout SECONDS', '--retries N', '--max-wait SECONDS', '--user-agent UA'])
          assert.ok(help.includes(flag), `${command} --help lists ${flag}`);
        assert.equal((await runCli([command, site.url('/s.xml'), '--timeout', 'soon'])).code, 2);
      }
    } finally {
      await site.close();
    }
  });
});
