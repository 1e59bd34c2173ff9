import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { CrawlReport } from '../../src/report/crawl.js';
import { runCli } from '../helpers/cli.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { everyCaseSite } from './fixtures/every-case-site.js';
import { serveSite, type RunningSite } from './fixtures/server.js';

const LISTED_PATHS = [
  '/',
  '/about',
  '/caf%C3%A9',
  '/calendar/2024-01',
  '/calendar/2024-02',
  '/calendar/2024-03',
  '/calendar/2024-04',
  '/canonical-target',
  '/de/',
  '/en/',
  '/fr/',
  '/from-noindex',
  '/gallery',
  '/gallery-2',
  '/new',
  '/nofollow-page',
  '/only-in-sitemap',
  '/~user',
  '/reload',
  '/js-click',
  '/moved/landing',
  '/refresh-body-link',
  '/later',
  '/js-target',
  '/js-replaced',
  '/js-window-target',
];

function locsOf(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
}

describe('sitemapkit crawl', () => {
  let site: RunningSite;
  let dir: string;
  before(async () => {
    site = await serveSite(everyCaseSite);
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-cli-'));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const crawlArgs = (name: string) => [
    'crawl',
    `${site.origin}/`,
    '--out',
    join(dir, name, 'out'),
    '--state',
    join(dir, name, 'state'),
    '--max-depth',
    '4',
    '--strip-param',
    'utm_*',
    '--retries',
    '0',
    '--use-sitemaps',
  ];

  it('writes schema-valid sitemaps of exactly the listable pages, and reports the rest by reason', async () => {
    const result = await runCli([...crawlArgs('json'), '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as CrawlReport;
    assert.equal(report.listed, LISTED_PATHS.length);
    assert.equal(report.finished, true);
    assert.deepEqual(Object.fromEntries(report.leftOut.map((group) => [group.reason, group.count])), {
      redirected: 1,
      'meta-refresh': 3,
      'js-redirect': 3,
      'http-error': 2,
      'non-html': 1,
      noindex: 3,
      canonicalised: 1,
      'robots-blocked': 1,
      'out-of-scope': 2,
      'max-depth': 1,
    });
    const noindex = report.leftOut.find((group) => group.reason === 'noindex');
    assert.ok(noindex);
    assert.deepEqual(
      noindex.examples.map((e) => e.url),
      ['/hidden-meta', '/hidden-header', '/googlebot-none'].map((p) => site.origin + p),
    );
    assert.deepEqual(report.sitemaps?.robotsTxt, [`Sitemap: ${site.origin}/sitemap.xml`]);
    assert.deepEqual(report.blockedForEngines, {
      count: 1,
      examples: [{ url: `${site.origin}/gallery-2`, detail: 'robots.txt blocks Googlebot' }],
    });

    const xml = readFileSync(join(dir, 'json', 'out', 'sitemap.xml'), 'utf8');
    assert.deepEqual(locsOf(xml).sort(), LISTED_PATHS.map((path) => site.origin + path).sort());
    assert.match(xml, /<image:image><image:loc>[^<]*\/static\/b-large\.jpg<\/image:loc><\/image:image>/);
    assert.match(xml, /<xhtml:link rel="alternate" hreflang="de" href="[^"]*\/de\/"\/>/);
    const validation = await validateAgainstXsd(xml, 'extensions');
    assert.deepEqual(validation.errors, []);
    assert.ok(validation.valid);
    assert.ok(existsSync(join(dir, 'json', 'state')), 'the state lives under --state');
  });

  it('prints a text report with examples and the robots.txt line, and progress on stderr', async () => {
    const result = await runCli(crawlArgs('text'));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /40 fetched, 26 listed, 18 left out/);
    assert.match(
      result.stdout,
      /\n {7}3 {2}meta refresh to another URL \(the target is crawled instead\)\n {10}http:\/\/127\.0\.0\.1:\d+\/refresh {2}\(meta refresh to http:\/\/127\.0\.0\.1:\d+\/moved\/landing\)\n/,
    );
    assert.match(
      result.stdout,
      /\n {7}3 {2}JavaScript redirect \(the target is crawled instead\)\n {10}http:\/\/127\.0\.0\.1:\d+\/js-href {2}\(location\.href in an inline script to http:\/\/127\.0\.0\.1:\d+\/js-target\)\n/,
    );
    assert.match(
      result.stdout,
      /blocked by robots\.txt\n {10}http:\/\/127\.0\.0\.1:\d+\/private\/secret {2}\(disallowed by http:\/\/127\.0\.0\.1:\d+\/robots\.txt\)/,
    );
    assert.match(result.stdout, new RegExp(`Add to robots\\.txt:\\n  Sitemap: ${site.origin}/sitemap\\.xml\\n$`));
    // The final state of the progress line ends stderr (earlier lines only come every 10 s).
    assert.match(result.stderr, /(^|\n)40 fetched · 0 queued · 26 listed · [\d.]+ pages\/s · 2 errors\n$/);
  });

  it('shards and gzips exactly as generate does', async () => {
    const result = await runCli([...crawlArgs('shards'), '--max-urls', '5', '--gzip', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const out = join(dir, 'shards', 'out');
    // Shards are named after their position and content (sitemap-N-<digest>.xml.gz), as generate names them.
    assert.deepEqual(
      readdirSync(out)
        .sort()
        .map((name) => name.replace(/-[0-9a-f]{12}\.xml\.gz$/, '-<digest>.xml.gz')),
      [
        '.sitemap-manifest.json',
        'sitemap-0-<digest>.xml.gz',
        'sitemap-1-<digest>.xml.gz',
        'sitemap-2-<digest>.xml.gz',
        'sitemap-3-<digest>.xml.gz',
        'sitemap-4-<digest>.xml.gz',
        'sitemap-5-<digest>.xml.gz',
        'sitemap.xml',
      ],
    );
    const locs = readdirSync(out)
      .filter((name) => name.endsWith('.gz'))
      .flatMap((name) => locsOf(gunzipSync(readFileSync(join(out, name))).toString('utf8')));
    assert.equal(locs.length, LISTED_PATHS.length);
    const index = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    assert.ok((await validateAgainstXsd(index, 'siteindex')).valid);
  });

  it('keeps its state in .sitemapkit/ of the working directory by default, and narrows the crawl with --exclude', async () => {
    const cwd = join(dir, 'cwd');
    mkdirSync(cwd, { recursive: true });
    const result = await runCli(
      ['crawl', `${site.origin}/`, '--out', 'public', '--exclude', '/calendar/**', '--exclude', '**/*.pdf', '--json'],
      { cwd },
    );
    assert.equal(result.code, 0, result.stderr);
    const port = new URL(site.origin).port;
    assert.ok(existsSync(join(cwd, '.sitemapkit', `crawl-http-127.0.0.1-${port}.sqlite`)));
    const report = JSON.parse(result.stdout) as CrawlReport;
    const outOfScope = report.leftOut.find((group) => group.reason === 'out-of-scope');
    assert.ok(outOfScope);
    assert.deepEqual(outOfScope.examples, [
      { url: `${site.origin}/doc.pdf`, detail: 'matches --exclude **/*.pdf' },
      { url: 'https://elsewhere.example/', detail: `not on ${site.origin}` },
      { url: `${site.origin}/calendar/2024-01`, detail: 'matches --exclude /calendar/**' },
      { url: 'https://elsewhere.example/landing', detail: `not on ${site.origin}` },
    ]);
    assert.ok(
      !locsOf(readFileSync(join(cwd, 'public', 'sitemap.xml'), 'utf8')).some((loc) => loc.includes('/calendar/')),
    );
  });

  it('exits 1 without writing sitemaps when the start URL cannot be fetched', async () => {
    const missing = await runCli([
      'crawl',
      `${site.origin}/missing`,
      '--out',
      join(dir, 'missing', 'out'),
      '--state',
      join(dir, 'missing', 'state'),
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /the start URL http:\/\/127\.0\.0\.1:\d+\/missing could not be fetched: HTTP 404/);
    assert.equal(existsSync(join(dir, 'missing', 'out', 'sitemap.xml')), false);

    const closed = await runCli([
      'crawl',
      'http://127.0.0.1:9/',
      '--out',
      join(dir, 'closed', 'out'),
      '--state',
      join(dir, 'closed', 'state'),
      '--retries',
      '0',
    ]);
    assert.equal(closed.code, 1);
    assert.match(
      closed.stderr,
      /could not be fetched: http:\/\/127\.0\.0\.1:9\/robots\.txt is unreachable \(could not connect/,
    );
  });

  it('refuses bad usage with exit 2', async () => {
    const inside = await runCli([
      'crawl',
      `${site.origin}/`,
      '--out',
      join(dir, 'pub'),
      '--state',
      join(dir, 'pub', '.state'),
    ]);
    assert.equal(inside.code, 2);
    assert.match(inside.stderr, /--state .* is inside --out/);
    assert.equal((await runCli(['crawl', '--out', join(dir, 'x')])).code, 2);
    assert.equal((await runCli(['crawl', 'ftp://example.com/', '--out', join(dir, 'x')])).code, 2);
    assert.equal((await runCli(['crawl', `${site.origin}/`, '--out', join(dir, 'x'), '--delay', 'soon'])).code, 2);
  });
});
