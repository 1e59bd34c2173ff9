import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { GitRepository } from '../helpers/git-repo.js';
import { locsOf } from './entries.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-git-dir-'));
after(() => rm(scratch, { recursive: true, force: true }));

// The sources are committed; the build folder is outside the repository, every file of it just written.
const repo = await GitRepository.init(join(scratch, 'repo'));
await repo.write('site/src/index.md', '# Home');
await repo.write('site/src/about.md', '# About');
repo.commit(['site'], '2021-03-04T05:06:07Z');
await repo.write('site/src/about.md', '# About us');
repo.commit(['site/src/about.md'], '2022-01-02T03:04:05+01:00');
const sources = join(repo.dir, 'site', 'src');

const build = join(scratch, 'build');
const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body>${title}</body></html>`;
for (const [path, html] of Object.entries({
  'index.html': page('Home'),
  'about/index.html': page('About'),
  'orphan.html': page('Orphan'),
})) {
  await mkdir(dirname(join(build, path)), { recursive: true });
  await writeFile(join(build, path), html);
}

let outs = 0;
async function generate(...flags: string[]) {
  const out = join(scratch, `out-${outs++}`);
  const run = await runCli(['generate', build, '--base-url', 'https://www.example.com/', '--out', out, ...flags]);
  const xml = await readFile(join(out, 'sitemap.xml'), 'utf8').catch(() => '');
  const lastmods: Record<string, string | undefined> = {};
  for (const [, loc = '', lastmod] of xml.matchAll(/<loc>(.*?)<\/loc>(?:<lastmod>(.*?)<\/lastmod>)?/g))
    lastmods[loc] = lastmod;
  return { ...run, xml, lastmods };
}

test("--git-dir dates each built page by its source's last commit; a page with no source gets no lastmod, and one note says why", async () => {
  const run = await generate('--git-dir', sources);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(locsOf(run.xml).sort(), [
    'https://www.example.com/',
    'https://www.example.com/about/',
    'https://www.example.com/orphan.html',
  ]);
  assert.deepEqual(run.lastmods, {
    'https://www.example.com/': '2021-03-04T05:06:07+00:00',
    'https://www.example.com/about/': '2022-01-02T03:04:05+01:00',
    'https://www.example.com/orphan.html': undefined,
  });
  const gitNotes = run.stderr.split('\n').filter((line) => line.includes('--git-dir'));
  assert.equal(gitNotes.length, 1, run.stderr);
  assert.match(
    gitNotes[0]!,
    /^note: git dates no source of 1 page of .*build \(first: orphan\.html\): a page PATH\.html/,
  );

  // Without the flag, the build folder is in no repository: nothing is dated.
  const plain = await generate();
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(Object.values(plain.lastmods), [undefined, undefined, undefined]);
});

test('--git-dir outside any git checkout is refused, and nothing is written', async () => {
  const run = await generate('--git-dir', build);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /--git-dir .*build is not in a git checkout/);
  assert.equal(run.xml, '');
});

test("a hostile .git/config and hooks in --git-dir's repository run no program", async () => {
  await repo.write('.gitattributes', '* filter=evil diff=evil\n');
  repo.commit(['.gitattributes'], '2023-01-01T00:00:00Z');
  const marks = await repo.turnHostile(scratch);

  const run = await generate('--git-dir', sources);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.lastmods['https://www.example.com/about/'], '2022-01-02T03:04:05+01:00');
  assert.equal(await marks(), 'no mark');
});
