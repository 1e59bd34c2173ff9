import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CommitTimes, readSiteDirectory } from '../../src/input/index.js';
import { GitRepository } from '../helpers/git-repo.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-commit-times-'));
after(() => rm(scratch, { recursive: true, force: true }));

const repo = await GitRepository.init(join(scratch, 'repo'));
await repo.write('README.md', 'not a page');
await repo.write('site/index.html', '<p>home</p>');
await repo.write('site/blog/grüße aus zürich.html', '<p>hello</p>');
await repo.write('site/about.html', '<p>about</p>');
repo.commit(['README.md', 'site'], '2021-03-04T05:06:07+02:00');
await repo.write('site/about.html', '<p>about us</p>');
repo.commit(['site/about.html'], '2022-01-02T03:04:05Z');
await repo.write('site/blog/grüße aus zürich.html', '<p>hello again</p>');
repo.commit(['site/blog/grüße aus zürich.html', 'README.md'], '2023-06-07T08:09:10-04:00');
await repo.write('site/index.html', '<p>home, edited and not committed</p>');
await repo.write('site/new.html', '<p>not in git</p>');
const site = join(repo.dir, 'site');

function open(dir: string): CommitTimes {
  const opening = CommitTimes.open(dir);
  assert.ok(opening.ok, `${dir} should be a checkout`);
  return opening.times;
}

test("each file's last commit time, relative to the directory; none for modified or untracked files", async () => {
  const times = open(site);
  try {
    assert.equal(await times.timeOf('about.html'), '2022-01-02T03:04:05+00:00');
    assert.equal(await times.timeOf('blog/grüße aus zürich.html'), '2023-06-07T08:09:10-04:00');
    assert.equal(await times.timeOf('index.html'), undefined, 'modified since its last commit');
    assert.equal(await times.timeOf('new.html'), undefined, 'untracked');
    assert.equal(await times.timeOf('README.md'), undefined, 'outside the directory');
  } finally {
    times.close();
  }
});

test('the same answer as `git log -1 --format=%cI -- FILE`, one file at a time', async () => {
  const times = open(site);
  try {
    for (const file of ['about.html', 'blog/grüße aus zürich.html']) {
      const single = execFileSync('git', ['log', '-1', '--format=%cI', '--', file], { cwd: site, encoding: 'utf8' });
      assert.equal(await times.timeOf(file), single.trim(), file);
    }
  } finally {
    times.close();
  }
});

test('a folder outside any checkout, and a shallow clone, have no commit times (and say why)', async () => {
  const plain = join(scratch, 'plain');
  await mkdir(plain);
  assert.deepEqual(CommitTimes.open(plain), { ok: false, reason: 'not-a-checkout' });
  const shallow = join(scratch, 'shallow');
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${repo.dir}`, shallow]);
  assert.deepEqual(CommitTimes.open(join(shallow, 'site')), { ok: false, reason: 'shallow' });
});

test('a build directory read with commit times dates its pages by them, and by file time where git has none', async () => {
  const fileTime = new Date('2024-09-10T11:12:13Z');
  for (const page of ['index.html', 'new.html']) await utimes(join(site, page), fileTime, fileTime);
  const times = open(site);
  const lastmods = new Map<string, string | undefined>();
  try {
    for await (const { entry } of readSiteDirectory(site, { baseUrl: 'https://www.example.com/', commitTimes: times }))
      lastmods.set(entry.loc, entry.lastmod);
  } finally {
    times.close();
  }
  assert.deepEqual(Object.fromEntries(lastmods), {
    'https://www.example.com/about.html': '2022-01-02T03:04:05+00:00',
    'https://www.example.com/blog/gr%C3%BC%C3%9Fe%20aus%20z%C3%BCrich.html': '2023-06-07T08:09:10-04:00',
    'https://www.example.com/': '2024-09-10T11:12:13Z',
    'https://www.example.com/new.html': '2024-09-10T11:12:13Z',
  });
});

test('a build directory read with content digests gives each page its digest', async () => {
  const digests: string[] = [];
  for await (const item of readSiteDirectory(site, { baseUrl: 'https://www.example.com/', contentDigests: true }))
    digests.push(item.contentDigest ?? 'none');
  assert.equal(digests.length, 4);
  for (const digest of digests) assert.match(digest, /^[0-9a-f]{32}$/);
  assert.equal(new Set(digests).size, 4, 'four pages that say different things');
});

test("a checkout's own .git/config and hooks run no program while its commit times are read", async () => {
  const hostile = await GitRepository.init(join(scratch, 'hostile'));
  await hostile.write('.gitattributes', '* filter=evil diff=evil\n');
  await hostile.write('site/index.html', '<p>home</p>');
  await hostile.write('site/about.html', '<p>about</p>');
  hostile.commit(['.gitattributes', 'site'], '2021-03-04T05:06:07Z');
  // Set after the commits: from here on, git runs a program of ours wherever it would run one.
  const marks = await hostile.turnHostile(scratch);
  // Touched without a change: a status would refresh the index (and run the filter and the hooks).
  const later = new Date('2024-01-01T00:00:00Z');
  await utimes(join(hostile.dir, 'site', 'index.html'), later, later);

  const times = open(join(hostile.dir, 'site'));
  try {
    assert.equal(await times.timeOf('about.html'), '2021-03-04T05:06:07+00:00');
    assert.equal(await times.timeOf('index.html'), '2021-03-04T05:06:07+00:00', 'touched, not changed');
  } finally {
    times.close();
  }
  assert.equal(await marks(), 'no mark');
});
