import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import { walkSiteDirectory, type LeftOutPage, type ReadEntry } from '../../src/input/index.js';
import { readSiteDirectory } from '../../src/input/site-directory.js';
import { runCli } from '../helpers/cli.js';

const site = await mkdtemp(join(tmpdir(), 'sitemapkit-site-'));
after(() => rm(site, { recursive: true, force: true }));

const PAGE = '<!doctype html><html><head><title>t</title></head><body><p>hello</p></body></html>';
const files: Record<string, string> = {
  'index.html': PAGE,
  'about.html': PAGE,
  'blog/index.html': PAGE,
  'blog/first post/index.html': PAGE,
  'blog/zürich.html': PAGE,
  'blog/draft.html': '<html><head><META NAME="Robots" CONTENT="NoIndex, follow"></head><body></body></html>',
  'private/index.htm': '<html><head><meta name="robots" content="none"></head></html>',
  'drafts/idea.html': PAGE,
  '404.html': PAGE,
  '.well-known/hidden.html': PAGE,
  'assets/app.js': 'console.log(1)',
  'docs/page.html':
    '<html><head><meta name="googlebot" content="noindex"></head><body><meta name="robots" content="noindex"></body></html>',
};
for (const [path, content] of Object.entries(files)) {
  await mkdir(dirname(join(site, path)), { recursive: true });
  await writeFile(join(site, path), content);
}
const aboutTime = new Date('2024-03-04T05:06:07.890Z');
await utimes(join(site, 'about.html'), aboutTime, aboutTime);

async function walk(options: Partial<Parameters<typeof walkSiteDirectory>[1]> = {}): Promise<UrlEntry[]> {
  const entries: UrlEntry[] = [];
  for await (const entry of walkSiteDirectory(site, { baseUrl: 'https://www.example.com/', ...options }))
    entries.push(entry);
  return entries;
}

test('every .html file becomes a URL; index.html becomes its directory with a slash; names are percent-encoded', async () => {
  const leftOut: [string, string][] = [];
  const entries = await walk({
    exclude: ['drafts/**'],
    onLeftOut: ({ path, reason }) => leftOut.push([path.slice(site.length + 1), reason]),
  });
  assert.deepEqual(
    entries.map((entry) => entry.loc),
    [
      'https://www.example.com/about.html',
      'https://www.example.com/blog/first%20post/',
      'https://www.example.com/blog/',
      'https://www.example.com/blog/z%C3%BCrich.html',
      'https://www.example.com/',
    ],
  );
  assert.deepEqual(leftOut, [
    ['404.html', 'error-page'],
    ['blog/draft.html', 'noindex'],
    ['docs/page.html', 'noindex'],
    ['drafts/idea.html', 'excluded'],
    ['private/index.htm', 'noindex'],
  ]);
});

test('lastmod is the file modification time in UTC, to the second', async () => {
  const about = (await walk()).find((entry) => entry.loc.endsWith('/about.html'));
  assert.equal(about?.lastmod, '2024-03-04T05:06:07Z');
});

test('a base URL below the root keeps its path; without exclusions every indexable page is listed', async () => {
  const entries = await walk({ baseUrl: 'https://www.example.com/docs' });
  assert.ok(entries.some((entry) => entry.loc === 'https://www.example.com/docs/drafts/idea.html'));
  assert.equal(entries.length, 6);
});

describe('which pages are left out, and why', () => {
  const dir = `${site}-judged`;
  const page = (head: string, body = '<p>text</p>') =>
    `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
  const canonical = (href: string) => page(`<link rel="canonical" href="${href}">`);
  const pages: Record<string, string> = {
    // Error pages, by name: at the root, in a language folder, as Gatsby writes them; not names that only contain a status.
    '404.html': page('<meta name="robots" content="index">'),
    '500.htm': page(''),
    'fr/404.html': page(''),
    '404/index.html': page(''),
    'catalogue/x404.html': page(''),
    'catalogue/4040.html': page(''),
    // Robots <meta> in the head, addressed to every robot or to one whose directives the crawler honours too.
    'meta/googlebot.html': page('<meta name="googlebot" content="noindex">'),
    'meta/bingbot.html': page('<meta name="BingBot" content="none">'),
    'meta/other-bot.html': page('<meta name="otherbot" content="noindex">'),
    'meta/in-body.html': page('', '<meta name="robots" content="noindex">'),
    'meta/nofollow.html': page('<meta name="robots" content="nofollow, max-snippet:20">'),
    // Canonicals: the page itself in another form (listed under that form), another page, conflicting ones.
    'clean.html': canonical('https://www.example.com/clean'),
    'section/index.html': canonical('/section'),
    'self.html': canonical('self.html#top'),
    'based/page.html': page('<base href="/based/"><link rel="canonical" href="page.html">'),
    'copy.html': canonical('https://www.example.com/original.html'),
    'other-host.html': canonical('https://example.com/other-host.html'),
    'with-query.html': canonical('/with-query.html?page=1'),
    'conflict.html': page('<link rel="canonical" href="/a"><link rel="canonical" href="/b">'),
    'zürich.html': canonical('/zürich'),
  };
  before(async () => {
    for (const [path, html] of Object.entries(pages)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), html);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('lists each page under its URL or its own canonical form, and tells each left-out page with its reason', async () => {
    const leftOut: LeftOutPage[] = [];
    const entries: UrlEntry[] = [];
    for await (const entry of walkSiteDirectory(dir, {
      baseUrl: 'https://www.example.com/',
      onLeftOut: (page) => leftOut.push(page),
    }))
      entries.push(entry);
    assert.deepEqual(
      entries.map((entry) => entry.loc),
      [
        'https://www.example.com/based/page.html',
        'https://www.example.com/catalogue/4040.html',
        'https://www.example.com/catalogue/x404.html',
        'https://www.example.com/clean',
        'https://www.example.com/conflict.html',
        'https://www.example.com/meta/in-body.html',
        'https://www.example.com/meta/nofollow.html',
        'https://www.example.com/meta/other-bot.html',
        'https://www.example.com/section',
        'https://www.example.com/self.html',
        'https://www.example.com/z%C3%BCrich',
      ],
    );
    assert.deepEqual(
      leftOut.map(({ path, reason, detail }) => [path.slice(dir.length + 1), reason, detail]),
      [
        ['404/index.html', 'error-page', 'named after an HTTP error status: served for errors, not a page to index'],
        ['404.html', 'error-page', 'named after an HTTP error status: served for errors, not a page to index'],
        ['500.htm', 'error-page', 'named after an HTTP error status: served for errors, not a page to index'],
        ['copy.html', 'canonicalised', 'canonical is https://www.example.com/original.html'],
        ['fr/404.html', 'error-page', 'named after an HTTP error status: served for errors, not a page to index'],
        ['meta/bingbot.html', 'noindex', 'noindex in a robots <meta> tag'],
        ['meta/googlebot.html', 'noindex', 'noindex in a robots <meta> tag'],
        ['other-host.html', 'canonicalised', 'canonical is https://example.com/other-host.html'],
        ['with-query.html', 'canonicalised', 'canonical is https://www.example.com/with-query.html?page=1'],
      ],
    );
  });
});

describe('--exclude globs', () => {
  it('are relative to the directory, with or without a leading slash; the ones that matched nothing are told once the walk is over', async () => {
    const leftOut: string[] = [];
    let unused: string[] | undefined;
    const entries = await walk({
      exclude: ['/drafts/**', './blog/first post/**', '/nothing/**', 'about.htm'],
      onLeftOut: ({ path, detail }) => leftOut.push(`${path.slice(site.length + 1)}: ${detail}`),
      onUnusedExclude: (patterns) => (unused = patterns),
    });
    assert.ok(!entries.some((entry) => /drafts|first%20post/.test(entry.loc)));
    assert.deepEqual(
      leftOut.filter((line) => line.includes('--exclude')),
      [
        'blog/first post/index.html: matches --exclude ./blog/first post/**',
        'drafts/idea.html: matches --exclude /drafts/**',
      ],
    );
    assert.deepEqual(unused, ['/nothing/**', 'about.htm']);
  });
});

describe('a page with a problem is named by its file', () => {
  const dir = `${site}-problems`;
  // Below the directory: a page also served as .htm (the same URL twice), and one so deep its URL is too long.
  const deepFolders = Array.from({ length: 9 }, (_, i) => `${String(i)}${'d'.repeat(230)}`);
  const deepPage = [...deepFolders, 'page.html'].join('/');

  before(async () => {
    for (const path of ['index.html', 'blog/index.html', 'blog/index.htm', deepPage]) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), PAGE);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('readSiteDirectory gives each entry its file, the directory as given joined with the path below it, and no line', async () => {
    const read: ReadEntry[] = [];
    for await (const item of readSiteDirectory(dir, { baseUrl: 'https://www.example.com/' })) read.push(item);
    assert.deepEqual(
      read.map(({ entry, source, line }) => [entry.loc.length > 100 ? 'long' : entry.loc, source, line]),
      [
        ['long', join(dir, deepPage), undefined],
        ['https://www.example.com/blog/', join(dir, 'blog/index.htm'), undefined],
        ['https://www.example.com/blog/', join(dir, 'blog/index.html'), undefined],
        ['https://www.example.com/', join(dir, 'index.html'), undefined],
      ],
    );
  });

  it('sitemapkit generate prints each problem with the path of its page, below the directory as the command line gave it', async () => {
    const out = await mkdtemp(join(tmpdir(), 'sitemapkit-site-out-'));
    const given = basename(dir);
    try {
      const { code, stderr } = await runCli(
        ['generate', given, '--base-url', 'https://www.example.com/', '--out', out],
        { cwd: dirname(dir) },
      );
      assert.equal(code, 1, 'a page could not be listed');
      const [deep, duplicate, ...rest] = stderr
        .split('\n')
        .filter((line) => / (error|warning) /.test(line))
        .map((line) => line.replace(/ (the URL is|duplicate URL) .*/, ' $1 …'));
      assert.deepEqual(rest, []);
      // The deep page's path is elided in the middle (one line stays one line), its start and end kept.
      const [start, end] = deep!.split(': error URL-002 ')[0]!.split('…');
      assert.ok(`${given}/${deepPage}`.startsWith(start!) && `${given}/${deepPage}`.endsWith(end!), deep);
      assert.ok(start!.startsWith(`${given}/0d`) && end!.endsWith('/page.html') && deep!.length < 200, deep);
      assert.equal(duplicate, `${given}/blog/index.html: warning URL-006 duplicate URL …`);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

test('page URLs are those the URL parser makes of the base and the file names, whatever the base is written as', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-site-names-'));
  try {
    const names = ['a b#c?d%e.html', "it's (1) [x] {y}.html", 'ñ/ü.html', 'deep/index.html'];
    for (const name of names) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), PAGE);
    }
    const encoded = ['a%20b%23c%3Fd%25e.html', 'deep/', "it's%20(1)%20%5Bx%5D%20%7By%7D.html", '%C3%B1/%C3%BC.html'];
    for (const [baseUrl, root] of <[string, string][]>[
      ['https://www.example.com/docs/', 'https://www.example.com/docs/'],
      ['https://www.example.com/docs', 'https://www.example.com/docs/'],
      ['HTTPS://WWW.Example.com:443/docs/', 'https://www.example.com/docs/'],
      ['https://www.example.com/a b/', 'https://www.example.com/a%20b/'],
    ]) {
      const locs: string[] = [];
      for await (const entry of walkSiteDirectory(dir, { baseUrl })) locs.push(entry.loc);
      assert.deepEqual(
        locs,
        encoded.map((path) => root + path),
        baseUrl,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
