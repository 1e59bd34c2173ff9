/**
 * An audit on workers sharing a run store, on each driver (a SQLite file, a PostgreSQL database),
 * of the sitemaps of a site of four hosts (each its own host:port, answering after a little
 * latency, with URLs that make findings): three workers write exactly the rows an audit of one
 * process writes, keep each host's concurrency across all of them (measured at the servers), and
 * lose nothing when one of them is killed with kill -9 halfway; `run finish` writes the outputs
 * again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI_PATH, kill9, runCli } from '../helpers/cli.js';
import { queueDrivers, type QueueDriver } from '../helpers/postgres.js';
import { startFarm, type Farm } from '../helpers/site-farm.js';

const HOSTS = 4;
const PAGES = 40;
const farm: Farm = await startFarm({ hosts: HOSTS, pagesPerHost: PAGES, latencyMs: 15, softNotFound: true });
const work = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-workers-'));
after(async () => {
  await farm.close();
  rmSync(work, { recursive: true, force: true });
});

/** The audit's flags, the same for every audit here: a fixed clock, two requests per host. */
const AUDIT = [
  'audit',
  ...farm.sitemaps(),
  '--now',
  '2026-01-01T00:00:00Z',
  '--concurrency',
  '2',
  '--fail-on',
  'never',
];

/** Listed pages a host answered more than once. */
function pagesFetchedTwice(): string[] {
  return farm.hosts.flatMap((host) =>
    [...host.hits].filter(([path, n]) => n > 1 && path.startsWith('/p/')).map(([path]) => `${host.origin}${path}`),
  );
}

/** The most requests each host saw at once, per audit on workers (checked in a test of its own). */
const inFlightSeen: string[] = [];

function notePoliteness(run: string): void {
  for (const host of farm.hosts)
    if (host.maxInFlight > 2) inFlightSeen.push(`${run}: ${host.origin} saw ${host.maxInFlight} requests at once`);
}

const referenceRows = join(work, 'reference.jsonl');
const reference = await runCli([...AUDIT, '--rows', referenceRows, '--state', join(work, 'state'), '--json']);
const expected = readFileSync(referenceRows, 'utf8');

describe('an audit of one process', () => {
  test('the audit of one process is the reference, with findings of every kind the farm makes', () => {
    assert.equal(reference.code, 0, reference.stderr);
    const rows = expected.trim().split('\n');
    assert.equal(rows.length, (JSON.parse(reference.stdout) as { urls: { checked: number } }).urls.checked);
    const findings = new Set(rows.flatMap((line) => (JSON.parse(line) as { findings: string[] }).findings));
    for (const finding of ['http-4xx', 'redirect', 'noindex', 'canonical-elsewhere', 'robots-blocked', 'soft-404'])
      assert.ok(findings.has(finding), `the farm makes ${finding}`);
    assert.ok(findings.has('duplicate-listing'));
  });
});

/** The suite of an audit on workers, run over each driver of the run store. */
function auditOnWorkers(driver: QueueDriver): void {
  test('three workers write exactly the rows of one process, two requests at most in flight per host', async () => {
    const store = await driver.location();
    farm.reset();
    const rows = join(work, `${driver.name}-three.jsonl`);
    const html = join(work, `${driver.name}-three.html`);
    const result = await runCli(
      [...AUDIT, '--rows', rows, '--html', html, '--run', 'three', '--workers', '3', '--json', '--quiet'],
      { env: { SITEMAPKIT_STORE: store } },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(rows, 'utf8'), expected);
    assert.deepEqual(JSON.parse(result.stdout), JSON.parse(reference.stdout), 'the same report');
    assert.match(readFileSync(html, 'utf8'), /<html/);
    assert.deepEqual(pagesFetchedTwice(), [], 'no listed page fetched twice');
    notePoliteness(`${driver.name}, three workers`);
    assert.ok(
      farm.hosts.some((host) => host.maxInFlight === 2),
      'the limit is reached: the workers work side by side',
    );
    const status = await runCli(['run', 'status', 'three', '--json'], { env: { SITEMAPKIT_STORE: store } });
    const workers = (JSON.parse(status.stdout) as { workers: { fetched: number }[] }).workers;
    assert.equal(workers.length, 3);
    assert.ok(workers.filter((w) => w.fetched > 0).length >= 2, 'the work is shared');

    // run finish writes the same outputs again, from the store.
    rmSync(rows);
    const again = await runCli(['run', 'finish', 'three', '--store', store]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(readFileSync(rows, 'utf8'), expected);
    assert.deepEqual(JSON.parse(again.stdout), JSON.parse(reference.stdout));
  });

  test('a worker killed with kill -9 halfway loses nothing: the others take its leases over', async () => {
    const store = await driver.location();
    farm.reset();
    const rows = join(work, `${driver.name}-killed.jsonl`);
    // A delay between requests to a host keeps the run going while the others join it.
    const args = [...AUDIT, '--rows', rows, '--run', 'killed', '--lease', '3', '--delay', '0.1', '--json', '--quiet'];
    const env = { ...process.env, SITEMAPKIT_STORE: store };
    const start = () => spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Halfway: once the servers have had a third of the pages; the rest wait until the kill.
    const halfway = farm.holdAfter((HOSTS * PAGES) / 3);
    // The first reads the sitemaps and creates the run; the others join it once it exists.
    const victim = start();
    while ((await runCli(['run', 'status', 'killed'], { env })).code !== 0)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const survivors = [start(), start()];
    const outputs = survivors.map((child) => {
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
    });
    victim.stdout.resume();
    victim.stderr.resume();
    await halfway;
    await kill9(victim);
    farm.release();
    const ended = await Promise.all(outputs);
    assert.deepEqual(
      ended.map((e) => e.code),
      [0, 0],
      ended.map((e) => e.stderr).join('\n'),
    );
    assert.equal(ended.filter((e) => e.stdout !== '').length, 1, 'one process writes the outputs');
    assert.equal(readFileSync(rows, 'utf8'), expected);
    notePoliteness(`${driver.name}, kill -9`);
  });

  test('no host ever saw more than 2 requests at once, across all workers', () => {
    assert.deepEqual(inFlightSeen, []);
  });
}

for (const driver of queueDrivers) describe(`an audit on workers sharing ${driver.name}`, () => auditOnWorkers(driver));
