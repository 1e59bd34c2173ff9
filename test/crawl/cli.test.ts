import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { CrawlReport } from '../../src/report/crawl.js';
import { parse } from 'csv-parse/sync';
import { runCli, type CliResult } from '../helpers/cli.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { everyCaseSite } from './fixtures/every-case-site.js';
import { serveSite, type RunningSite } from './fixtures/server.js';
import { startSite } from '../helpers/site-server.js';

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

/**
 * /broken answers 500 (after one more try at the end): the sitemaps are written without it, and the
 * crawl exits 1 for the page it could not read.
 */
function assertPublishedWithoutBroken(result: CliResult): void {
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    /sitemapkit crawl: 1 page could not be read \(server error, no response or cut off\); the report lists them\n/,
  );
}

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
    '--retries',
    '0',
    '--use-sitemaps',
  ];

  it('writes schema-valid sitemaps of exactly the listable pages, and reports the rest by reason', async () => {
    const result = await runCli([...crawlArgs('json'), '--json']);
    assertPublishedWithoutBroken(result);
    const report = JSON.parse(result.stdout) as CrawlReport;
    assert.equal(report.listed, LISTED_PATHS.length);
    assert.equal(report.finished, true);
    assert.deepEqual(report.start, { outcome: 'listed' });
    assert.equal(report.unread, 1);
    assert.deepEqual(Object.fromEntries(report.leftOut.map((group) => [group.reason, group.count])), {
      redirected: 1,
      'meta-refresh': 3,
      'js-redirect': 3,
      'http-error': 1,
      'server-error': 1,
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
    // Tracking parameters go by default, and the report says which, where.
    const tracked = { from: `${site.origin}/about?utm_source=news&utm_medium=mail`, to: `${site.origin}/about` };
    assert.deepEqual(report.strippedParams, {
      urls: 1,
      names: [
        { name: 'utm_medium', urls: 1, examples: [tracked] },
        { name: 'utm_source', urls: 1, examples: [tracked] },
      ],
    });
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
    assertPublishedWithoutBroken(result);
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
    assert.match(
      result.stdout,
      /\n {2}1 page could not be read \(server error, no response, cut off\): the sitemaps may lack it and the pages only they link to\n/,
    );
    // The final state of the progress line comes last but for the verdict (earlier lines only come every 10 s);
    // it counts what the summary counts: the one page not read, not the 4xx answers, which were read.
    assert.match(
      result.stderr,
      /(^|\n)40 fetched · 0 queued · 26 listed · [\d.]+ pages\/s · 1 unread\nsitemapkit crawl: 1 page could not be read [^\n]*\n$/,
    );
  });

  it('with --quiet prints the same report and, on stderr, only the verdict', async () => {
    const result = await runCli([...crawlArgs('quiet'), '-q']);
    assertPublishedWithoutBroken(result);
    assert.match(result.stdout, /40 fetched, 26 listed, 18 left out/);
    assert.match(result.stderr, /^sitemapkit crawl: 1 page could not be read [^\n]*\n$/);
  });

  it('on workers, lists what one process lists, the pages only the sitemaps name included', async () => {
    const single = await runCli([...crawlArgs('single'), '--json']);
    assertPublishedWithoutBroken(single);
    const store = join(dir, 'workers', 'runs.sqlite');
    const result = await runCli([
      ...crawlArgs('workers'),
      '--json',
      '--run',
      'sitemaps',
      '--store',
      store,
      '--workers',
      '2',
    ]);
    assertPublishedWithoutBroken(result);
    const report = JSON.parse(result.stdout) as CrawlReport;
    const locs = (name: string) => locsOf(readFileSync(join(dir, name, 'out', 'sitemap.xml'), 'utf8')).sort();
    assert.deepEqual(locs('workers'), locs('single'));
    assert.ok(locs('workers').includes(`${site.origin}/only-in-sitemap`), 'a page only the sitemap lists');
    const byReason = (r: CrawlReport) => Object.fromEntries(r.leftOut.map((group) => [group.reason, group.count]));
    assert.deepEqual(byReason(report), byReason(JSON.parse(single.stdout) as CrawlReport));
  });

  it('shards and gzips exactly as generate does', async () => {
    const result = await runCli([...crawlArgs('shards'), '--max-urls', '5', '--gzip', '--json']);
    assertPublishedWithoutBroken(result);
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
    assertPublishedWithoutBroken(result);
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
      /could not be fetched: no answer: could not connect to http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/,
    );
  });

  it('keeps a tracking parameter named by --keep-param', async () => {
    const result = await runCli([...crawlArgs('keep'), '--keep-param', 'utm_source', '--json']);
    assertPublishedWithoutBroken(result);
    const report = JSON.parse(result.stdout) as CrawlReport;
    const kept = `${site.origin}/about?utm_source=news`;
    assert.deepEqual(report.strippedParams?.names, [
      { name: 'utm_medium', urls: 1, examples: [{ from: `${kept}&utm_medium=mail`, to: kept }] },
    ]);
    // Kept, it is a URL of its own, whose canonical (/about) is listed instead.
    assert.deepEqual(
      report.leftOut.find((group) => group.reason === 'canonicalised')?.examples.find((e) => e.url === kept),
      { url: kept, detail: `canonical is ${site.origin}/about` },
    );
  });

  it('writes every left-out URL with its reason and the page it was found on, as CSV or JSON Lines', async () => {
    const csvFile = join(dir, 'report', 'left-out.csv');
    const result = await runCli([...crawlArgs('report'), '--json', '--report', csvFile]);
    assertPublishedWithoutBroken(result);
    const report = JSON.parse(result.stdout) as CrawlReport;
    const rows = parse<Record<string, string>>(readFileSync(csvFile), { columns: true });
    assert.equal(
      rows.length,
      report.leftOut.reduce((sum, group) => sum + group.count, 0),
    );
    assert.deepEqual(report.leftOutFile, { path: csvFile, urls: rows.length });
    // Five examples per reason in the report; the file has them all, each with where it was found.
    for (const group of report.leftOut)
      assert.equal(rows.filter((row) => row.reason === group.reason).length, group.count, group.reason);
    const row = (path: string) => rows.find((r) => r.url === site.origin + path);
    assert.deepEqual(row('/missing'), {
      url: `${site.origin}/missing`,
      reason: 'http-error',
      detail: 'HTTP 404',
      found_on: `${site.origin}/`,
    });
    assert.equal(row('/never-followed-2'), undefined, 'a nofollow page is never met');
    assert.equal(row('/from-noindex'), undefined, 'a listed page is not in the file');
    assert.equal(row('/calendar/2024-05')?.found_on, `${site.origin}/calendar/2024-04`);
    assert.equal(row('/private/secret')?.reason, 'robots-blocked');
    assert.equal(
      rows.find((r) => r.url === 'https://elsewhere.example/landing')?.found_on,
      `${site.origin}/refresh-away`,
    );

    const jsonl = join(dir, 'report', 'left-out.jsonl');
    assertPublishedWithoutBroken(await runCli([...crawlArgs('report-jsonl'), '--report', jsonl]));
    const lines = readFileSync(jsonl, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string | null>);
    assert.deepEqual(
      lines,
      rows.map((r) => ({ ...r, found_on: r.found_on === '' ? null : r.found_on })),
    );
  });

  it('prints the report and names the start page when nothing can be listed', async () => {
    const xmlSite = await serveSite((origin) => ({
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url></urlset>`,
    }));
    try {
      const out = join(dir, 'xml-start', 'out');
      const result = await runCli([
        'crawl',
        `${xmlSite.origin}/`,
        '--out',
        out,
        '--state',
        join(dir, 'xml-start', 'state'),
      ]);
      assert.equal(result.code, 1);
      assert.match(
        result.stdout,
        /^Crawled http:\/\/127\.0\.0\.1:\d+\/ in [\d.]+ s\n {2}1 fetched, 0 listed, 1 left out\n {2}The start page was not listed: not HTML \(application\/xml\)\n/,
      );
      assert.match(
        result.stderr,
        /sitemapkit crawl: no page could be listed, so no sitemap was written: the start page was left out as non-html \(application\/xml\)\n$/,
      );
      assert.equal(existsSync(join(out, 'sitemap.xml')), false);
    } finally {
      await xmlSite.close();
    }
  });

  it('explains in --help what --base-url defaults to, where it belongs', async () => {
    const help = await runCli(['crawl', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /for the root of the site\ncrawled, unless --base-url says otherwise/);
    // The output flags end the list, with nothing stray under the last of them.
    assert.match(help.stdout, /--now DATE {13}[^\n]*\n(?: {25}[^\n]*\n)+\nThe run fails \(exit 1\)/);
  });

  it('says how to keep the state out of --out when publishing into the working directory', async () => {
    const cwd = join(dir, 'publish-here');
    mkdirSync(cwd, { recursive: true });
    const result = await runCli(['crawl', `${site.origin}/`, '--out', '.'], { cwd });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /--state .*\.sitemapkit is inside --out \.: the crawl state must not be published with the site\. Keep it elsewhere with --state \(e\.g\. --state \.\.\/\.sitemapkit\), or publish into a directory of its own \(e\.g\. --out public\)/,
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

describe('sitemapkit crawl HOST (no scheme)', () => {
  it('tries https, then http when the server does not speak TLS, and says nothing of OpenSSL', async () => {
    const site = await startSite({
      '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
      '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><a href="/a">a</a>' },
      '/a': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>a</p>' },
    });
    const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-host-'));
    try {
      const host = site.origin.replace('http://', '');
      const result = await runCli(['crawl', host, '--out', join(dir, 'out'), '--state', join(dir, 'state')]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`^Crawled ${site.origin}/ in `));
      assert.deepEqual(locsOf(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')), [
        `${site.origin}/`,
        `${site.origin}/a`,
      ]);
      assert.doesNotMatch(result.stderr, /ssl|wrong version/i);
    } finally {
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
