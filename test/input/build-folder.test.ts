/**
 * A build folder read as a search engine would see the site served from it (issue 23): redirect
 * stubs, the host's rule files, robots.txt, 404 pages by any name, head data, honest lastmod and
 * the URL forms the host serves.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import {
  readSiteDirectory,
  type DirectoryNote,
  type LeftOutPage,
  type WalkSiteOptions,
} from '../../src/input/index.js';
import { runCli } from '../helpers/cli.js';

const root = await mkdtemp(join(tmpdir(), 'sitemapkit-build-folder-'));
after(() => rm(root, { recursive: true, force: true }));
const BASE = 'https://www.example.com/';
let sites = 0;

const page = (head: string, body = '<p>Some words of the page.</p>', lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

/** Writes `files` into a new folder, every file at `time` (a build's stamp by default: one instant). */
async function folder(files: Record<string, string>, time = new Date('2026-01-02T03:04:05Z')): Promise<string> {
  const dir = join(root, `site-${++sites}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
    await utimes(join(dir, path), time, time);
  }
  return dir;
}

async function read(dir: string, options: Partial<WalkSiteOptions> = {}) {
  const entries: UrlEntry[] = [];
  const leftOut: [string, string, string][] = [];
  const notes: DirectoryNote[] = [];
  for await (const { entry } of readSiteDirectory(dir, {
    baseUrl: BASE,
    onLeftOut: ({ path, reason, detail }: LeftOutPage) => leftOut.push([path.slice(dir.length + 1), reason, detail]),
    onNote: (note) => notes.push(note),
    ...options,
  }))
    entries.push(entry);
  return { entries, locs: entries.map((entry) => entry.loc), leftOut, notes };
}

describe('client-side redirects are not pages', () => {
  it('a meta refresh of a few seconds at most, and a page that is only a location script, are left out as redirects; their targets are listed once', async () => {
    const dir = await folder({
      'target.html': page('<title>Target</title>'),
      // Docusaurus' client-redirects plugin: no <body>, a refresh, a canonical and a script.
      'docs/old.html':
        '<!DOCTYPE html><html><head><meta charset="UTF-8"><meta http-equiv="refresh" content="0; url=/target.html"><link rel="canonical" href="/target.html"></head><script>window.location.href = \'/target.html\' + window.location.search;</script></html>',
      'refresh-3s.html': page('<meta http-equiv="refresh" content="3;URL=\'target.html\'">'),
      'refresh-30s.html': page('<meta http-equiv="refresh" content="30; url=/target.html"><title>Slides</title>'),
      'reload.html': page('<meta http-equiv="refresh" content="60"><title>Live scores</title>'),
      'script-stub.html':
        '<html><head><title>Moved</title></head><body><script>location.replace("/target.html")</script></body></html>',
      'script-in-page.html': page(
        '<title>Article</title>',
        '<p>Read on.</p><script>location.href = "/target.html";</script>',
      ),
      'noscript-refresh.html': page('<noscript><meta http-equiv="refresh" content="0;url=/target.html"></noscript>'),
      // A stub whose script is in its head, and a page whose head script only reads location (rustdoc's).
      'head-script-stub.html':
        '<html><head><title>Moved</title><script>location.replace("/target.html")</script></head></html>',
      'reads-location.html': page(
        '<title>Struct Vec</title><script>if(window.location.protocol!=="file:")document.head.insertAdjacentHTML("beforeend","")</script>',
      ),
    });
    const { locs, leftOut } = await read(dir);
    assert.deepEqual(locs, [
      `${BASE}noscript-refresh.html`,
      `${BASE}reads-location.html`,
      `${BASE}refresh-30s.html`,
      `${BASE}reload.html`,
      `${BASE}script-in-page.html`,
      `${BASE}target.html`,
    ]);
    assert.deepEqual(leftOut, [
      ['docs/old.html', 'redirect', `redirect → ${BASE}target.html (meta refresh)`],
      ['head-script-stub.html', 'redirect', `redirect → ${BASE}target.html (location.replace() in a script)`],
      ['refresh-3s.html', 'redirect', `redirect → ${BASE}target.html (meta refresh)`],
      ['script-stub.html', 'redirect', `redirect → ${BASE}target.html (location.replace() in a script)`],
    ]);
  });
});

describe("the host's rule files", () => {
  it('_redirects and _headers (Netlify, Cloudflare Pages): redirected paths and X-Robots-Tag noindex pages are left out; a 404 rule names the 404 page', async () => {
    const dir = await folder({
      _redirects:
        '# moved\n/old.html /new.html 301\n/blog/*  /articles/:splat  302\n/app/*  /index.html  200\n/*  /missing.html  404\n',
      _headers: '/private/*\n  X-Robots-Tag: noindex\n/public/*\n  Cache-Control: max-age=60\n',
      'index.html': page('<title>Home</title>'),
      'old.html': page('<title>Old</title>'),
      'new.html': page('<title>New</title>'),
      'blog/post.html': page('<title>Post</title>'),
      'app/index.html': page('<title>App</title>'),
      'missing.html': page('<title>Oops</title>'),
      'private/report.html': page('<title>Report</title>'),
      'public/report.html': page('<title>Report</title>'),
    });
    const { locs, leftOut } = await read(dir);
    assert.deepEqual(locs, [`${BASE}app/`, `${BASE}`, `${BASE}new.html`, `${BASE}public/report.html`]);
    assert.deepEqual(leftOut, [
      ['blog/post.html', 'redirect', 'redirect → /articles/:splat (_redirects line 3)'],
      ['missing.html', 'error-page', "the site's 404 page, as _redirects line 5 names it"],
      ['old.html', 'redirect', 'redirect → /new.html (_redirects line 2)'],
      ['private/report.html', 'noindex', 'X-Robots-Tag: noindex (_headers line 1)'],
    ]);
  });

  it('vercel.json: redirects and noindex headers leave pages out; cleanUrls and trailingSlash give the URL forms, which flags override', async () => {
    const dir = await folder({
      'vercel.json': JSON.stringify({
        cleanUrls: true,
        trailingSlash: false,
        redirects: [{ source: '/legacy/:path*', destination: '/docs/:path*' }],
        headers: [{ source: '/drafts/(.*)', headers: [{ key: 'X-Robots-Tag', value: 'noindex, nofollow' }] }],
      }),
      'index.html': page(''),
      'about.html': page(''),
      'docs/index.html': page(''),
      'legacy/intro.html': page(''),
      'drafts/idea.html': page(''),
    });
    const { locs, leftOut } = await read(dir);
    assert.deepEqual(locs, [`${BASE}about`, `${BASE}docs`, BASE]);
    assert.deepEqual(
      leftOut.map(([path, reason]) => [path, reason]),
      [
        ['drafts/idea.html', 'noindex'],
        ['legacy/intro.html', 'redirect'],
      ],
    );
    const flagged = await read(dir, { cleanUrls: false, trailingSlash: 'always' });
    assert.deepEqual(flagged.locs, [`${BASE}about.html`, `${BASE}docs/`, BASE]);
  });

  it('robots.txt: a disallowed page is left out with the line that disallows it; --keep-disallowed keeps it with a warning', async () => {
    const dir = await folder({
      'robots.txt':
        'User-agent: *\nAllow: /admin/public.html\nDisallow: /admin/\n\nUser-agent: Googlebot\nDisallow: /search\n',
      'index.html': page(''),
      'admin/index.html': page(''),
      'admin/public.html': page(''),
      'search.html': page(''),
    });
    const { locs, leftOut } = await read(dir);
    assert.deepEqual(locs, [`${BASE}admin/public.html`, BASE]);
    assert.deepEqual(leftOut, [
      ['admin/index.html', 'disallowed', 'robots.txt line 3: Disallow: /admin/ (for every crawler)'],
      ['search.html', 'disallowed', 'robots.txt line 6: Disallow: /search (for Googlebot)'],
    ]);
    const kept = await read(dir, { keepDisallowed: true });
    assert.equal(kept.locs.length, 4);
    const warnings = kept.notes.filter((note) => note.level === 'warning');
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!.message, /admin\/index\.html: listed although robots\.txt line 3/);
  });

  it('generate says when robots.txt names another sitemap than the one it writes', async () => {
    const dir = await folder({
      'robots.txt': 'User-agent: *\nDisallow:\nSitemap: https://www.example.com/sitemap_index.xml\n',
      'index.html': page(''),
    });
    const run = await runCli(['generate', dir, '--base-url', BASE, '--out', join(dir, 'out')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /warning: .*robots\.txt names https:\/\/www\.example\.com\/sitemap_index\.xml \(line 3\), not the sitemap this run wrote: add "Sitemap: https:\/\/www\.example\.com\/sitemap\.xml" to it/,
    );
  });
});

describe('the 404 page, whatever its name', () => {
  it('conventional names, --not-found, and a page whose title and first heading say "not found" (warned)', async () => {
    const dir = await folder({
      'index.html': page('<title>Home</title>'),
      'not-found.html': page(''),
      'not_found.html': page(''),
      '_404.html': page(''),
      'errors/gone.html': page(''),
      'oops.html': page('<title>Page Not Found</title>', '<h1>Not found</h1><p>Try the search.</p>'),
      'fix-404.html': page('<title>404 errors explained</title>', '<h1>How to fix 404 errors</h1>'),
      'found.html': page('<title>Lost and found</title>', '<h1>Not found: the story of a lost dog</h1>'),
      // Its first heading is an <h2>, as the audit reads it too: a page of the API, not an error page.
      'not-found-error.html': page('<title>Not found · API</title>', '<h2>The NotFound error class</h2>'),
      // No title: the first heading alone decides, as in the audit.
      'missing.html': page('', '<h1>Sorry, this page does not exist</h1>'),
      'untitled.html': page('', '<h1>Release notes</h1>'),
    });
    const { locs, leftOut, notes } = await read(dir, { notFound: 'errors/gone.html' });
    assert.deepEqual(locs, [
      `${BASE}fix-404.html`,
      `${BASE}found.html`,
      BASE,
      `${BASE}not-found-error.html`,
      `${BASE}untitled.html`,
    ]);
    assert.deepEqual(
      leftOut.map(([path, reason]) => [path, reason]),
      [
        ['_404.html', 'error-page'],
        ['errors/gone.html', 'error-page'],
        ['missing.html', 'error-page'],
        ['not-found.html', 'error-page'],
        ['not_found.html', 'error-page'],
        ['oops.html', 'error-page'],
      ],
    );
    assert.deepEqual(
      notes.map((note) => note.level),
      ['note', 'warning'],
    );
    assert.match(notes[1]!.message, /2 pages of .* left out as "not found" pages by their title and first heading/);
  });
});

describe('what the head says', () => {
  it("hreflang alternates with the self link (added under <html lang> when missing); the page's own date is its lastmod", async () => {
    const alternates = (self: boolean) =>
      `<link rel="alternate" hreflang="de" href="/de/guide.html">${self ? '<link rel="alternate" hreflang="en" href="/guide.html">' : ''}<link rel="alternate" hreflang="x-default" href="/guide.html">`;
    const dir = await folder({
      'guide.html': page(
        `${alternates(true)}<meta property="article:modified_time" content="2025-03-01T10:00:00+01:00">`,
      ),
      'de/guide.html': page(
        `${alternates(false)}<script type="application/ld+json">{"@context":"https://schema.org","dateModified":"2025-02-01"}</script>`,
        '<p>Worte.</p>',
        'de',
      ),
    });
    const { entries, notes } = await read(dir);
    assert.deepEqual(entries, [
      {
        kind: 'url',
        loc: `${BASE}de/guide.html`,
        lastmod: '2025-02-01',
        alternates: [
          { hreflang: 'de', href: `${BASE}de/guide.html` },
          { hreflang: 'x-default', href: `${BASE}guide.html` },
        ],
      },
      {
        kind: 'url',
        loc: `${BASE}guide.html`,
        lastmod: '2025-03-01T10:00:00+01:00',
        alternates: [
          { hreflang: 'de', href: `${BASE}de/guide.html` },
          { hreflang: 'en', href: `${BASE}guide.html` },
          { hreflang: 'x-default', href: `${BASE}guide.html` },
        ],
      },
    ]);
    assert.deepEqual(notes, [], 'every page is dated');
  });

  it('a date in the body (microdata, as Docusaurus writes it) dates a page whose head gives none', async () => {
    const lastUpdated = '<time datetime="2024-01-10T09:00:00.000Z" itemprop="dateModified">Jan 10, 2024</time>';
    const dir = await folder({
      'docs/intro.html': page(
        '<title>Intro</title>',
        `<p>${'Words. '.repeat(5000)}</p><footer>${lastUpdated}</footer>`,
      ),
      'docs/guide.html': page('<title>Guide</title>', `<footer>${lastUpdated.replace('01-10', '02-20')}</footer>`),
      // Past the size read in one piece (1 MiB): read a chunk at a time.
      'docs/huge.html': page(
        '<title>Huge</title>',
        `<p>${'Words. '.repeat(200_000)}</p><footer>${lastUpdated.replace('01-10', '03-30')}</footer>`,
      ),
    });
    const { entries } = await read(dir);
    assert.deepEqual(
      entries.map(({ loc, lastmod }) => [loc, lastmod]),
      [
        [`${BASE}docs/guide.html`, '2024-02-20T09:00:00.000Z'],
        [`${BASE}docs/huge.html`, '2024-03-30T09:00:00.000Z'],
        [`${BASE}docs/intro.html`, '2024-01-10T09:00:00.000Z'],
      ],
    );
  });
});

describe('honest lastmod', () => {
  it("a build's stamp is never a lastmod: left out, and said once why; a file time that is no stamp stands", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`p${i}.html`] = page('');
    const dir = await folder(files);
    const older = new Date('2024-06-01T12:00:00Z');
    await utimes(join(dir, 'p7.html'), older, older);
    const { entries, notes } = await read(dir);
    assert.deepEqual(
      entries.filter((entry) => entry.lastmod !== undefined),
      [{ kind: 'url', loc: `${BASE}p7.html`, lastmod: '2024-06-01T12:00:00Z' }],
    );
    assert.equal(notes.length, 1);
    assert.match(notes[0]!.message, /lastmod is left out of 29 pages of .*: 29 of 30 files were written by one build/);
  });

  it("sitemapkit's own validate draws no DATE-006 from what generate writes of a freshly built folder", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`p${i}.html`] = page(`<title>Page ${i}</title>`);
    const dir = await folder(files, new Date());
    const out = join(dir, 'out');
    const generated = await runCli(['generate', dir, '--base-url', BASE, '--out', out]);
    assert.equal(generated.code, 0, generated.stderr);
    const written = (await readdir(out)).filter((name) => name.endsWith('.xml'));
    const validated = await runCli(['validate', ...written.map((name) => join(out, name)), '--json']);
    assert.equal(validated.code, 0, validated.stdout);
    assert.doesNotMatch(validated.stdout, /DATE-006/);
  });
});
