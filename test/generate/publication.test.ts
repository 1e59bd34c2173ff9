/**
 * Publication under the worst conditions: a run killed (kill -9) at each step of its commit, a
 * second run while one is going on, and the leftovers of dead runs. What a web server would serve
 * from the output directory must always be exactly one complete set: the old one or the new one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, test } from 'node:test';
import { GenerateError, writeSitemaps } from '../../src/generate/index.js';
import { kill9, runCli, startPausedAt } from '../helpers/cli.js';
import { BASE_URL, plainEntries } from './entries.js';
import { servedSet } from './served-set.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-publication-'));
after(() => rm(scratch, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (): string => join(scratch, `out-${++dirs}`);

const LOCK = '.sitemap-lock';
const MANIFEST = '.sitemap-manifest.json';

/** The URLs of a list file of `count` pages under `prefix`, and the file. */
async function urlList(prefix: string, count: number): Promise<{ path: string; locs: string[] }> {
  const locs = [...plainEntries(count, prefix)].map((entry) => entry.loc);
  const path = join(scratch, `${prefix}-${count}.txt`);
  await writeFile(path, `${locs.join('\n')}\n`);
  return { path, locs };
}

const generateArgs = (list: string, out: string): string[] => [
  'generate',
  list,
  '--base-url',
  BASE_URL,
  '--out',
  out,
  '--max-urls',
  '1000',
  '--gzip',
];

/** The id of a process that has ended. */
function deadPid(): number {
  const { pid, status } = spawnSync(process.execPath, ['-e', '']);
  assert.equal(status, 0);
  return pid;
}

describe('a run killed with kill -9 at each step of its commit', () => {
  // Before the entry point's rename the old set is served, from it on the new one; never a mix.
  const steps = [
    ['shard-moved', 'old'],
    ['before-commit', 'old'],
    ['committed', 'new'],
    ['old-file-removed', 'new'],
  ] as const;
  for (const [step, served] of steps) {
    it(`at ${step}: the ${served} set is served whole; the next run clears up after it and says so`, async () => {
      const out = freshDir();
      const old = await urlList('old', 5000);
      const next = await urlList('new', 4000);
      const last = await urlList('last', 1500);
      assert.equal((await runCli(generateArgs(old.path, out))).code, 0);
      await writeFile(join(out, 'sitemap-7.xml'), "the site's own sitemap");
      await writeFile(join(out, 'robots.txt'), `Sitemap: ${BASE_URL}sitemap.xml\n`);

      const killed = await startPausedAt(step, generateArgs(next.path, out));
      await kill9(killed);
      const afterKill = await servedSet(out);
      assert.deepEqual(afterKill.locs, served === 'old' ? old.locs : next.locs);
      const left = await readdir(out);
      assert.ok(left.includes(LOCK), 'the dead run still holds its lock');
      const temporary = left.filter((name) => name.startsWith('.sitemap-tmp-'));
      assert.equal(temporary.length, 1);

      const recovery = await runCli(generateArgs(last.path, out));
      assert.equal(recovery.code, 0, recovery.stderr);
      assert.match(
        recovery.stdout,
        new RegExp(
          `^An earlier run \\(process ${killed.pid}, started [^)]+\\) was interrupted before it finished\\.\\nRemoved the temporary files of interrupted runs: ${temporary[0]}\\n`,
        ),
      );
      const final = await servedSet(out);
      assert.deepEqual(final.locs, last.locs);
      assert.deepEqual(
        (await readdir(out)).sort(),
        [MANIFEST, 'robots.txt', 'sitemap-7.xml', ...final.shards, 'sitemap.xml'].sort(),
        'every file of the killed run and of the run before it is gone; the site’s own files stay',
      );
      assert.equal(await readFile(join(out, 'sitemap-7.xml'), 'utf8'), "the site's own sitemap");
    });
  }
});

test('a second run while one is publishing is refused, naming the first; the first then completes', async () => {
  const out = freshDir();
  const first = await urlList('first', 2500);
  const second = await urlList('second', 10);
  const running = await startPausedAt('before-commit', generateArgs(first.path, out));
  try {
    const refused = await runCli(generateArgs(second.path, out));
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `another sitemapkit run \\(process ${running.pid} on this machine, started [^)]+\\) is writing into ${out}; wait for it to finish, or, if no such run is going on, delete ${join(out, LOCK)} and run again\\nNothing was written`,
      ),
    );
    assert.equal((await readdir(out)).filter((name) => name.startsWith('.sitemap-tmp-')).length, 1);
  } finally {
    await kill9(running);
  }
});

test('a lock held on another machine is refused too (its process cannot be checked from here)', async () => {
  const outDir = freshDir();
  await mkdir(outDir);
  const lock = { pid: 4242, host: 'build-server-2', started: '2024-05-01T10:00:00.000Z' };
  await writeFile(join(outDir, LOCK), JSON.stringify(lock));
  await assert.rejects(writeSitemaps(plainEntries(3), { outDir, baseUrl: BASE_URL }), (error: unknown) => {
    assert.ok(error instanceof GenerateError);
    assert.match(
      error.message,
      /another sitemapkit run \(process 4242 on build-server-2, started 2024-05-01T10:00:00\.000Z\)/,
    );
    return true;
  });
  assert.deepEqual(await readdir(outDir), [LOCK], 'nothing written, the lock left alone');
  await writeFile(join(outDir, LOCK), '');
  await assert.rejects(
    writeSitemaps(plainEntries(3), { outDir, baseUrl: BASE_URL }),
    /\.sitemap-lock exists but does not say which run holds it; if no sitemapkit run is writing into .*, delete it and run again/,
  );
});

test('a dead run’s lock is taken over and every temporary folder it left is removed (also those of older versions, which took no lock)', async () => {
  const outDir = freshDir();
  await mkdir(join(outDir, '.sitemap-tmp-a1b2c3'), { recursive: true });
  await writeFile(join(outDir, '.sitemap-tmp-a1b2c3', 'shard-0'), Buffer.alloc(1 << 20));
  await mkdir(join(outDir, '.sitemap-tmp-old'));
  await mkdir(join(outDir, '.news-tmp-x1')); // another base name's: not this run's business
  const pid = deadPid();
  const holder = { pid, host: hostname(), started: '2024-05-01T10:00:00.000Z' };
  await writeFile(join(outDir, LOCK), JSON.stringify(holder));
  const summary = await writeSitemaps(plainEntries(3), { outDir, baseUrl: BASE_URL });
  assert.deepEqual(summary.leftovers, ['.sitemap-tmp-a1b2c3', '.sitemap-tmp-old']);
  assert.deepEqual(summary.interrupted, holder);
  assert.deepEqual((await readdir(outDir)).sort(), ['.news-tmp-x1', MANIFEST, 'sitemap.xml']);
  const clean = await writeSitemaps(plainEntries(3), { outDir, baseUrl: BASE_URL });
  assert.deepEqual([clean.leftovers, clean.interrupted], [[], undefined]);
});

test('a folder of the user’s named like a temporary folder is left alone; a run’s own folders are marked', async () => {
  const outDir = freshDir();
  const mine = join(outDir, '.sitemap-tmp-notes');
  await mkdir(mine, { recursive: true });
  await writeFile(join(mine, 'todo.md'), '# my notes\n');
  await mkdir(join(mine, 'shard-0'));
  const summary = await writeSitemaps(plainEntries(3), { outDir, baseUrl: BASE_URL });
  assert.deepEqual(summary.leftovers, []);
  assert.deepEqual((await readdir(mine)).sort(), ['shard-0', 'todo.md']);
});

test('a sitemap.xml that sitemapkit did not write is refused, named, and left as it is; --overwrite replaces it', async () => {
  const outDir = freshDir();
  await mkdir(outDir, { recursive: true });
  const handWritten = `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${BASE_URL}mine</loc></url></urlset>\n`;
  await writeFile(join(outDir, 'sitemap.xml'), handWritten);
  await assert.rejects(
    writeSitemaps(plainEntries(3), { outDir, baseUrl: BASE_URL }),
    (error: Error) =>
      error instanceof GenerateError &&
      error.message.includes(`${join(outDir, 'sitemap.xml')} was not written by sitemapkit`) &&
      error.message.includes('--overwrite'),
  );
  assert.equal(await readFile(join(outDir, 'sitemap.xml'), 'utf8'), handWritten);
  assert.deepEqual((await readdir(outDir)).sort(), ['sitemap.xml'], 'no lock, no temporary folder left');

  const { list } = { list: (await urlList('overwrite', 3)).path };
  const refused = await runCli(['generate', list, '--base-url', BASE_URL, '--out', outDir]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /sitemap\.xml was not written by sitemapkit .*--overwrite/);
  assert.equal(await readFile(join(outDir, 'sitemap.xml'), 'utf8'), handWritten);

  const replaced = await runCli(['generate', list, '--base-url', BASE_URL, '--out', outDir, '--overwrite']);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.notEqual(await readFile(join(outDir, 'sitemap.xml'), 'utf8'), handWritten);
  // Now the run's own: the next run replaces it without being asked.
  const again = await runCli(['generate', list, '--base-url', BASE_URL, '--out', outDir]);
  assert.equal(again.code, 0, again.stderr);
});

test('--out naming a file is said to be one, not a raw EEXIST', async () => {
  const file = join(scratch, 'not-a-dir.xml');
  await writeFile(file, 'x');
  const { path } = await urlList('file-out', 2);
  const result = await runCli(['generate', path, '--base-url', BASE_URL, '--out', file]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /not-a-dir\.xml is a file, not a directory: the sitemaps are written into a directory/);
  assert.doesNotMatch(result.stderr, /EEXIST/);
});
