/**
 * `sitemapkit run status RUN` and `sitemapkit run finish RUN`: a run shared by workers, seen and
 * finished from any machine that reaches its store.
 */
import { existsSync } from 'node:fs';
import { formatNumber } from '../report/format.js';
import { isPostgresLocation } from '../store/database.js';
import { outputWriter } from '../run/outputs.js';
import { RunStore, type RunStatus } from '../store/run-store.js';
import { EXIT_FAILED, EXIT_OK, UsageError, defineCommand, type Io } from './command.js';
import { defineFlags } from './flags.js';
import { budgetExitCode } from './problem-options.js';
import { RUN_FLAGS, storeLocation } from './run-options.js';
import { writeRowsFile } from './tree-sites.js';

const FLAGS = defineFlags({
  store: { ...RUN_FLAGS.store, group: 'Options' },
  json: { type: 'boolean', group: 'Options', help: 'status as JSON' },
});

export const command = defineCommand({
  spec: {
    name: 'run',
    summary: 'Show a run shared by workers (run status), or write its outputs again (run finish).',
    usage: 'sitemapkit run status [RUN] [--store URL] [--json]\n       sitemapkit run finish RUN [--store URL]',
    description: `status RUN        how far the run is: items done by outcome, to do, held by workers; each
                  worker with its counts and when it was last seen. Without RUN: every run
                  of the store.
finish RUN        writes the outputs of a done run again, from the store: a crawl's sitemaps
                  and report, an audit's summary (or --json), --rows and --html, the rows of
                  tree --sites (to the places its creator gave)`,
    flags: FLAGS,
    epilogue: `The command fails (exit 1) when the run does not exist, or "finish" finds it not done (or, as the
command itself would, finds the crawl failed or the audit's findings over its budget).`,
  },
  async run(args, io) {
    const [action, name, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`unexpected "${rest[0]}"`);
    if (action !== 'status' && action !== 'finish') throw new UsageError('say "status" or "finish", then the run');
    if (action === 'finish' && name === undefined) throw new UsageError('name the run to finish');
    const location = storeLocation(args.flags.store);
    // Looking is no reason to make a store: one that does not exist holds no run.
    if (!isPostgresLocation(location) && !existsSync(location)) {
      if (name !== undefined) {
        io.stderr.write(`sitemapkit run: no run "${name}": there is no store at ${location}\n`);
        return EXIT_FAILED;
      }
      io.stderr.write(noRuns(location));
      return EXIT_OK;
    }
    const store = await RunStore.open(location);
    try {
      return action === 'status' ? await status(store, name, args.flags.json, io) : await finish(store, name!, io);
    } finally {
      await store.close();
    }
  },
});

async function status(store: RunStore, name: string | undefined, json: boolean, io: Io): Promise<number> {
  const names = name === undefined ? (await store.runs()).map((run) => run.name) : [name];
  if (names.length === 0) {
    io.stderr.write(noRuns(store.location));
    return EXIT_OK;
  }
  const statuses: RunStatus[] = [];
  for (const each of names) {
    const found = await store.status(each);
    if (found === undefined) {
      io.stderr.write(`sitemapkit run: no run "${each}" in ${store.location}\n`);
      return EXIT_FAILED;
    }
    statuses.push(found);
  }
  const now = await store.now();
  if (json) for (const s of statuses) io.stdout.write(`${JSON.stringify(s)}\n`);
  else io.stdout.write(statuses.map((s) => formatStatus(s, now)).join('\n'));
  return EXIT_OK;
}

/** What `run status` says of a store without runs (on stderr: --json gives no line for no run). */
function noRuns(location: string): string {
  return `sitemapkit run: no runs in ${location}: a run is made by crawl, audit or tree --sites with --run NAME (or --workers N), and --store where it is kept\n`;
}

function formatStatus({ run, todo, leased, outcomes, hosts, workers }: RunStatus, now: number): string {
  const done = Object.values(outcomes).reduce((sum, n) => sum + n, 0);
  const fetched = workers.reduce((sum, w) => sum + w.fetched, 0);
  const seconds = ((run.doneAt ?? now) - run.createdAt) / 1000;
  const lines = [
    `${run.name} (${run.kind}): ${run.state}${run.outputsAt === undefined ? '' : `, outputs written by ${run.outputsBy ?? '?'}`}`,
    `  ${formatNumber(done)} done, ${formatNumber(todo)} to do (${formatNumber(leased)} held by workers), ${formatNumber(hosts)} hosts`,
    `  ${formatNumber(fetched)} requests in ${seconds.toFixed(0)} s (${formatNumber(Math.round(fetched / Math.max(seconds, 1)))}/s)${budgetLeft(run.budget, fetched)}`,
    ...Object.entries(outcomes).map(([outcome, n]) => `  ${String(formatNumber(n)).padStart(10)}  ${outcome}`),
    `  workers:`,
    ...workers.map((w) => {
      const state = w.stoppedAt !== undefined ? 'stopped' : now - w.seenAt > 60_000 ? 'silent' : 'working';
      return `    ${w.label.padEnd(24)} ${state.padEnd(8)} ${formatNumber(w.fetched)} requests, ${formatNumber(w.batches)} batches, seen ${((now - w.seenAt) / 1000).toFixed(0)} s ago`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}

/** ", of a budget of N: M left" for a run with a budget of requests (a crawl's --max-pages). */
function budgetLeft(budget: number | undefined, spent: number): string {
  if (budget === undefined) return '';
  const left = Math.max(0, budget - spent);
  return `, of a budget of ${formatNumber(budget)}: ${left === 0 ? 'none' : formatNumber(left)} left`;
}

async function finish(store: RunStore, name: string, io: Io): Promise<number> {
  const run = await store.run(name);
  if (run === undefined) {
    io.stderr.write(`sitemapkit run: no run "${name}" in ${store.location}\n`);
    return EXIT_FAILED;
  }
  if (run.state !== 'done') {
    io.stderr.write(
      `sitemapkit run: "${name}" is not done (${run.state}); "sitemapkit run status ${name}" says how far\n`,
    );
    return EXIT_FAILED;
  }
  await store.claimOutputs(run.id, `run finish`, { again: true });
  const writer = outputWriter(run.kind);
  if (writer !== undefined) {
    const written = await writer(store, run, io, { durationMs: (run.doneAt ?? run.createdAt) - run.createdAt });
    if (written.budget !== undefined) return budgetExitCode(run.kind, written, written.budget, io.stderr);
    return written.failures.length > 0 ? EXIT_FAILED : EXIT_OK;
  }
  const out = (run.options as { out?: string }).out;
  if (out === undefined) {
    io.stderr.write(`sitemapkit run: "${name}" was started without --out: it has no outputs to write\n`);
    return EXIT_FAILED;
  }
  const totals = await writeRowsFile(store, run, out);
  io.stderr.write(`${formatNumber(totals.sites)} sites' rows written to ${out}\n`);
  return totals.failed === 0 ? EXIT_OK : EXIT_FAILED;
}
