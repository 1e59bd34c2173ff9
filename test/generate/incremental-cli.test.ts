/**
 * `sitemapkit generate DIR --state STATE` after each build of a site, as a site owner runs it:
 * what changed is exactly what the build changed, one shard and the index are rewritten, pages
 * keep their dates across builds that rewrite every file, and git dates a site's first run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, test } from 'node:test';
import { parseSitemap } from '../../src/parse/index.js';
import { BuildDirectory, type Pages } from '../helpers/build-site.js';
import { kill9, runCli, startPausedAt } from '../helpers/cli.js';
import { GitRepository } from '../helpers/git-repo.js';
import { BASE_URL } from './entries.js';
import { servedSet } from './served-set.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-incremental-cli-'));
after(() => rm(scratch, { recursive: true, force: true }));
let sites = 0;

const LONG_AGO = new Date('2001-01-01T00:00:00Z');
const FIRST_BUILD = new Date('2024-01-01T08:00:00Z');
const SECOND_BUILD = new Date('2024-02-01T08:00:00Z');

/** A site: its build directory, its output and its state, fresh for each test. */
function site(root = join(scratch, `site-${++sites}`)) {
  const build = new BuildDirectory(join(root, 'dist'));
  const out = join(root, 'public');
  const state = join(root, 'state');
  const generate = (...extra: string[]) =>
    runCli(['generate', build.dir, '--base-url', BASE_URL, '--out', out, '--state', state, ...extra]);
  return { build, out, state, generate };
}

/** Ten pages, p01.html … p10.html, each saying something of its own. */
function tenPages(): Pages {
  const pages: Pages = {};
  for (let i = 1; i <= 10; i++) pages[`p${String(i).padStart(2, '0')}.html`] = `<h1>Page ${i}</h1><p>Text ${i}.</p>`;
  return pages;
}

/** URL → lastmod of every URL served from `out`. */
async function servedLastmods(out: string): Promise<Map<string, string | undefined>> {
  const lastmods = new Map<string, string | undefined>();
  const { shards } = await servedSet(out);
  for (const shard of shards.length === 0 ? ['sitemap.xml'] : shards) {
    for await (const entry of parseSitemap({ path: join(out, shard) }))
      if (entry.kind === 'url') lastmods.set(entry.loc, entry.lastmod);
  }
  return lastmods;
}

async function ageFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir)) await utimes(join(dir, name), LONG_AGO, LONG_AGO);
}

/** The sitemap files of `dir` that were written since ageFiles. */
async function writtenFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => !name.startsWith('.')).sort();
  const written: string[] = [];
  for (const name of names) if ((await stat(join(dir, name))).mtimeMs !== LONG_AGO.getTime()) written.push(name);
  return written;
}

const url = (page: string): string => `${BASE_URL}${page}`;

test('a build with one page changed, one added and one removed: exactly those are the changes; one shard and the index are rewritten', async () => {
  const { build, out, state, generate } = site();
  const pages = tenPages();
  await build.build(pages, FIRST_BUILD);
  const first = await generate('--max-urls', '4');
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /First run for this site \(run 1, recorded in .*generate\.sqlite\): 10 URLs added\n/);
  const shardsBefore = (await servedSet(out)).shards;
  assert.equal(shardsBefore.length, 3); // p01–p04, p05–p08, p09–p10
  const bytesBefore = await Promise.all(shardsBefore.map((name) => readFile(join(out, name))));
  await ageFiles(out);

  // The next build rewrites every page (new file times, new asset hashes, a new build time).
  pages['p09.html'] = '<h1>Page 9</h1><p>Text 9, revised.</p>';
  delete pages['p10.html'];
  pages['p11.html'] = '<h1>Page 11</h1><p>Text 11.</p>';
  await build.build(pages, SECOND_BUILD);
  const started = new Date();
  const second = await generate('--max-urls', '4');
  const ended = new Date();
  assert.equal(second.code, 0, second.stderr);
  assert.match(
    second.stdout,
    new RegExp(
      `Since the last run: 1 added, 1 changed, 1 removed \\(run 2, recorded in .*\\)\\n` +
        `  added    ${url('p11.html')}\\n  changed  ${url('p09.html')}\\n  removed  ${url('p10.html')}\\n`,
    ),
  );

  // Exactly those changes, as submit reads them.
  const db = new Database(join(state, 'generate.sqlite'), { readonly: true });
  const recorded = db
    .prepare(
      'SELECT run, loc, change FROM generate_changes WHERE run = (SELECT max(run) FROM generate_runs) ORDER BY rowid',
    )
    .all();
  db.close();
  assert.deepEqual(recorded, [
    { run: 2, loc: url('p09.html'), change: 'changed' },
    { run: 2, loc: url('p11.html'), change: 'added' },
    { run: 2, loc: url('p10.html'), change: 'removed' },
  ]);

  // Exactly one shard and the index were written; the others are the same files, byte for byte.
  const shardsAfter = (await servedSet(out)).shards;
  assert.deepEqual(shardsAfter.slice(0, 2), shardsBefore.slice(0, 2));
  assert.notEqual(shardsAfter[2], shardsBefore[2]);
  assert.deepEqual(await writtenFiles(out), [shardsAfter[2]!, 'sitemap.xml'].sort());
  for (const i of [0, 1]) assert.deepEqual(await readFile(join(out, shardsAfter[i]!)), bytesBefore[i]);
  assert.deepEqual((await readdir(out)).sort(), ['.sitemap-manifest.json', ...shardsAfter, 'sitemap.xml'].sort());

  // Pages dated by their content: the changed and the new one by this run, the others as before
  // (undated: the first run saw only the build's stamp, which is not when a page changed).
  const lastmods = await servedLastmods(out);
  for (let i = 1; i <= 8; i++) assert.equal(lastmods.get(url(`p0${i}.html`)), undefined);
  for (const page of ['p09.html', 'p11.html']) {
    const when = Date.parse(lastmods.get(url(page))!);
    assert.ok(when >= Math.floor(started.getTime() / 1000) * 1000 && when <= ended.getTime(), `${page}: ${when}`);
  }
  // The index dates each shard by the newest lastmod in it (the undated shards by none).
  const index = await readFile(join(out, 'sitemap.xml'), 'utf8');
  assert.deepEqual(
    [...index.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]),
    [lastmods.get(url('p11.html'))],
  );

  // --json carries the counts; a run with nothing new records a run with no change.
  const third = await generate('--max-urls', '4', '--json');
  assert.equal(third.code, 0, third.stderr);
  const { changes } = JSON.parse(third.stdout) as { changes: Record<string, unknown> };
  assert.deepEqual(
    { ...changes, ledger: undefined },
    {
      run: 3,
      firstRun: false,
      added: 0,
      changed: 0,
      removed: 0,
      ledger: undefined,
      examples: { added: [], changed: [], removed: [] },
    },
  );
});

test('the lastmod of untouched pages stays across a rebuild that rewrote every file; no sitemap file is written again', async () => {
  const { build, out, generate } = site();
  await build.build(tenPages(), FIRST_BUILD);
  assert.equal((await generate()).code, 0);
  const before = await servedLastmods(out);
  assert.deepEqual(new Set(before.values()), new Set([undefined]), 'a build stamp is no lastmod');
  await ageFiles(out);
  await build.build(tenPages(), SECOND_BUILD);
  const rebuilt = await generate();
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.match(rebuilt.stdout, /No URL added, changed or removed since the last run \(run 2, recorded in /);
  assert.deepEqual(await servedLastmods(out), before);
  assert.deepEqual(await writtenFiles(out), []);

  // Without --state the same rebuild is not dated by its new file times either (the build's stamp), and says why.
  const plain = join(scratch, `plain-${sites}`);
  const withoutState = await runCli(['generate', build.dir, '--base-url', BASE_URL, '--out', plain]);
  assert.equal(withoutState.code, 0);
  assert.match(
    withoutState.stderr,
    /note: lastmod is left out of 10 pages of .*: 10 of 10 files were written by one build/,
  );
  assert.deepEqual(new Set((await servedLastmods(plain)).values()), new Set([undefined]));
});

test("a site's first run in a git checkout dates pages by their last commit (none when modified or untracked: their file time is the build's); later runs keep those dates", async () => {
  const repository = await GitRepository.init(join(scratch, `repo-${++sites}`));
  const { build, out, generate } = site(repository.dir);
  const pages = tenPages();
  await build.build(pages, FIRST_BUILD);
  repository.commit(['dist/p01.html', 'dist/p02.html'], '2021-03-04T05:06:07+02:00');
  repository.commit(['dist/p03.html'], '2022-07-08T09:10:11Z');
  repository.commit(
    Object.keys(pages)
      .filter((page) => !['p01.html', 'p02.html', 'p03.html', 'p10.html'].includes(page))
      .map((page) => `dist/${page}`),
    '2023-01-02T03:04:05-05:00',
  );
  // p09 is edited after its commit; p10 was never committed.
  await writeFile(
    join(build.dir, 'p09.html'),
    (await readFile(join(build.dir, 'p09.html'), 'utf8')).replace('Text 9', 'Text nine'),
  );
  await utimes(join(build.dir, 'p09.html'), FIRST_BUILD, FIRST_BUILD);

  const first = await generate();
  assert.equal(first.code, 0, first.stderr);
  const expected = new Map<string, string | undefined>();
  for (let i = 1; i <= 10; i++) {
    const page = `p${String(i).padStart(2, '0')}.html`;
    expected.set(
      url(page),
      i <= 2
        ? '2021-03-04T05:06:07+02:00'
        : i === 3
          ? '2022-07-08T09:10:11+00:00'
          : i <= 8
            ? '2023-01-02T03:04:05-05:00'
            : undefined,
    );
  }
  assert.deepEqual(await servedLastmods(out), expected);

  // The next build rewrites every file (the checkout now differs from its commits): dates stay.
  pages['p09.html'] = '<h1>Page 9</h1><p>Text nine.</p>';
  await build.build(pages, SECOND_BUILD);
  const second = await generate();
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /No URL added, changed or removed/);
  assert.deepEqual(await servedLastmods(out), expected);

  // A shallow clone cannot tell when pages were committed: file times where they are not the
  // checkout's stamp, and a warning that says why.
  const clone = join(scratch, `clone-${sites}`);
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${repository.dir}`, clone]);
  const shallow = site(clone);
  await utimes(join(shallow.build.dir, 'p01.html'), SECOND_BUILD, SECOND_BUILD);
  const fromClone = await shallow.generate();
  assert.equal(fromClone.code, 0, fromClone.stderr);
  assert.match(
    fromClone.stderr,
    /warning: .*dist is in a shallow git clone, where the oldest commit present claims every file: git does not date its pages/,
  );
  assert.equal((await servedLastmods(shallow.out)).get(url('p01.html')), '2024-02-01T08:00:00Z');
});

test('a run killed after its sitemaps are published but before its ledger records them: the next run reports the same changes, and the set is whole', async () => {
  const { build, out, state, generate } = site();
  const pages = tenPages();
  await build.build(pages, FIRST_BUILD);
  assert.equal((await generate('--max-urls', '4')).code, 0);
  pages['p02.html'] = '<p>changed</p>';
  pages['p12.html'] = '<p>new</p>';
  await build.build(pages, SECOND_BUILD);
  const args = ['generate', build.dir, '--base-url', BASE_URL, '--out', out, '--state', state, '--max-urls', '4'];
  await kill9(await startPausedAt('committed', args));
  assert.deepEqual((await servedSet(out)).locs.length, 11, 'the new set is served whole');

  const next = await generate('--max-urls', '4', '--json');
  assert.equal(next.code, 0, next.stderr);
  const { changes } = JSON.parse(next.stdout) as {
    changes: { run: number; added: number; changed: number; removed: number };
  };
  assert.deepEqual([changes.run, changes.added, changes.changed, changes.removed], [2, 1, 1, 0]);
  assert.deepEqual((await servedSet(out)).locs.length, 11);
});

test('--state: explained in --help; refused inside --out and with --keep-duplicates', async () => {
  const help = await runCli(['generate', '--help']);
  assert.match(help.stdout, /\n {2}--state DIR {12}regenerate incrementally with the ledger in DIR\/generate\.sqlite/);
  assert.match(help.stdout, /With --state DIR, runs are incremental\./);
  const { build, out } = site();
  await build.build(tenPages(), FIRST_BUILD);
  const inside = await runCli([
    'generate',
    build.dir,
    '--base-url',
    BASE_URL,
    '--out',
    out,
    '--state',
    join(out, 'state'),
  ]);
  assert.equal(inside.code, 2);
  assert.match(
    inside.stderr,
    /--state .*public\/state is inside --out .*public: the ledger must not be published with the site\. Keep it elsewhere with --state \(e\.g\. --state .*\.sitemapkit\), or publish into a directory of its own \(e\.g\. --out public\)\n/,
  );
  const both = await runCli([
    'generate',
    build.dir,
    '--base-url',
    BASE_URL,
    '--out',
    out,
    '--state',
    join(scratch, 'elsewhere'),
    '--keep-duplicates',
  ]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--keep-duplicates cannot be used with --state/);
});
