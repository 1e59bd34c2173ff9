/**
 * `sitemapkit tree --sites FILE`: the sitemap trees of many sites as one run shared by workers.
 * Each worker streams the sites it walked (their URL entries with --urls, then each site's
 * summary row) as JSONL on stdout; together they walk every site once. Once the run is done one
 * process writes every site's row to --out, and says what the run came to.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HttpClient } from '../http/client.js';
import { formatNumber } from '../report/format.js';
import { runOfJob } from '../run/job.js';
import { takePart } from '../run/session.js';
import { SITE_PACE, siteItems, treeSitesJob, writeSiteRows, type TreeSitesOptions } from '../run/tree-sites.js';
import type { RunRecord, RunStore } from '../store/run-store.js';
import { SitemapMemory, sitemapMemoryPath } from '../store/sitemap-memory.js';
import { EXIT_FAILED, EXIT_OK, UsageError, type Io, type ParsedArgs } from './command.js';
import type { FlagValues } from './flags.js';
import { listenForInterruption } from './interrupt.js';
import type { TREE_FLAGS } from './tree-flags.js';
import { readNetworkOptions } from './network-options.js';
import { describeRun, readParticipation, workerCommandLine } from './run-options.js';

/** What a tree-sites run stores as its options: what every worker does, and where the rows go. */
interface StoredOptions extends TreeSitesOptions {
  sites: string;
  out?: string;
  /** --state: where every worker remembers the sitemaps it read (conditional fetches next time). */
  state?: string;
}

export async function runTreeSites(args: ParsedArgs<typeof TREE_FLAGS>, sites: string, io: Io): Promise<number> {
  const { flags } = args;
  if (args.positionals.length > 0)
    throw new UsageError(`give the sites in the --sites file, not as arguments ("${args.positionals[0]}")`);
  if (flags.json) throw new UsageError('--sites writes JSON lines already; leave out --json');
  const file = resolve(sites);
  const { out, state } = flags;
  const changedOnly = readChangedOnly(flags);
  const who = readParticipation(flags, 'tree-sites');
  const network = readNetworkOptions(flags, io, { quiet: flags.quiet });
  const options: StoredOptions = {
    sites: file,
    maxDepth: flags.maxDepth,
    concurrency: network.concurrency,
    perHost: network.perHost,
    urls: flags.urls,
    skipUnchanged: !flags.urls || changedOnly,
    ...(out === undefined ? {} : { out: resolve(out) }),
    ...(state === undefined ? {} : { state: resolve(state) }),
  };
  const seeds = who.workerOnly ? [] : siteItems(await readSitesFile(file), file);
  const interruption = listenForInterruption();
  const write = async (text: string) => {
    if (!io.stdout.write(text)) await once(io.stdout, 'drain');
  };
  try {
    const taken = await takePart(
      who,
      { kind: 'tree-sites', options, seeds, pace: SITE_PACE, state: 'running' },
      (run, store) => {
        const http = new HttpClient({ ...network.http, signal: interruption.signal });
        const { state } = run.options;
        const memory = state === undefined ? undefined : new SitemapMemory(sitemapMemoryPath(state));
        return Promise.resolve({
          kind: treeSitesJob.step(run, { store, http, write, memory }),
          pace: SITE_PACE,
          // A site's walk is many requests already: a few sites at once per worker.
          slots: 4,
          batch: 1,
          close: async () => {
            memory?.close();
            await http.close();
          },
        });
      },
      { workerArgs: workerCommandLine(process.argv.slice(2)), stdout: io.stdout, stderr: io.stderr },
      interruption.signal,
    );
    try {
      if (who.workerOnly) return EXIT_OK;
      return await conclude(taken.store, taken.run, taken.writeOutputs, describeRun(who), io, flags.quiet);
    } finally {
      await taken.store.close();
    }
  } finally {
    interruption.dispose();
  }
}

/** --changed-only, which goes with --urls and --state (for one site or many). */
export function readChangedOnly(flags: Pick<FlagValues<typeof TREE_FLAGS>, 'changedOnly' | 'state' | 'urls'>): boolean {
  const { changedOnly } = flags;
  if (changedOnly && (flags.state === undefined || !flags.urls))
    throw new UsageError(
      '--changed-only goes with --urls and --state DIR: the entries of the sitemaps changed since the last walk',
    );
  return changedOnly;
}

async function readSitesFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the sites file ${file}: ${(error as Error).message}`);
  }
}

/** Writes the rows when it falls to this process, and says what the run came to; exit 0 when every site was read whole. */
async function conclude(
  store: RunStore,
  run: RunRecord,
  writeOutputs: boolean,
  described: string,
  io: Io,
  quiet: boolean,
): Promise<number> {
  const { out } = runOfJob<TreeSitesOptions, StoredOptions>(treeSitesJob, run).options;
  const totals =
    writeOutputs && out !== undefined ? await writeRowsFile(store, run, out) : await writeSiteRows(store, run);
  if (run.state !== 'done') {
    io.stderr.write(
      `sitemapkit tree: stopped with ${totals.todo} of ${totals.sites} sites to walk; ${described} goes on when a process joins it\n`,
    );
    return EXIT_FAILED;
  }
  if (!quiet)
    io.stderr.write(
      `${formatNumber(totals.sites)} sites: ${formatNumber(totals.read)} read whole, ${formatNumber(totals.failed)} not; ${formatNumber(totals.urls)} URLs` +
        `${writeOutputs && out !== undefined ? `; rows in ${out}` : ''}\n`,
    );
  return totals.failed === 0 ? EXIT_OK : EXIT_FAILED;
}

/** The run's rows into `file`, replacing it. */
export async function writeRowsFile(store: RunStore, run: RunRecord, file: string) {
  const stream = createWriteStream(file);
  const totals = await writeSiteRows(store, run, async (line) => {
    if (!stream.write(line)) await once(stream, 'drain');
  });
  stream.end();
  await once(stream, 'finish');
  return totals;
}
