import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import { hasNoindex, walkSiteDirectory, type ReadEntry } from '../../src/input/index.js';
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
  const skipped: [string, string][] = [];
  const entries = await walk({
    exclude: ['drafts/**', '**/404.html'],
    onSkip: (path, reason) => skipped.push([path, reason]),
  });
  assert.deepEqual(
    entries.map((entry) => entry.loc),
    [
      'https://www.example.com/about.html',
      'https://www.example.com/blog/first%20post/',
      'https://www.example.com/blog/',
      'https://www.example.com/blog/z%C3%BCrich.html',
      'https://www.example.com/docs/page.html',
      'https://www.example.com/',
    ],
  );
  assert.deepEqual(skipped, [
    ['404.html', 'excluded'],
    ['blog/draft.html', 'noindex'],
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
  assert.ok(entries.some((entry) => entry.loc === 'https://www.example.com/docs/404.html'));
  assert.ok(entries.some((entry) => entry.loc === 'https://www.example.com/docs/drafts/idea.html'));
  assert.equal(entries.length, 8);
});

test('noindex detection reads only <meta name="robots"> in the head', () => {
  assert.equal(hasNoindex('<head><meta name="robots" content="index, nofollow"></head>'), false);
  assert.equal(hasNoindex('<head><meta name="robots" content="max-snippet:20, NOINDEX"></head>'), true);
  assert.equal(hasNoindex('<head><meta name="googlebot" content="noindex"></head>'), false);
  assert.equal(hasNoindex('<body><meta name="robots" content="noindex"></body>'), false);
  assert.equal(hasNoindex('<head><meta content="none" name=robots></head>'), true);
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
      assert.deepEqual(
        stderr
          .split('\n')
          .filter((line) => / (error|warning) /.test(line))
          .map((line) => line.replace(/ (the URL is|duplicate URL) .*/, ' $1 …')),
        [
          `${given}/${deepPage}: error URL-002 the URL is …`,
          `${given}/blog/index.html: warning URL-006 duplicate URL …`,
        ],
      );
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
