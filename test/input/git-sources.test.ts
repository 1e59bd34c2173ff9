import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CommitTimes, GitSourceTimes } from '../../src/input/index.js';
import { GitRepository } from '../helpers/git-repo.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-git-sources-'));
after(() => rm(scratch, { recursive: true, force: true }));

const repo = await GitRepository.init(join(scratch, 'repo'));
await repo.write('src/pages/index.astro', '---\n---\n<h1>home</h1>');
await repo.write('src/pages/about.md', '# About');
await repo.write('src/pages/blog/post.mdx', '# Post');
await repo.write('src/pages/blog/post.css', 'h1 {}');
await repo.write('src/pages/docs/index.md', '# Docs');
await repo.write('src/pages/docs.vue', '<template/>');
repo.commit(['src'], '2021-01-01T00:00:00Z');
await repo.write('src/pages/docs.vue', '<template><p>docs</p></template>');
repo.commit(['src/pages/docs.vue'], '2022-02-02T00:00:00Z');
await repo.write('src/pages/blog/post.css', 'h1 { color: red }');
repo.commit(['src/pages/blog/post.css'], '2023-03-03T00:00:00Z');
await repo.write('src/pages/about.md', '# About us, not committed');

function open(dir: string): GitSourceTimes {
  const opening = CommitTimes.open(dir);
  assert.ok(opening.ok, `${dir} should be a checkout`);
  return new GitSourceTimes(opening.times);
}

test('a built page finds its sources by its path without the extension, an index page also by its folder', () => {
  const times = open(join(repo.dir, 'src/pages'));
  try {
    assert.deepEqual(times.sourcesOf('index.html'), ['index.astro']);
    assert.deepEqual(times.sourcesOf('about/index.html'), ['about.md']);
    assert.deepEqual(times.sourcesOf('about.html'), ['about.md']);
    assert.deepEqual(times.sourcesOf('blog/post/index.html'), ['blog/post.mdx'], 'a stylesheet is no source');
    assert.deepEqual(times.sourcesOf('docs/index.html').sort(), ['docs.vue', 'docs/index.md']);
    assert.deepEqual(times.sourcesOf('missing/index.html'), []);
  } finally {
    times.close();
  }
});

test("a page's lastmod is the latest commit of its committed, unmodified sources; none without one", async () => {
  const times = open(join(repo.dir, 'src/pages'));
  try {
    assert.equal(await times.timeOf('index.html'), '2021-01-01T00:00:00+00:00');
    assert.equal(await times.timeOf('docs/index.html'), '2022-02-02T00:00:00+00:00', 'the later of two sources');
    assert.equal(await times.timeOf('blog/post/index.html'), '2021-01-01T00:00:00+00:00', 'not the stylesheet');
    assert.equal(await times.timeOf('about/index.html'), undefined, 'modified since its last commit');
    assert.equal(await times.timeOf('missing.html'), undefined, 'no source');
    assert.equal(times.unsourced, 2);
    assert.equal(times.firstUnsourced, 'about/index.html');
  } finally {
    times.close();
  }
});

test('the repository root works too: paths are then the full source paths', async () => {
  const times = open(repo.dir);
  try {
    assert.equal(await times.timeOf('src/pages/index.html'), '2021-01-01T00:00:00+00:00');
    assert.equal(await times.timeOf('index.html'), undefined);
  } finally {
    times.close();
  }
});
