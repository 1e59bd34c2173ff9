/**
 * One run at a time in an output directory. The run holds a lock file, created exclusively, that
 * names its process and machine. Two runs publishing into one directory at once could each delete
 * the other's files; and a lock that names a dead process tells the next run that what it finds
 * (a temporary folder, files moved in but never committed) was left by a run that will not come
 * back for it.
 */
import { hostname } from 'node:os';
import { open, stat, unlink, writeFile } from 'node:fs/promises';
import { GenerateError } from './errors.js';

/** Who holds (or held) a lock. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When the run started, ISO 8601. */
  started: string;
}

export class RunLock {
  private constructor(readonly path: string) {}

  /**
   * Takes the lock at `path`. A lock held by a live process, or by a process on another machine
   * (which cannot be checked from here), is refused with an error that says what to do. A lock
   * whose process is gone is taken over; its holder is returned as `stale`.
   */
  static async acquire(path: string, directory: string): Promise<{ lock: RunLock; stale?: LockHolder }> {
    const me: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
    let stale: LockHolder | undefined;
    // More than one attempt is needed only when a stale lock was removed, or a lock released meanwhile.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeFile(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
        return stale === undefined ? { lock: new RunLock(path) } : { lock: new RunLock(path), stale };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = await readHolder(path);
      if (held === undefined) continue; // released between our attempt and the read
      if (held.holder === undefined)
        throw new GenerateError(
          `${path} exists but does not say which run holds it; if no sitemapkit run is writing into ${directory}, delete it and run again`,
        );
      if (held.holder.host !== me.host || isRunning(held.holder.pid)) throw lockedBy(held.holder, path, directory);
      // Remove the stale lock only if it is still the file just read: another run may have replaced it since.
      if ((await stat(path).catch(() => undefined))?.ino === held.inode) await unlink(path).catch(() => undefined);
      stale = held.holder;
    }
    const holder = (await readHolder(path))?.holder;
    throw holder === undefined
      ? new GenerateError(`another run keeps taking the lock ${path}; run again when it has finished`)
      : lockedBy(holder, path, directory);
  }

  async release(): Promise<void> {
    await unlink(this.path).catch(() => undefined);
  }
}

/** The lock's holder (undefined when the file cannot be understood) and its inode; undefined when there is no lock. */
async function readHolder(path: string): Promise<{ holder: LockHolder | undefined; inode: number } | undefined> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const [{ ino }, text] = await Promise.all([file.stat(), file.readFile('utf8')]);
    return { holder: parseHolder(text), inode: ino };
  } finally {
    await file.close();
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isInteger(value.pid) && typeof value.host === 'string' && typeof value.started === 'string')
      return value as LockHolder;
  } catch {
    // not JSON: a lock this code did not write whole
  }
  return undefined;
}

/** Signal 0 checks that a process exists without touching it; EPERM means it exists but is not ours. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedBy(holder: LockHolder, path: string, directory: string): GenerateError {
  const where = holder.host === hostname() ? 'on this machine' : `on ${holder.host}`;
  return new GenerateError(
    `another sitemapkit run (process ${holder.pid} ${where}, started ${holder.started}) is writing into ${directory}; wait for it to finish, or, if no such run is going on, delete ${path} and run again`,
  );
}
