/**
 * Atomic publication of a set of sitemap files: at every moment, and after a kill -9 at any
 * moment, the entry point names exactly one complete set, the old one or the new one.
 *
 * 1. begin: take the output directory's lock (run-lock.ts), refuse to replace an entry point no
 *    run wrote, remove what dead runs left (their temporary folders, marked as theirs), and make a
 *    hidden temporary folder in the output directory (same file system, so renames are atomic),
 *    where every file of the run is written.
 * 2. commit, once the whole set is written:
 *    a. record in the manifest the files of the old set and of the new one: whatever happens
 *       next, the next run knows every file it may have to remove;
 *    b. move the new shards into place: their names carry their content's digest, so none of
 *       them replaces a file the live entry point names (a live file with the same bytes is left
 *       as it is, and a shard an earlier run published and this run keeps must still be in
 *       place); every file was flushed to the disk when it was written (durable.ts), and the
 *       directory is flushed once they are all in place;
 *    c. rename the new entry point over the old one: the one step that switches sets (an entry
 *       point with the same bytes as the live one is left as it is), then flush the directory;
 *    d. remove the files of the old set that the new one does not use, and record the new set.
 * Files not recorded in the manifest are never removed.
 */
import { mkdir, mkdtemp, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDirectory } from './durable.js';
import { GenerateError } from './errors.js';
import { lockFileName, tempFolderPrefix } from './file-names.js';
import { readManifest, writeManifest } from './manifest.js';
import { RunLock, type LockHolder } from './run-lock.js';

/** A file written in the temporary folder and the name it is published under. */
export interface PendingFile {
  /** Undefined for a file an earlier run published under `name`, which this run keeps as it is. */
  tempName: string | undefined;
  name: string;
  /** Its size on disk, to recognise a kept shard still in place. */
  size: number;
}

/** A file this run wrote (the entry point always is). */
export type NewFile = PendingFile & { tempName: string };

export interface Housekeeping {
  /** Temporary folders of runs that died, removed when this run began. */
  leftovers: string[];
  /** The run that held the lock when it died, when one did. */
  interrupted?: LockHolder;
}

export interface Committed {
  /** Files of earlier runs that the new set replaces, removed. */
  removed: string[];
  /** Files already in place with the same content, left untouched. */
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

  /**
   * `entryPoint`: the name the set will be published under; a file of that name that no run
   * recorded as its own is refused unless `overwrite` (a hand-written sitemap.xml is the site's).
   */
  static async begin(
    outDir: string,
    base: string,
    { entryPoint, overwrite = false }: { entryPoint?: string; overwrite?: boolean } = {},
  ): Promise<Publication> {
    await makeOutputDirectory(outDir);
    const { lock, stale } = await RunLock.acquire(join(outDir, lockFileName(base)), outDir);
    try {
      const previous = await readManifest(outDir, base);
      if (entryPoint !== undefined && !overwrite && !previous.has(entryPoint)) await refuseForeign(outDir, entryPoint);
      // Under the lock, no live run has a temporary folder here: each one marked as a run's is a dead run's.
      const prefix = tempFolderPrefix(base);
      const leftovers: string[] = [];
      for (const entry of await readdir(outDir, { withFileTypes: true }))
        if (entry.isDirectory() && entry.name.startsWith(prefix) && (await isRunTempFolder(join(outDir, entry.name))))
          leftovers.push(entry.name);
      leftovers.sort();
      for (const name of leftovers) await rm(join(outDir, name), { recursive: true, force: true });
      const tempDir = await mkdtemp(join(outDir, prefix));
      await writeFile(join(tempDir, TEMP_MARK), `${process.pid}\n`);
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
  async commit(shards: readonly PendingFile[], entryPoint: NewFile): Promise<Committed> {
    const current = new Set([...shards.map((shard) => shard.name), entryPoint.name]);
    await writeManifest(this.outDir, this.base, [...this.previous, ...current], this.tempDir);
    const unchanged: string[] = [];
    for (const shard of shards) {
      if (shard.tempName === undefined) {
        if (!(await this.isInPlace(shard))) throw missingKeptFile(join(this.outDir, shard.name));
        unchanged.push(shard.name);
      } else if (await this.isSameFile(shard.tempName, shard.name)) unchanged.push(shard.name);
      else await rename(this.tempPath(shard.tempName), join(this.outDir, shard.name));
      await testOnlyPauseAt('shard-moved');
    }
    // The shards' names reach the disk before the entry point that names them.
    await syncDirectory(this.outDir);
    await testOnlyPauseAt('before-commit');
    if (await this.isSameFile(entryPoint.tempName, entryPoint.name)) unchanged.push(entryPoint.name);
    else await rename(this.tempPath(entryPoint.tempName), join(this.outDir, entryPoint.name));
    await syncDirectory(this.outDir);
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

  /** True when the live file `name` holds exactly the bytes written as `tempName`. */
  private async isSameFile(tempName: string, name: string): Promise<boolean> {
    const live = await stat(join(this.outDir, name)).catch(() => undefined);
    if (live?.isFile() !== true || live.size !== (await stat(this.tempPath(tempName))).size) return false;
    return sameBytes(this.tempPath(tempName), join(this.outDir, name));
  }

  private async close(): Promise<void> {
    await rm(this.tempDir, { recursive: true, force: true });
    await this.lock.release();
  }
}

/**
 * The file that marks a temporary folder as a run's own: only such a folder is removed as a dead
 * run's (a folder of the user's named like one is left alone).
 */
const TEMP_MARK = '.sitemapkit-temporary';
/** What a run writes in its temporary folder: the mark, shards, the index, the next manifest. */
const RUN_TEMP_FILE = /^(?:\.sitemapkit-temporary|shard-\d+|index|manifest\.json)$/;

/**
 * A dead run's temporary folder: it holds the mark, or (a run of an older version, which left no
 * mark, or one killed before it wrote the mark) nothing but files a run writes there.
 */
async function isRunTempFolder(path: string): Promise<boolean> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return false;
  if (entries.some((entry) => entry.name === TEMP_MARK && entry.isFile())) return true;
  return entries.every((entry) => entry.isFile() && RUN_TEMP_FILE.test(entry.name));
}

/** Creates the output directory; a file in its place is said to be one (not a raw EEXIST). */
async function makeOutputDirectory(outDir: string): Promise<void> {
  const existing = await stat(outDir).catch(() => undefined);
  if (existing !== undefined && !existing.isDirectory())
    throw new GenerateError(
      `${outDir} is a file, not a directory: the sitemaps are written into a directory (--out DIR)`,
    );
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR')
      throw error;
    throw new GenerateError(`${outDir} cannot be made a directory: a file is in the way of its path`);
  }
}

/** A live entry point no run recorded: the site's own file, which a run does not replace unasked. */
async function refuseForeign(outDir: string, entryPoint: string): Promise<void> {
  const path = join(outDir, entryPoint);
  if ((await stat(path).catch(() => undefined)) === undefined) return;
  throw new GenerateError(
    `${path} was not written by sitemapkit (its manifest does not list it): it is left as it is. Move it away, or pass --overwrite (overwrite: true) to replace it`,
  );
}

function missingKeptFile(path: string): GenerateError {
  return new GenerateError(
    `${path}, which the new set keeps from the last run, was removed or changed while the run was writing; run again`,
  );
}

/** Compares two files of the same size a block at a time. */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const first = await open(a, 'r');
  try {
    const second = await open(b, 'r');
    try {
      const blockA = Buffer.alloc(64 * 1024);
      const blockB = Buffer.alloc(64 * 1024);
      for (;;) {
        const [readA, readB] = await Promise.all([
          first.read(blockA, 0, blockA.length),
          second.read(blockB, 0, blockB.length),
        ]);
        if (readA.bytesRead !== readB.bytesRead) return false;
        if (readA.bytesRead === 0) return true;
        if (!blockA.subarray(0, readA.bytesRead).equals(blockB.subarray(0, readB.bytesRead))) return false;
      }
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
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
