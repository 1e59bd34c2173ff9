/**
 * The flags of a command that can run on workers sharing a store (`crawl`, `audit`, `tree --sites`):
 * declared once, documented once, read into a Participation (see run/session.ts).
 */
import { resolve } from 'node:path';
import { STORE_ENV, type Participation, type Taken } from '../run/session.js';
import { DEFAULT_LEASE_MS } from '../run/worker.js';
import { isPostgresLocation, redactLocation } from '../store/database.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import { EXIT_FAILED, EXIT_OK, type Io } from './command.js';
import { defineFlags, type FlagValues } from './flags.js';
import { UsageError } from './usage-error.js';

export const WORKERS = 'Workers (one run shared by processes on any number of machines)';

export const RUN_FLAGS = defineFlags({
  run: {
    type: 'string',
    value: 'NAME',
    group: WORKERS,
    help: 'the run to create or join: every process started with the same --store and --run works on it; the first creates it with its options',
  },
  store: {
    type: 'string',
    value: 'URL',
    group: WORKERS,
    defaultText: `$${STORE_ENV}, else ${DEFAULT_STATE_DIR}/runs.sqlite`,
    help: 'where the run lives: postgres://user:password@host/db for workers on several machines, or a SQLite file for processes of one machine',
  },
  workers: {
    type: 'integer',
    value: 'N',
    group: WORKERS,
    defaultText: 'work in this process',
    help: 'start N worker processes here and wait for them',
  },
  lease: {
    type: 'seconds',
    value: 'SECONDS',
    min: 0.1,
    group: WORKERS,
    defaultText: String(DEFAULT_LEASE_MS / 1000),
    help: "how long a worker's hold on a host's batch lasts unless renewed: the work of a worker killed is taken over after it",
  },
  // Set on the processes that --workers starts: they work and leave the outputs to their parent.
  worker: { type: 'boolean', group: WORKERS, hidden: true, help: 'a process that --workers started' },
});

type RunFlagValues = FlagValues<typeof RUN_FLAGS>;

/** Said under the workers' flags of every command that has them. */
export const RUN_FLAGS_NOTE = 'Progress of a run from any machine: sitemapkit run status NAME --store URL.';

/** The store's location: --store, else $SITEMAPKIT_STORE, else the SQLite file of the state directory. */
export function storeLocation(store: string | undefined, stateDir = DEFAULT_STATE_DIR): string {
  const given = store ?? process.env[STORE_ENV];
  if (given !== undefined && given !== '') return isPostgresLocation(given) ? given : resolve(given);
  return resolve(stateDir, 'runs.sqlite');
}

/** True when the command line asks for a run (a name, a store or workers). */
export function wantsRun(flags: RunFlagValues): boolean {
  return (
    flags.run !== undefined ||
    flags.store !== undefined ||
    flags.workers !== undefined ||
    flags.worker ||
    flags.lease !== undefined
  );
}

/**
 * The participation the flags ask for. Without --run, a run of this process alone, named
 * `fallbackName` (made unique: nobody joins it by accident).
 */
export function readParticipation(flags: RunFlagValues, fallbackName: string, stateDir?: string): Participation {
  const { workers, lease, run: named, worker: workerOnly } = flags;
  if (named !== undefined && named.trim() === '') throw new UsageError('--run needs a name');
  if (workerOnly && named === undefined) throw new UsageError('--worker is for processes that --workers starts');
  const store = storeLocation(flags.store, stateDir);
  return {
    store,
    ...(lease === undefined ? {} : { leaseMs: lease * 1000 }),
    name: named ?? `${fallbackName} ${new Date().toISOString()} ${process.pid}`,
    workers: workerOnly ? undefined : workers,
    workerOnly,
  };
}

/**
 * The end of this process's part in a run, its store closed after: nothing more for a worker that
 * --workers started; how the run goes on when it is not done; who wrote the outputs when another
 * process did; else `writeOutputs` (the command's exit code).
 */
export async function endOfPart(
  command: string,
  who: Participation,
  taken: Taken,
  io: Io,
  writeOutputs: () => Promise<number>,
): Promise<number> {
  try {
    if (who.workerOnly) return EXIT_OK;
    if (taken.run.state !== 'done') {
      io.stderr.write(
        `sitemapkit ${command}: stopped before the end; ${describeRun(who)} goes on when a process joins it (start this command again)\n`,
      );
      return EXIT_FAILED;
    }
    if (!taken.writeOutputs) {
      io.stderr.write(
        `sitemapkit ${command}: ${describeRun(who)} is done; its outputs were written by ${taken.run.outputsBy ?? 'another process'} (sitemapkit run finish writes them again)\n`,
      );
      return EXIT_OK;
    }
    return await writeOutputs();
  } finally {
    await taken.store.close();
  }
}

/** "run NAME in STORE" for messages, without the store's password. */
export function describeRun(who: Participation): string {
  return `run "${who.name}" in ${redactLocation(who.store)}`;
}

/**
 * The command line of a worker that --workers starts: this one's, less --workers and --store (the
 * store reaches it through the environment) and less --run (given anew).
 */
export function workerCommandLine(argv: readonly string[]): string[] {
  const dropped = new Set(['--workers', '--store', '--run']);
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=', 1)[0]!;
    if (!dropped.has(name)) kept.push(arg);
    else if (!arg.includes('=')) i += 1;
  }
  return kept;
}
