/**
 * `sitemapkit submit` against a local IndexNow endpoint that implements the protocol (it fetches
 * the key file from the fixture site, checks hosts and batch size, answers what the test asks),
 * as a site owner runs it: the first run records, later runs send only what changed, batches of
 * 10,000 exactly, retries, no resend inside the window, the ledger across runs and across a
 * SIGKILL in the middle of a submission.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { CLI_PATH, kill9, runCli } from '../helpers/cli.js';
import { startIndexNowServer, type IndexNowServer } from '../helpers/indexnow-server.js';
import { startSite, urlset, type Site } from '../helpers/site-server.js';

const KEY = '3f2a9c1b7d4e4f6a8b0c1d2e3f405162';
const PING_PATH = `/sitemap-ping?sitemap=${encodeURIComponent('https://www.example.com/sitemap.xml')}`;

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-submit-'));
after(() => rm(scratch, { recursive: true, force: true }));

let site: Site;
let other: Site;
let indexnow: IndexNowServer;
before(async () => {
  const keyFile = { headers: { 'content-type': 'text/plain' }, body: `${KEY}\n` };
  site = await startSite({
    [`/${KEY}.txt`]: keyFile,
    '/keys/indexnow.txt': keyFile,
    [PING_PATH]: { body: 'thanks' },
  });
  other = await startSite({ [`/${KEY}.txt`]: { status: 301, headers: { location: '/elsewhere.txt' } } });
  indexnow = await startIndexNowServer();
});
after(async () => {
  await Promise.all([site.close(), other.close(), indexnow.close()]);
});

let runs = 0;
/** A fresh state directory and a sitemap file for one test. */
async function fixture() {
  const dir = await mkdtemp(join(scratch, `case-${++runs}-`));
  const sitemap = join(dir, 'sitemap.xml');
  const state = join(dir, 'state');
  const write = (paths: (string | { loc: string; lastmod?: string })[], origin = site.origin) =>
    writeFile(
      sitemap,
      urlset(paths.map((p) => (typeof p === 'string' ? `${origin}${p}` : { ...p, loc: `${origin}${p.loc}` }))),
    );
  const submit = (...extra: string[]) =>
    runCli(['submit', sitemap, '--key', KEY, '--endpoint', indexnow.endpoint, '--state', state, ...extra]);
  return { dir, sitemap, state, write, submit };
}

/** Requests received since `from`, as [host, URL paths]. */
function receivedSince(from: number, origin = site.origin): { paths: string[]; status: number | undefined }[] {
  return indexnow.received.slice(from).map((r) => ({
    paths: r.urlList.map((url) => url.replace(origin, '')),
    status: r.status,
  }));
}

function ledgerRows(state: string, sql: string): unknown[] {
  const db = new Database(join(state, 'submit.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

/** Moves every acceptance and request of the ledger back `minutes`, as if the run had been that long ago. */
function age(state: string, minutes: number): void {
  const db = new Database(join(state, 'submit.sqlite'));
  const shift = `-${minutes} minutes`;
  db.prepare(
    `UPDATE submit_urls SET submitted_at = strftime('%Y-%m-%dT%H:%M:%fZ', submitted_at, ?) WHERE submitted_at IS NOT NULL`,
  ).run(shift);
  db.prepare(`UPDATE submit_requests SET sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', sent_at, ?)`).run(shift);
  db.close();
}

test('the first run records without sending; then only what was added, changed or removed is sent, once', async () => {
  const { write, submit, state } = await fixture();
  await write([{ loc: '/a', lastmod: '2024-01-01' }, '/b', '/c']);
  const from = indexnow.received.length;
  const first = await submit();
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stdout,
    new RegExp(`${site.origin.replace('http://', '')}: first run: 3 URLs recorded as they are now, none sent`),
  );
  assert.equal(indexnow.received.length, from, 'nothing was sent');

  await write([{ loc: '/a', lastmod: '2024-02-01' }, '/b', '/d']);
  const second = await submit('--json');
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(receivedSince(from), [{ paths: ['/a', '/c', '/d'], status: 200 }]);
  const report = JSON.parse(second.stdout) as {
    hosts: { host: string; due: number; sent: number; accepted: number; rejected: number; requests: unknown[] }[];
    ledger: string;
  };
  assert.deepEqual(
    report.hosts.map(({ host, due, sent, accepted, rejected }) => ({ host, due, sent, accepted, rejected })),
    [{ host: site.origin.replace('http://', ''), due: 3, sent: 3, accepted: 3, rejected: 0 }],
  );
  assert.equal(report.ledger, join(state, 'submit.sqlite'));

  // Nothing changed: nothing is sent.
  const third = await submit();
  assert.equal(third.code, 0, third.stderr);
  assert.match(third.stdout, /Nothing new, changed or removed to submit since the last run\./);
  assert.equal(indexnow.received.length, from + 1);

  // /a changes again within ten minutes of its acceptance: it waits; ten minutes later it goes.
  await write([{ loc: '/a', lastmod: '2024-03-01' }, '/b', '/d']);
  const soon = await submit();
  assert.equal(soon.code, 0, soon.stderr);
  assert.match(soon.stdout, /1 URL submitted less than 10 minutes ago waits for a later run/);
  assert.equal(indexnow.received.length, from + 1);
  age(state, 11);
  const later = await submit();
  assert.equal(later.code, 0, later.stderr);
  assert.deepEqual(receivedSince(from + 1), [{ paths: ['/a'], status: 200 }]);
  assert.deepEqual(
    ledgerRows(state, 'SELECT loc, seen_digest = digest AS settled FROM submit_urls ORDER BY loc').map((row) => {
      const { loc, settled } = row as { loc: string; settled: number };
      return [loc.replace(site.origin, ''), settled];
    }),
    [
      ['/a', 1],
      ['/b', 1],
      ['/c', 1],
      ['/d', 1],
    ],
  );
});

test('batches of 10,000 URLs exactly, one host per request; --all sends a first run', async () => {
  const { write, submit } = await fixture();
  await write(Array.from({ length: 25_001 }, (_, i) => `/p/${i}`));
  const from = indexnow.received.length;
  const result = await submit('--all');
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    indexnow.received.slice(from).map((r) => [r.host, r.urlList.length, r.status]),
    [
      [site.origin.replace('http://', ''), 10_000, 200],
      [site.origin.replace('http://', ''), 10_000, 200],
      [site.origin.replace('http://', ''), 5_001, 200],
    ],
  );
  assert.equal(new Set(indexnow.received.slice(from).flatMap((r) => r.urlList)).size, 25_001);
  assert.match(result.stdout, /25,001 URLs accepted \(3 requests: HTTP 200 OK: accepted\)/);
});

test('429 and 503 are retried, honouring Retry-After; 400, 403 and 422 are explained and never retried', async () => {
  const { write, submit, state } = await fixture();
  await write(['/x']);
  await submit();
  await write(['/x', '/y']);
  indexnow.answerNext({ status: 503, retryAfter: 1 }, { status: 429, retryAfter: 1 }, { status: 202 });
  let from = indexnow.received.length;
  const retried = await submit();
  assert.equal(retried.code, 0, retried.stderr);
  assert.deepEqual(
    receivedSince(from).map((r) => r.status),
    [503, 429, 202],
  );
  assert.match(retried.stderr, /waiting 1\.0 s to retry .*indexnow \(attempt 2 of 4\): HTTP 503 \(Retry-After: 1 s\)/);
  assert.match(
    retried.stdout,
    /1 URL accepted \(1 request: HTTP 202 Accepted: accepted; the engine is still checking the key file after 3 attempts\)/,
  );

  const refusedPaths: string[] = [];
  for (const [status, meaning] of [
    [400, /HTTP 400 Bad Request: the engine found the request malformed; not retried/],
    [
      403,
      new RegExp(
        `HTTP 403 Forbidden: the key is not valid: the engine could not find the key file at ${site.origin}/${KEY}\\.txt`,
      ),
    ],
    [422, /HTTP 422 Unprocessable Entity: URLs not on 127\.0\.0\.1:\d+, or the key does not match/],
  ] as const) {
    age(state, 11);
    refusedPaths.push(`/z${status}`);
    await write(['/x', '/y', ...refusedPaths]);
    indexnow.answerNext({ status, body: `{"code":"${status}","message":"${'detail '.repeat(400)}"}` });
    from = indexnow.received.length;
    const refused = await submit();
    assert.equal(refused.code, 1);
    assert.equal(indexnow.received.length, from + 1, `${status} is not retried`);
    assert.match(refused.stdout, meaning);
    const shown = /warning IN-005 .*: \d URLs? not accepted: .*; the answer: (.*) \(http:.*\/indexnow\)\n/.exec(
      refused.stderr,
    )![1]!;
    assert.ok(
      shown.startsWith(`{"code":"${status}"`) && shown.length <= 2048,
      `the first 2 KB of the body: ${shown.length}`,
    );
  }
  // Refused URLs stay due: with a good answer they are sent at last.
  from = indexnow.received.length;
  assert.equal((await submit()).code, 0);
  assert.deepEqual(receivedSince(from), [{ paths: ['/z400', '/z403', '/z422'], status: 200 }]);

  // A 429 still there past --max-wait: the run fails, the URL stays due.
  await write(['/x', '/y', '/z400', '/z403', '/z422', '/later']);
  indexnow.answerNext({ status: 429, retryAfter: 120 });
  const throttled = await submit('--max-wait', '5');
  assert.equal(throttled.code, 1);
  assert.match(
    throttled.stdout,
    /HTTP 429 Too Many Requests: the engine asks to slow down .*not retried: the server asked to wait 120 s/,
  );
  assert.ok(
    ledgerRows(state, "SELECT 1 FROM submit_urls WHERE loc LIKE '%/later' AND digest IS NULL").length === 1,
    'the URL is not marked submitted',
  );
});

test("the key file is checked on the URLs' own origin before anything is sent; a key location covers its folder only", async () => {
  const { write, submit, sitemap } = await fixture();
  // other's key file redirects: engines do not follow, so nothing is sent for it.
  await writeFile(sitemap, urlset([`${other.origin}/a`]));
  await submit();
  await writeFile(sitemap, urlset([`${other.origin}/a`, `${other.origin}/b`]));
  const from = indexnow.received.length;
  const redirected = await submit();
  assert.equal(redirected.code, 1);
  assert.match(
    redirected.stderr,
    new RegExp(`error IN-002 the key file ${other.origin}/${KEY}\\.txt redirects to ${other.origin}/elsewhere\\.txt`),
  );
  assert.equal(indexnow.received.length, from);

  // A key file in /keys/ covers /keys/… only: the rest is not sent (IN-003).
  await write(['/keys/a', '/b']);
  await submit('--key-location', site.url('/keys/indexnow.txt'));
  await write(['/keys/a', '/keys/new', '/b', '/c']);
  const folder = await submit('--key-location', site.url('/keys/indexnow.txt'));
  assert.equal(folder.code, 1);
  assert.match(folder.stderr, /error IN-003 1 due URL is outside the folder of the key file .*\/keys\/indexnow\.txt/);
  const [request] = indexnow.received.slice(from);
  assert.deepEqual(
    [request!.urlList, request!.keyLocation, request!.status],
    [[site.url('/keys/new')], site.url('/keys/indexnow.txt'), 200],
  );
});

test('--dry-run checks and prints what would be sent, sends nothing and leaves the ledger as it was; --ping after changes', async () => {
  const { write, submit, state } = await fixture();
  await write(['/a']);
  await submit();
  await write(['/a', '/b']);
  const from = indexnow.received.length;
  const dry = await submit('--dry-run');
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, new RegExp(`^would send  ${site.origin}/b\\n`));
  assert.match(dry.stdout, /1 URL would be sent in 1 request\n.*Dry run: nothing was sent/s);
  assert.equal(indexnow.received.length, from);
  assert.deepEqual(ledgerRows(state, 'SELECT loc FROM submit_urls'), [{ loc: site.url('/a') }]);
  assert.deepEqual(ledgerRows(state, 'SELECT count(*) AS runs FROM submit_runs'), [{ runs: 1 }]);

  const pings = site.hits.get(PING_PATH) ?? 0;
  const sent = await submit(
    '--ping',
    `${site.origin}/sitemap-ping?sitemap={sitemap}`,
    '--sitemap-url',
    'https://www.example.com/sitemap.xml',
  );
  assert.equal(sent.code, 0, sent.stderr);
  assert.deepEqual(receivedSince(from), [{ paths: ['/b'], status: 200 }]);
  assert.equal(site.hits.get(PING_PATH), pings + 1);
  assert.match(sent.stdout, /ping .*\/sitemap-ping\?sitemap=https%3A%2F%2Fwww\.example\.com%2Fsitemap\.xml: HTTP 200/);
});

test('killed by SIGKILL while a batch waits for its answer: what was accepted stays recorded, the rest goes later, never twice within 10 minutes', async () => {
  const { write, submit, state, sitemap } = await fixture();
  await write(Array.from({ length: 15_000 }, (_, i) => `/k/${i}`));
  const from = indexnow.received.length;
  indexnow.answerNext({ status: 200 }, { hang: true });
  const child = spawn(
    process.execPath,
    [CLI_PATH, 'submit', sitemap, '--key', KEY, '--endpoint', indexnow.endpoint, '--state', state, '--all'],
    {
      stdio: 'ignore',
    },
  );
  await indexnow.receivedCount(from + 2);
  await kill9(child);
  const requests = ledgerRows(state, 'SELECT count, status, outcome FROM submit_requests ORDER BY request');
  assert.deepEqual(requests, [
    { count: 10_000, status: 200, outcome: 'HTTP 200 OK: accepted' },
    { count: 5_000, status: null, outcome: null },
  ]);
  assert.deepEqual(ledgerRows(state, 'SELECT count(*) AS n FROM submit_urls WHERE submitted_at IS NOT NULL'), [
    { n: 10_000 },
  ]);

  // At once: the unanswered batch may have reached the engine: it waits out the window.
  const soon = await submit();
  assert.equal(soon.code, 0, soon.stderr);
  assert.match(soon.stdout, /5,000 URLs submitted less than 10 minutes ago wait for a later run/);
  assert.equal(indexnow.received.length, from + 2);
  age(state, 11);
  const later = await submit();
  assert.equal(later.code, 0, later.stderr);
  const [resent] = indexnow.received.slice(from + 2);
  assert.deepEqual([resent!.urlList.length, resent!.status, indexnow.received.length], [5_000, 200, from + 3]);
  assert.deepEqual(new Set(resent!.urlList), new Set(indexnow.received[from + 1]!.urlList));
});

test('--new-key writes a 32-hex key file; bad usage is refused', async () => {
  const out = join(scratch, 'keys');
  const made = await runCli(['submit', '--new-key', '--out', out]);
  assert.equal(made.code, 0, made.stderr);
  const key = made.stdout.split('\n')[0]!;
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.deepEqual(await readdir(out), [`${key}.txt`]);
  assert.equal(await readFile(join(out, `${key}.txt`), 'utf8'), key);
  const usage = async (args: string[], message: RegExp) => {
    const result = await runCli(['submit', ...args]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
  };
  await usage(['x.xml'], /--key KEY is required/);
  await usage(['x.xml', '--key', 'short'], /--key must be 8 to 128 letters, digits and dashes \(IN-001\)/);
  await usage(['--key', KEY], /give a SOURCE .* or --from-state DIR/);
  await usage([join(scratch, 'x.xml'), '--key', KEY, '--ping', 'https://engine.example/ping'], /must hold \{sitemap\}/);
  await usage(['--new-key'], /give --out/);
});

test('a URL list line without loc, or a relative URL without --base-url, is an error with file and line; exit 1', async () => {
  const { dir, state } = await fixture();
  const list = join(dir, 'pages.jsonl');
  await writeFile(list, `{"loc":"${site.origin}/a"}\n{"lastmod":"2024-05-01"}\n{"loc":"/b"}\n`);
  const submitList = (...extra: string[]) =>
    runCli(['submit', list, '--key', KEY, '--endpoint', indexnow.endpoint, '--state', state, ...extra]);
  const first = await submitList();
  assert.equal(first.code, 1, first.stderr);
  assert.match(first.stderr, new RegExp(`pages\\.jsonl:2:1: error INPUT-001 the entry has no "loc"`));
  assert.match(first.stderr, /pages\.jsonl:3:1: error URL-001 "\/b" is not an absolute http\(s\) URL: give --base-url/);
  assert.doesNotMatch(first.stderr, /"undefined"/);
  assert.match(first.stdout, /The source was not read whole/);

  await writeFile(list, `{"loc":"${site.origin}/a"}\n{"loc":"/b"}\n`);
  const resolved = await submitList('--base-url', `${site.origin}/`, '--dry-run', '--json');
  assert.equal(resolved.code, 0, resolved.stderr);
  const report = JSON.parse(resolved.stdout) as { hosts: { host: string; seen?: number }[] };
  assert.deepEqual(
    report.hosts.map((host) => host.host),
    [site.origin.replace('http://', '')],
  );
});
