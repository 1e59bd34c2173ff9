import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { generateFromDirectory, readSiteDirectory, type LeftOutPage, type SiteNote } from '../../src/index.js';
import { GitRepository } from '../helpers/git-repo.js';

const root = await mkdtemp(join(tmpdir(), 'sitemapkit-from-dir-'));
after(() => rm(root, { recursive: true, force: true }));

async function writeSite(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

test('generateFromDirectory publishes what `generate DIR` does and returns the summary, left-out pages by reason', async () => {
  const site = join(root, 'site');
  await writeSite(site, {
    'index.html': '<html><head><title>Home</title></head><body><h1>Welcome</h1></body></html>',
    'guide.html': '<html><head><title>Guide</title></head><body>text</body></html>',
    'draft.html': '<html><head><meta name="robots" content="noindex"></head><body></body></html>',
    '404.html': '<html><head><title>Not found</title></head><body></body></html>',
  });
  const leftOut: LeftOutPage[] = [];
  const notes: SiteNote[] = [];
  const summary = await generateFromDirectory(site, {
    baseUrl: 'https://www.example.com/',
    out: join(root, 'out'),
    gzip: false,
    onLeftOut: (page) => leftOut.push(page),
    onNote: (note) => notes.push(note),
  });
  assert.equal(summary.urls, 2);
  assert.deepEqual(
    summary.files.map((file) => file.name),
    ['sitemap.xml'],
  );
  assert.deepEqual(summary.robotsTxt, ['Sitemap: https://www.example.com/sitemap.xml']);
  const xml = await readFile(join(root, 'out', 'sitemap.xml'), 'utf8');
  assert.match(xml, /<loc>https:\/\/www\.example\.com\/<\/loc>/);
  assert.match(xml, /<loc>https:\/\/www\.example\.com\/guide\.html<\/loc>/);
  assert.deepEqual(
    summary.leftOut.map(({ reason, count }) => [reason, count]),
    [
      ['error-page', 1],
      ['noindex', 1],
    ],
  );
  assert.deepEqual(
    leftOut.map((page) => page.reason),
    ['error-page', 'noindex'],
  );
  assert.equal(summary.itemsRead, 2);
  assert.deepEqual(summary.notes, notes);
});

test('each page read from a directory carries its title: <title>, else its first <h1>, else its first <h2>', async () => {
  const site = join(root, 'titles');
  await writeSite(site, {
    'a.html': '<html><head><title>\n  The   A page </title></head><body><h1>Heading A</h1></body></html>',
    'b.html':
      '<html><head><meta charset="utf-8"></head><body><nav>menu</nav><h1>Only <em>a</em> heading</h1></body></html>',
    'c.html': '<html><head></head><body><p>no title at all</p></body></html>',
    'd.html': '<html><head></head><body><h2>Section</h2><p>no h1</p><h2>Later</h2></body></html>',
  });
  const titles: [string, string | undefined][] = [];
  for await (const { entry, title } of readSiteDirectory(site, { baseUrl: 'https://www.example.com/' }))
    titles.push([entry.loc, title]);
  assert.deepEqual(titles, [
    ['https://www.example.com/a.html', 'The A page'],
    ['https://www.example.com/b.html', 'Only a heading'],
    ['https://www.example.com/c.html', undefined],
    ['https://www.example.com/d.html', 'Section'],
  ]);
});

test('with images: each page lists the images it shows, but not the logo that stands on most pages', async () => {
  const site = join(root, 'images');
  const shell = (body: string) =>
    `<html><head><title>Page</title><base href="/media/"></head><body><header><img src="/logo.svg" alt="Logo"></header>${body}</body></html>`;
  await writeSite(site, {
    'index.html': shell('<img src="home.jpg">'),
    'a.html': shell('<img src="a-small.jpg" srcset="a-small.jpg 1x, a-large.jpg 2x">'),
    'b.html': shell('<p>no picture of its own</p>'),
    'c.html': shell('<img src="https://cdn.example.com/c.png?w=1&amp;h=2"><img src="data:image/png;base64,AAAA">'),
  });
  const published = async (out: string, images: boolean) => {
    await generateFromDirectory(site, { baseUrl: 'https://www.example.com/', out: join(root, out), images });
    return readFile(join(root, out, 'sitemap.xml'), 'utf8');
  };
  const xml = await published('images-out', true);
  const imagesOf = (path: string) =>
    [
      ...(new RegExp(`<loc>https://www\\.example\\.com/${path}</loc>(.*?)</url>`, 's').exec(xml)?.[1] ?? '').matchAll(
        /<image:loc>(.*?)<\/image:loc>/g,
      ),
    ].map((match) => match[1]);
  assert.deepEqual(imagesOf(''), ['https://www.example.com/media/home.jpg']);
  assert.deepEqual(imagesOf('a\\.html'), [
    'https://www.example.com/media/a-small.jpg',
    'https://www.example.com/media/a-large.jpg',
  ]);
  assert.deepEqual(imagesOf('b\\.html'), []);
  assert.deepEqual(imagesOf('c\\.html'), ['https://cdn.example.com/c.png?w=1&amp;h=2']);
  assert.doesNotMatch(xml, /logo\.svg/);
  assert.doesNotMatch(await published('no-images-out', false), /<image:/, 'images only when asked');
});

test('gitDir dates the pages of a build folder outside git by their sources; a shallow clone and a folder outside git are said', async () => {
  const repo = await GitRepository.init(join(root, 'sources'));
  await repo.write('docs/guide.md', '# Guide');
  await repo.write('docs/index.mdx', '# Home');
  repo.commit(['docs'], '2020-02-02T02:02:02Z');
  const build = join(root, 'git-build');
  await writeSite(build, {
    'index.html': '<html><head><title>Home</title></head><body>home</body></html>',
    'guide/index.html': '<html><head><title>Guide</title></head><body>guide</body></html>',
    'tags.html': '<html><head><title>Tags</title></head><body>tags</body></html>',
  });
  const lastmods = async (gitDir: string, notes: SiteNote[]) => {
    const out = join(root, `git-out-${notes.length}-${Math.random().toString(36).slice(2)}`);
    await generateFromDirectory(build, {
      baseUrl: 'https://www.example.com/',
      out,
      gitDir,
      onNote: (n) => notes.push(n),
    });
    const xml = await readFile(join(out, 'sitemap.xml'), 'utf8');
    return [...xml.matchAll(/<loc>(.*?)<\/loc>(?:<lastmod>(.*?)<\/lastmod>)?/g)].map(
      ([, loc, lastmod]) => `${loc} ${lastmod}`,
    );
  };
  const notes: SiteNote[] = [];
  assert.deepEqual((await lastmods(join(repo.dir, 'docs'), notes)).sort(), [
    'https://www.example.com/ 2020-02-02T02:02:02+00:00',
    'https://www.example.com/guide/ 2020-02-02T02:02:02+00:00',
    'https://www.example.com/tags.html undefined',
  ]);
  assert.equal(notes.filter((note) => note.message.includes('git dates no source of 1 page')).length, 1);
  assert.match(notes.find((note) => note.message.includes('git dates'))!.message, /\(first: tags\.html\)/);

  const shallow = join(root, 'shallow-sources');
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${repo.dir}`, shallow]);
  const shallowNotes: SiteNote[] = [];
  assert.deepEqual(
    (await lastmods(join(shallow, 'docs'), shallowNotes)).map((line) => line.split(' ')[1]),
    ['undefined', 'undefined', 'undefined'],
  );
  assert.ok(
    shallowNotes.some(
      (note) => note.level === 'warning' && /shallow-sources\/docs is in a shallow git clone/.test(note.message),
    ),
  );

  await assert.rejects(lastmods(build, []), /--git-dir .*git-build is not in a git checkout/);
});
