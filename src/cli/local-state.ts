/**
 * The state file of a crawl or an audit of one process: the queue of its run, held by this command
 * alone under a lock, started afresh or, with --resume, made ready to go on.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RunLock } from '../generate/run-lock.js';
import type { Participation } from '../run/session.js';
import { RunStore, type RunRecord } from '../store/run-store.js';
import { discardStateFile, refuseFormerStore } from '../store/state-file.js';
import type { Io } from './command.js';

/** The state file of one command's run, held by it alone until `lock` is released. */
export interface LocalState<Kept> {
  file: string;
  lock: RunLock;
  /** How this process takes part in the run the file holds: alone, as its one worker. */
  who: Participation;
  /** What --resume goes on from; undefined when the run starts afresh. */
  kept: Kept | undefined;
}

/** What a command keeps in its state file, and how it goes on from it. */
export interface LocalRun<Kept> {
  /** The command, as its messages name it: "crawl", "audit". */
  command: string;
  /** The name of the run the file holds. */
  runName: string;
  /** The table a state file of an earlier sitemapkit holds instead, and what the file is called. */
  former: { table: string; what: string };
  /** What goes on from the run the file holds; throws to refuse it (a run of other input). */
  keep: (run: RunRecord, file: string) => Kept;
  /**
   * Why a file that holds no run cannot be resumed; without it, such a file (an earlier run cut
   * short before its run was set down) starts afresh, as a missing file does.
   */
  noRunRefusal?: string;
}

/**
 * The state file `file`, held by this command alone: a second command on the same file is refused
 * (it would delete or repeat the first one's work). Without `resume` it starts afresh; with it, the
 * run the file holds goes on, and the pages or URLs a killed run had leased are free at once (no
 * other process can hold them). A file of an earlier sitemapkit is an error naming it.
 */
export async function openLocalState<Kept>(
  file: string,
  resume: boolean,
  how: LocalRun<Kept>,
  io: Io,
): Promise<LocalState<Kept>> {
  mkdirSync(dirname(file), { recursive: true });
  const { lock } = await RunLock.acquire(`${file}.lock`, file);
  try {
    const kept = resume && existsSync(file) ? await keptRun(file, how) : undefined;
    if (kept === undefined) {
      if (resume)
        io.stderr.write(`sitemapkit ${how.command}: no ${how.command} to resume in ${file}; starting afresh\n`);
      discardStateFile(file);
    }
    // As the state files always were: a commit survives kill -9 (it is the system's), not a power cut.
    const who: Participation = { store: file, name: how.runName, workerOnly: false, durability: 'OFF' };
    return { file, lock, who, kept };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** What goes on from the run `file` holds, its leases expired; undefined when it holds none. */
async function keptRun<Kept>(file: string, how: LocalRun<Kept>): Promise<Kept | undefined> {
  const again = `${how.command} again without --resume to start afresh`;
  refuseFormerStore(file, how.former, again);
  const store = await RunStore.open(file);
  try {
    const run = await store.run(how.runName);
    if (run === undefined) {
      if (how.noRunRefusal === undefined) return undefined;
      throw new Error(`${how.former.what} ${file} ${how.noRunRefusal}; ${again}`);
    }
    const kept = how.keep(run, file);
    await store.expireLeases(run.id);
    return kept;
  } finally {
    await store.close();
  }
}
