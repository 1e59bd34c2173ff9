/**
 * Atomic publication of a set of sitemap files: at every moment, and after a kill -9 at any
 * moment, the entry point names exactly one complete set, the old one or the new one.
 *
 * 1. begin: take the output directory's lock (run-lock.ts), remove what dead runs left (their
 *    temporary folders), and make a hidden temporary folder in the output directory (same file
 *    system, so renames are atomic), where every file of the run is written.
 * 2. commit, once the whole set is written:
 *    a. record in the manifest the files of the old set and of the new one: whatever happens
 *       next, the next run knows every file it may have to remove;
 *    b. move the new shards into place: their names carry their content's digest, so none of
 *       them replaces a file the live entry point names (an unchanged shard is left as it is);
 *    c. rename the new entry point over the old one: the one step that switches sets;
 *    d. remove the files of the old set that the new one does not use, and record the new set.
 * Files not recorded in the manifest are never removed.
 */
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { lockFileName, tempFolderPrefix } from './file-names.js';
import { readManifest, writeManifest } from './manifest.js';
import { RunLock, type LockHolder } from './run-lock.js';

/** A file written in the temporary folder and the name it is published under. */
export interface PendingFile {
  tempName: string;
  name: string;
  /** Its size on disk, to recognise an unchanged shard already in place. */
  size: number;
}

export interface Housekeeping {
  /** Temporary folders of runs that died, removed when this run began. */
  leftovers: string[];
  /** The run that held the lock when it died, when one did. */
  interrupted?: LockHolder;
}

export interface Committed {
  /** Files of earlier runs that the new set replaces, removed. */
  removed: string[];
  /** Shards already in place with the same content, left untouched. */
  unchanged: string[];
}

export class Publication {
  private constructor(
    readonly outDir: string,
    private readonly base: string,
    private readonly tempDir: string,
    private readonly lock: RunLock,
    private readonly previous: Set<string>,
    readonly housekeeping: Housekeeping,
  ) {}

  static async begin(outDir: string, base: string): Promise<Publication> {
    await mkdir(outDir, { recursive: true });
    const { lock, stale } = await RunLock.acquire(join(outDir, lockFileName(base)), outDir);
    try {
      // Under the lock, no live run has a temporary folder here: each one left is a dead run's.
      const prefix = tempFolderPrefix(base);
      const leftovers = (await readdir(outDir, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
        .map((entry) => entry.name)
        .sort();
      for (const name of leftovers) await rm(join(outDir, name), { recursive: true, force: true });
      const previous = await readManifest(outDir, base);
      const tempDir = await mkdtemp(join(outDir, prefix));
      const housekeeping: Housekeeping = stale === undefined ? { leftovers } : { leftovers, interrupted: stale };
      return new Publication(outDir, base, tempDir, lock, previous, housekeeping);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Path of a file being written, before publication. */
  tempPath(tempName: string): string {
    return join(this.tempDir, tempName);
  }

  /** Publishes the shards, then the entry point (the commit), then removes what the old set alone used. */
  async commit(shards: readonly PendingFile[], entryPoint: PendingFile): Promise<Committed> {
    const current = new Set([...shards.map((shard) => shard.name), entryPoint.name]);
    await writeManifest(this.outDir, this.base, [...this.previous, ...current], this.tempDir);
    const unchanged: string[] = [];
    for (const shard of shards) {
      if (await this.isInPlace(shard)) unchanged.push(shard.name);
      else await rename(this.tempPath(shard.tempName), join(this.outDir, shard.name));
      await testOnlyPauseAt('shard-moved');
    }
    await testOnlyPauseAt('before-commit');
    await rename(this.tempPath(entryPoint.tempName), join(this.outDir, entryPoint.name));
    await testOnlyPauseAt('committed');
    const removed = [...this.previous].filter((name) => !current.has(name)).sort();
    for (const name of removed) {
      await rm(join(this.outDir, name), { force: true });
      await testOnlyPauseAt('old-file-removed');
    }
    await writeManifest(this.outDir, this.base, current, this.tempDir);
    await this.close();
    return { removed, unchanged };
  }

  /** Throws away everything written: the output directory is as it was before. */
  async abort(): Promise<void> {
    await this.close();
  }

  private async isInPlace(shard: PendingFile): Promise<boolean> {
    const existing = await stat(join(this.outDir, shard.name)).catch(() => undefined);
    return existing?.isFile() === true && existing.size === shard.size;
  }

  private async close(): Promise<void> {
    await rm(this.tempDir, { recursive: true, force: true });
    await this.lock.release();
  }
}

/**
 * Test-only: with SITEMAPKIT_TEST_PAUSE_AT=<step>, the run stops for good at the first time it
 * reaches that step of commit, after saying so on stderr, so that a test can kill it there and
 * check what a kill -9 at the worst moment leaves.
 */
async function testOnlyPauseAt(
  step: 'shard-moved' | 'before-commit' | 'committed' | 'old-file-removed',
): Promise<void> {
  if (process.env.SITEMAPKIT_TEST_PAUSE_AT !== step) return;
  process.stderr.write(`paused at ${step}\n`);
  await new Promise(() => setInterval(() => undefined, 60_000));
}
