/**
 * `generate --state DIR` then `submit --from-state DIR` after every build, as the issue's site
 * owner runs them: only the pages the build really changed reach IndexNow.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BuildDirectory, type Pages } from '../helpers/build-site.js';
import { runCli } from '../helpers/cli.js';
import { startIndexNowServer, type IndexNowServer } from '../helpers/indexnow-server.js';
import { startSite, type Site } from '../helpers/site-server.js';

const KEY = 'b0c1d2e3f40516273f2a9c1b7d4e4f6a';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-from-state-'));
after(() => rm(scratch, { recursive: true, force: true }));

let site: Site;
let indexnow: IndexNowServer;
before(async () => {
  site = await startSite({ [`/${KEY}.txt`]: { headers: { 'content-type': 'text/plain' }, body: KEY } });
  indexnow = await startIndexNowServer();
});
after(async () => {
  await Promise.all([site.close(), indexnow.close()]);
});

function pages(): Pages {
  const all: Pages = {};
  for (let i = 1; i <= 6; i++) all[`p${i}.html`] = `<h1>Page ${i}</h1><p>Text ${i}.</p>`;
  return all;
}

test('after each build: generate --state, then submit --from-state sends exactly what the build changed', async () => {
  const build = new BuildDirectory(join(scratch, 'dist'));
  const state = join(scratch, 'state');
  const base = `${site.origin}/`;
  const generate = () =>
    runCli(['generate', build.dir, '--base-url', base, '--out', join(scratch, 'public'), '--state', state]);
  const submit = (...extra: string[]) =>
    runCli(['submit', '--from-state', state, '--key', KEY, '--endpoint', indexnow.endpoint, ...extra]);

  const site1 = pages();
  await build.build(site1, new Date('2024-01-01T08:00:00Z'));
  assert.equal((await generate()).code, 0);
  const first = await submit();
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /first run: 6 URLs recorded as they are now, none sent/);
  assert.equal(indexnow.received.length, 0);

  // The next build rewrites every page; one changed, one new, one gone.
  site1['p2.html'] = '<h1>Page 2</h1><p>Text 2, revised.</p>';
  site1['p7.html'] = '<h1>Page 7</h1>';
  delete site1['p5.html'];
  await build.build(site1, new Date('2024-02-01T08:00:00Z'));
  assert.equal((await generate()).code, 0);
  const second = await submit('--json');
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(
    indexnow.received.map((request) => [request.host, [...request.urlList].sort(), request.status]),
    [[site.origin.replace('http://', ''), [`${base}p2.html`, `${base}p5.html`, `${base}p7.html`], 200]],
  );
  const report = JSON.parse(second.stdout) as { removed: number; hosts: { due: number; accepted: number }[] };
  assert.deepEqual([report.removed, report.hosts[0]!.due, report.hosts[0]!.accepted], [1, 3, 3]);

  // A build that changes nothing, and a submit run without a generate run: nothing is sent.
  await build.build(site1, new Date('2024-03-01T08:00:00Z'));
  assert.equal((await generate()).code, 0);
  const third = await submit();
  assert.equal(third.code, 0, third.stderr);
  assert.match(third.stdout, /Nothing new, changed or removed to submit since the last run/);
  assert.equal((await submit()).code, 0);
  assert.equal(indexnow.received.length, 1);

  // --ping names each site's sitemap.
  site1['p3.html'] = '<h1>Page 3</h1><p>Now longer.</p>';
  await build.build(site1, new Date('2024-04-01T08:00:00Z'));
  assert.equal((await generate()).code, 0);
  const pinged = await submit('--dry-run', '--ping', 'http://127.0.0.1:9/ping?sitemap={sitemap}');
  assert.equal(pinged.code, 0, pinged.stderr);
  assert.match(
    pinged.stdout,
    new RegExp(
      `ping http://127\\.0\\.0\\.1:9/ping\\?sitemap=${encodeURIComponent(`${base}sitemap.xml`)}: not sent: --dry-run`,
    ),
  );
  assert.match(pinged.stdout, new RegExp(`would send  ${base}p3\\.html\\n`));
});

test('--from-state without a generate ledger says what to run first', async () => {
  const result = await runCli(['submit', '--from-state', join(scratch, 'none'), '--key', KEY]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /no generate ledger at .*none\/generate\.sqlite .*: run "sitemapkit generate … --state .*none" first/,
  );
});

test('a first run counts as recorded only the URLs its own source gave, not rows another source left', async () => {
  const { SubmissionLedger } = await import('../../src/store/submission-ledger.js');
  const ledger = new SubmissionLedger(join(scratch, 'baseline', 'submit.sqlite'));
  try {
    // A run that read another source and stopped before it recorded anything (Ctrl-C).
    const stopped = ledger.beginRun(new Date(), 'other.xml', 'https://api.indexnow.org/indexnow', false);
    for (const path of ['/x', '/y', '/z'])
      ledger.observe(stopped, 'www.example.com', `https://www.example.com${path}`, 'd1');
    ledger.endObserving();
    const run = ledger.beginRun(new Date(), '--from-state state', 'https://api.indexnow.org/indexnow', false);
    for (const path of ['/a', '/b']) ledger.observe(run, 'www.example.com', `https://www.example.com${path}`, 'd2');
    ledger.endObserving();
    assert.equal(ledger.recordBaseline('www.example.com', new Date(), run), 2);
    assert.deepEqual(ledger.hostsDue(run, false), [], 'the stopped run’s rows are history too: nothing is due');
  } finally {
    ledger.close();
  }
});
