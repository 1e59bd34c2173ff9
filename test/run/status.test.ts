/** `sitemapkit run status` where there is nothing to show: it says so, and makes no store. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { RunStore } from '../../src/store/run-store.js';
import { runCli } from '../helpers/cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-run-status-'));
after(() => rm(scratch, { recursive: true, force: true }));

test('run status without any run says so (with --json too), exit 0, and creates no file', async () => {
  const cwd = await mkdtemp(join(scratch, 'empty-'));
  const env = { SITEMAPKIT_STORE: '' };
  for (const extra of [[], ['--json']]) {
    const result = await runCli(['run', 'status', ...extra], { cwd, env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /no runs in .*\.sitemapkit[/\\]runs\.sqlite: a run is made by crawl, audit or tree --sites with --run NAME/,
    );
  }
  const named = await runCli(['run', 'status', 'nightly'], { cwd, env });
  assert.equal(named.code, 1);
  assert.match(named.stderr, /no run "nightly": there is no store at /);
  assert.deepEqual(await readdir(cwd), [], 'nothing was created');
});

test('run status of a store that exists and holds no run says so too', async () => {
  const location = join(scratch, 'runs.sqlite');
  await (await RunStore.open(location)).close();
  const result = await runCli(['run', 'status', '--store', location, '--json']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, new RegExp(`no runs in ${location.replaceAll('\\', '\\\\')}`));
  assert.ok(existsSync(location));
});
