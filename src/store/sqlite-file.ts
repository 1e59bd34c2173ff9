/**
 * Opening a SQLite file of the embedded store: its folder made, write-ahead logging, and the
 * durability each store chooses (and says why it chose).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * `OFF`: a committed transaction is in the operating system's hands, so it survives kill -9, not a
 * power cut; `NORMAL`: a power cut may lose the last commits, never spoil the file; `FULL`: a
 * commit survives a power cut once it returned.
 */
export type Durability = 'OFF' | 'NORMAL' | 'FULL';

export interface SqliteFileOptions {
  durability: Durability;
  /** Discard what an earlier run left in the file (and its -wal and -shm). */
  fresh?: boolean;
  /** How long a statement waits for another process's lock (better-sqlite3's default: 5 s). */
  busyTimeoutMs?: number;
}

/** Opens (creating) the database at `file` (`:memory:` for one in memory). */
export function openSqliteFile(
  file: string,
  { durability, fresh = false, busyTimeoutMs }: SqliteFileOptions,
): Database.Database {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true });
    if (fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, busyTimeoutMs === undefined ? {} : { timeout: busyTimeoutMs });
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability}`);
    return db;
  } catch (error) {
    db?.close();
    throw unreadableState(file, error);
  }
}

/** True for SQLite's errors about a file that is not a database, or a damaged one. */
export function isUnreadable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

/** SQLite's own words name no file: say which one, and what to do with it. */
export function unreadableState(file: string, error: unknown): Error {
  const why = (error as Error).message;
  if (isUnreadable(error))
    return new Error(
      `${file} is not a sitemapkit state file, or is damaged (SQLite: ${why}); move it away or delete it, and run again`,
      { cause: error },
    );
  return new Error(`cannot open the state file ${file} (SQLite: ${why})`, { cause: error });
}
