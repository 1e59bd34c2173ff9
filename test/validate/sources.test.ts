/**
 * Several sources as one set: recursive validation of an index and its children from local
 * files (mapped by --location or found beside the index) and over HTTP from a server on
 * 127.0.0.1, with the cross-file rules (duplicates, hreflang return links, nested indexes) and
 * the transport rules (FETCH-001, FETCH-002, FETCH-004) over the shared HTTP client.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Diagnostic } from '../../src/core/diagnostics.js';
// The public API: URL sources are fetched with the shared HttpClient (src/http/client.ts).
import { validateSources, type ValidationResult } from '../../src/index.js';
import { DEFAULT_USER_AGENT } from '../../src/version.js';
import { sitemapIndex, startSite, urlsetDocument } from '../helpers/site-server.js';
import { describe } from './expect.js';

const NOW = new Date('2024-05-02T12:00:00Z');
/** A urlset of page URLs, or of <url> contents given as XML (starting with "<"). */
function urlset(urls: string[]): string {
  return urlsetDocument(urls.map((u) => `  <url>${u.startsWith('<') ? u : `<loc>${u}</loc>`}</url>`).join('\n'));
}

function find(results: ValidationResult[], source: RegExp, code: string): Diagnostic[] {
  const result = results.find((r) => source.test(r.source));
  assert.ok(result, `a result for ${source}: ${results.map((r) => r.source).join(', ')}`);
  return result.diagnostics.filter((d) => d.code === code);
}

/** A site in a temporary folder: an index with its children under sitemaps/. */
async function writeSite(dir: string): Promise<void> {
  const site = 'https://www.example.com';
  await mkdir(join(dir, 'sitemaps'));
  await writeFile(
    join(dir, 'sitemap_index.xml'),
    sitemapIndex([
      `${site}/sitemaps/pages.xml`,
      `${site}/sitemaps/posts.xml.gz`,
      `${site}/sitemaps/nested-index.xml`,
      `${site}/sitemaps/missing.xml`,
    ]),
  );
  await writeFile(
    join(dir, 'sitemaps', 'pages.xml'),
    urlset([
      `${site}/`,
      `<loc>${site}/en/</loc><xhtml:link rel="alternate" hreflang="en" href="${site}/en/"/><xhtml:link rel="alternate" hreflang="de" href="${site}/de/"/>`,
    ]),
  );
  await writeFile(
    join(dir, 'sitemaps', 'posts.xml.gz'),
    gzipSync(
      urlset([
        `${site}/posts/1`,
        `${site}/`,
        `<loc>${site}/de/</loc><xhtml:link rel="alternate" hreflang="de" href="${site}/de/"/>`,
      ]),
    ),
  );
  await writeFile(join(dir, 'sitemaps', 'nested-index.xml'), sitemapIndex([`${site}/sitemaps/pages.xml`]));
}

test('--recursive over local files: children mapped through --location, cross-file rules applied', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-validate-'));
  try {
    await writeSite(dir);
    const results = await validateSources([join(dir, 'sitemap_index.xml')], {
      recursive: true,
      now: NOW,
      location: 'https://www.example.com/sitemap_index.xml',
    });
    assert.deepEqual(
      results.map((r) => r.source.replace(dir, '')),
      [
        '/sitemap_index.xml',
        '/sitemaps/pages.xml',
        '/sitemaps/posts.xml.gz',
        '/sitemaps/nested-index.xml',
        'https://www.example.com/sitemaps/missing.xml',
      ],
    );
    const [indexResult, pages, posts] = results;
    assert.equal(pages!.urls, 2);
    assert.equal(posts!.urls, 3, 'the gzip child was read');

    const nested = find(results, /sitemap_index\.xml$/, 'IDX-002');
    assert.equal(nested.length, 1, describe(indexResult!.diagnostics));
    assert.equal(nested[0]!.severity, 'error');
    assert.deepEqual([nested[0]!.line, nested[0]!.column], [5, 17], 'at the nested child in the index');

    const duplicate = find(results, /posts\.xml\.gz$/, 'URL-006');
    assert.equal(duplicate.length, 1);
    assert.match(duplicate[0]!.message, /pages\.xml:3/, 'names where the URL was first listed');

    const returnLink = find(results, /pages\.xml$/, 'HREF-004');
    assert.equal(returnLink.length, 1, 'de/ (in the other file) does not link back to en/');
    assert.equal(returnLink[0]!.url, 'https://www.example.com/en/');

    const missing = find(results, /missing\.xml$/, 'FETCH-001');
    assert.equal(missing.length, 1);
    // --location was given: the message says where the file was looked for, not to pass --location.
    assert.match(missing[0]!.message, /was looked for at .*missing\.xml, and is not there; write the file there/);
    assert.doesNotMatch(missing[0]!.message, /--location/);
    const repeat = find(results, /nested-index\.xml$/, 'IDX-005');
    assert.equal(repeat.length, 1, 'the nested index is descended: its one child was validated already');
    assert.match(repeat[0]!.message, /sitemaps\/pages\.xml" was already validated in this run/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('--recursive without --location finds children beside the index by file name', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-validate-'));
  try {
    await writeFile(
      join(dir, 'index.xml'),
      sitemapIndex(['https://www.example.com/a.xml', 'https://www.example.com/a.xml']),
    );
    await writeFile(join(dir, 'a.xml'), urlset(['https://www.example.com/x']));
    const results = await validateSources([join(dir, 'index.xml')], { recursive: true, now: NOW });
    assert.equal(results.length, 2, 'the repeated child is validated once');
    assert.equal(results[1]!.source, join(dir, 'a.xml'));
    assert.equal(results[1]!.valid, true, describe(results[1]!.diagnostics));
    assert.deepEqual(
      results[0]!.diagnostics.map((d) => [d.code, d.line]),
      [['IDX-005', 4]],
      'listed twice: one IDX-005, at the repeat (it is not read again, so not reported again as already validated)',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const XML = { 'content-type': 'application/xml' };

test('--recursive over HTTP: redirects (FETCH-002), failures (FETCH-001), login walls (FETCH-004), scope against the fetched URL', async () => {
  const site = await startSite((b) => ({
    '/sitemap_index.xml': {
      headers: XML,
      body: sitemapIndex([
        `${b}/s/pages.xml`,
        `${b}/s/moved.xml`,
        `${b}/s/gone.xml`,
        `${b}/s/empty.xml`,
        `${b}/s/private.xml`,
      ]),
    },
    '/s/pages.xml': { headers: XML, body: urlset([`${b}/s/a`, `${b}/elsewhere`]) },
    '/s/moved.xml': { status: 301, headers: { ...XML, location: `${b}/s/new.xml` } },
    '/s/new.xml': { body: gzipSync(urlset([`${b}/s/b`])), headers: { 'content-type': 'application/gzip' } },
    '/s/gone.xml': { status: 410, headers: XML, body: 'gone' },
    '/s/empty.xml': { headers: XML, body: '' },
    '/s/private.xml': { status: 401, headers: XML, body: 'login' },
  }));
  try {
    const results = await validateSources([site.url('/sitemap_index.xml')], { recursive: true, now: NOW });
    assert.equal(results.length, 6);
    const outside = find(results, /pages\.xml$/, 'URL-005');
    assert.equal(outside.length, 1, 'checked against the URL the child was fetched from');
    assert.equal(outside[0]!.severity, 'warning', 'cross-submission not ruled out');
    const redirect = find(results, /moved\.xml$/, 'FETCH-002');
    assert.equal(redirect.length, 1);
    assert.match(redirect[0]!.message, /301.*new\.xml/);
    assert.equal(results.find((r) => r.source.endsWith('moved.xml'))!.urls, 1, 'the redirect target was read');
    const gone = find(results, /gone\.xml$/, 'FETCH-001');
    assert.match(gone[0]!.message, /410/);
    assert.equal(find(results, /empty\.xml$/, 'FETCH-001').length, 1, 'an empty body cannot be a sitemap');
    assert.equal(find(results, /private\.xml$/, 'FETCH-004').length, 1, 'a login wall');
  } finally {
    await site.close();
  }
});

test('a server that is down is FETCH-001, not a crash', async () => {
  const site = await startSite({});
  await site.close();
  const [result] = await validateSources([site.url('/sitemap.xml')], { now: NOW });
  assert.equal(result!.valid, false);
  assert.deepEqual(
    result!.diagnostics.map((d) => d.code),
    ['FETCH-001'],
  );
});

test('a body that breaks off is FETCH-001, not a crash', async () => {
  const site = await startSite({
    '/sitemap.xml': (_request, response) => {
      response.writeHead(200, { ...XML, 'content-length': '100000' });
      response.write(urlset(['https://www.example.com/a']).slice(0, 150));
      setTimeout(() => response.destroy(), 20);
    },
  });
  try {
    const [result] = await validateSources([site.url('/sitemap.xml')], { now: NOW });
    const broken = result!.diagnostics.filter((d) => d.code === 'FETCH-001');
    assert.equal(broken.length, 1, describe(result!.diagnostics));
    assert.match(broken[0]!.message, /broke off/);
  } finally {
    await site.close();
  }
});

test('URL sources come through the shared HTTP client: a 503 with Retry-After is retried, not reported', async () => {
  const agents: (string | undefined)[] = [];
  const site = await startSite((b) => ({
    '/busy.xml': (request, response) => {
      agents.push(request.headers['user-agent']);
      if (agents.length === 1) response.writeHead(503, { ...XML, 'retry-after': '0' }).end('busy');
      else response.writeHead(200, XML).end(urlset([`${b}/a`]));
    },
  }));
  try {
    const [result] = await validateSources([site.url('/busy.xml')], { now: NOW });
    assert.equal(agents.length, 2, 'asked again after the 503');
    assert.equal(result!.valid, true, describe(result!.diagnostics));
    assert.equal(result!.urls, 1);
    assert.deepEqual(agents, [DEFAULT_USER_AGENT, DEFAULT_USER_AGENT]);
  } finally {
    await site.close();
  }
});

test('several sources are one set: a URL in two files is a duplicate naming the first file and line', async () => {
  const rules = new URL('./fixtures/rules/', import.meta.url).pathname;
  const [first, second] = await validateSources([`${rules}url-004.xml`, `${rules}url-006.xml`], { now: NOW });
  assert.equal(first!.diagnostics.filter((d) => d.code === 'URL-006').length, 0);
  const duplicate = second!.diagnostics.find((d) => d.code === 'URL-006' && d.line === 3);
  assert.ok(duplicate, `https://www.example.com/a is in both files:\n${describe(second!.diagnostics)}`);
  assert.match(duplicate.message, new RegExp(`first at ${rules}url-004\\.xml:3`));
});
