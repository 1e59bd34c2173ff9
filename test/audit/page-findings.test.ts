/**
 * What an audit sees in a listed page as a search engine does (issue 23 §9–11): a page that sends
 * the browser on by itself is a redirect (with its target, and whether it is listed); a page that
 * is what the host answers for a URL that cannot exist, or that says "not found", is a soft 404;
 * listed pages with the same content and no canonical between them are duplicates, grouped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditReport } from '../../src/audit/report.js';
import type { AuditRow } from '../../src/audit/rows.js';
import { CrawlComparison } from '../../src/audit/cross-checks.js';
import { notFoundProbeUrl } from '../../src/audit/soft-404.js';
import { runCli } from '../helpers/cli.js';
import { html, serveSite, type RunningSite } from '../helpers/serve-site.js';
import { urlset } from '../helpers/site-server.js';

const LISTED = [
  '/a',
  '/refresh',
  '/js',
  '/gone',
  '/says-404',
  '/latin-1',
  '/dup-1',
  '/dup-2',
  '/dup-3',
  '/canonical-dup',
  '/b',
];

/** A "not found" page in Spanish, in ISO-8859-1 as its Content-Type says: read as UTF-8, its "á" is lost. */
const LATIN_1_NOT_FOUND = Buffer.from(
  '<!doctype html>\n<html><head><title>Página no encontrada</title></head>\n<body><h1>Error 404: página no encontrada</h1></body></html>\n',
  'latin1',
);

/** The same article, as two builds wrote it: other scripts and asset names, the same content. */
const ARTICLE = (build: number, head = '') =>
  html(
    `<title>Article</title><link rel="stylesheet" href="/assets/site.${build}abc123.css">${head}`,
    `<script>window.build=${build}</script><main><h1>Article</h1><p>The same words on every copy.</p></main>`,
  );

function route(origin: string, url: URL) {
  switch (url.pathname) {
    case '/robots.txt':
      return {
        headers: { 'content-type': 'text/plain' },
        body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`,
      };
    case '/sitemap.xml':
      return { headers: { 'content-type': 'application/xml' }, body: urlset(LISTED.map((path) => origin + path)) };
    case '/a':
      return { body: html('<title>A</title>', '<h1>A page of its own</h1>') };
    case '/b':
      return { body: html('<title>B</title>', '<h1>Another page of its own</h1>') };
    case '/refresh':
      return { body: html('<title>Moved</title><meta http-equiv="refresh" content="0; url=/a">', '') };
    case '/js':
      return { body: html('<title>Moved</title><script>location.replace("/elsewhere")</script>', '') };
    case '/says-404':
      return { body: html('<title>Page not found · Docs</title>', '<h1>404: this page does not exist</h1>') };
    case '/latin-1':
      return { headers: { 'content-type': 'text/html; charset=iso-8859-1' }, body: LATIN_1_NOT_FOUND };
    case '/dup-1':
      return { body: ARTICLE(1) };
    case '/dup-2':
      return { body: ARTICLE(2) };
    case '/dup-3':
      return { body: ARTICLE(3) };
    case '/canonical-dup':
      return { body: ARTICLE(4, `<link rel="canonical" href="${origin}/dup-1">`) };
    default:
      // A host that answers every unknown URL 200 with the same page: /gone is one of those.
      return { body: html('<title>Docs</title>', '<h1>Sorry</h1><p>We looked everywhere.</p>') };
  }
}

describe('audit findings read in the listed pages', () => {
  let site: RunningSite;
  let dir: string;
  let report: AuditReport;
  let rows: Map<string, AuditRow>;
  let text: string;
  let page: string;

  before(async () => {
    site = await serveSite(route);
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-pages-'));
    const args = ['audit', site.origin, '--state', join(dir, 'state'), '--retries', '0', '--fail-on', 'never'];
    const json = await runCli([
      ...args,
      '--json',
      '--rows',
      join(dir, 'rows.jsonl'),
      '--html',
      join(dir, 'report.html'),
    ]);
    assert.equal(json.code, 0, json.stderr);
    report = JSON.parse(json.stdout) as AuditReport;
    rows = new Map(
      readFileSync(join(dir, 'rows.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as AuditRow)
        .map((row) => [row.url.slice(site.origin.length), row]),
    );
    text = (await runCli([...args, '--resume'])).stdout;
    page = readFileSync(join(dir, 'report.html'), 'utf8');
  });

  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives each page its findings', () => {
    const o = site.origin;
    const findings = Object.fromEntries([...rows].map(([path, row]) => [path, [row.findings, row.details]]));
    assert.deepEqual(findings, {
      '/a': [[], {}],
      '/refresh': [['redirect'], { redirect: `meta refresh to ${o}/a (listed too)` }],
      '/js': [['redirect'], { redirect: `location.replace() in an inline script to ${o}/elsewhere (not listed)` }],
      '/gone': [
        ['soft-404'],
        { 'soft-404': `answers 200 with the same content as ${notFoundProbeUrl(o)}, a URL that cannot exist` },
      ],
      '/says-404': [
        ['soft-404'],
        {
          'soft-404':
            'answers 200, but its title "Page not found · Docs" and its first heading "404: this page does not exist" say it is a "not found" page',
        },
      ],
      '/latin-1': [
        ['soft-404'],
        {
          'soft-404':
            'answers 200, but its title "Página no encontrada" and its first heading "Error 404: página no encontrada" say it is a "not found" page',
        },
      ],
      '/dup-1': [[], {}],
      '/dup-2': [
        ['duplicate-content'],
        { 'duplicate-content': `the same content as ${o}/dup-1, listed earlier, and no canonical names one of them` },
      ],
      '/dup-3': [
        ['duplicate-content'],
        { 'duplicate-content': `the same content as ${o}/dup-1, listed earlier, and no canonical names one of them` },
      ],
      '/canonical-dup': [['canonical-elsewhere'], { 'canonical-elsewhere': `canonical is ${o}/dup-1` }],
      '/b': [[], {}],
    });
    assert.equal(rows.get('/refresh')!.finalUrl, `${o}/a`);
    assert.equal(rows.get('/refresh')!.targetListed, true);
    assert.equal(rows.get('/js')!.targetListed, false);
    assert.deepEqual(
      [...rows].filter(([, row]) => row.indexable).map(([path]) => path),
      ['/a', '/dup-1', '/dup-2', '/dup-3', '/b'],
    );
    assert.ok(
      site.requests.includes(new URL(notFoundProbeUrl(o)).pathname),
      'the host was asked for a URL that cannot exist',
    );
    assert.equal(site.requests.filter((path) => path.startsWith('/sitemapkit-no-such-page-')).length, 1, 'once');
  });

  it('names the findings and the duplicate groups in JSON, on the terminal and in the HTML report', () => {
    const o = site.origin;
    assert.deepEqual(
      report.checks.map((check) => [check.finding, check.code, check.count]),
      [
        ['redirect', 'URL-012', 2],
        ['soft-404', 'URL-022', 3],
        ['canonical-elsewhere', 'URL-016', 1],
        ['duplicate-content', 'URL-023', 2],
      ],
    );
    assert.deepEqual(report.duplicateGroups, [{ count: 3, urls: [`${o}/dup-1`, `${o}/dup-2`, `${o}/dup-3`] }]);
    assert.match(text, /soft-404 +URL-022 +3 +listed URL is a soft 404/);
    assert.match(text, /duplicate-content +URL-023 +2 +listed URLs with the same content/);
    assert.ok(text.includes(`${o}/dup-1 = ${o}/dup-2 and 1 more: the same content`), text);
    assert.ok(page.includes('id="finding-soft-404"'));
    assert.ok(page.includes(`${o}/dup-1<br>${o}/dup-2<br>${o}/dup-3`));
  });
});

describe('the crawl compared with the listings', () => {
  it('takes a listed index file for its folder, as the crawl follows it', () => {
    const crawled = [{ url: 'https://e.com/docs/', outcome: 'listed' }];
    const comparison = new CrawlComparison(crawled, ['https://e.com/docs/index.html'], 'https://e.com', true);
    assert.equal(comparison.orphan('https://e.com/docs/index.html'), undefined);
    assert.equal(comparison.isListed('https://e.com/docs/'), true);
    assert.ok(comparison.orphan('https://e.com/other.html'));
  });
});
