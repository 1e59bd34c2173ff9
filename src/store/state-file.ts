/**
 * The one opener of the SQLite files that outlive a release (the generate and submission ledgers,
 * the tree's memory, crawl and audit state): opened as openSqliteFile does (an empty or damaged
 * file is an error naming it), then brought to its store's schema by the versioned migrations of
 * migrations.ts, each in its own transaction, recorded in the file's `sitemapkit_schema`.
 *
 * A file written by a newer sitemapkit is refused with both versions and what to do. A file that
 * records no version (written before versions were recorded) is adopted at the version whose
 * tables it holds, and refused when it holds tables of no version this sitemapkit knows.
 *
 * The access style of every state file: one better-sqlite3 connection, synchronous, each store
 * preparing its statements itself (their callers are synchronous: the generate writer's ledger,
 * the crawl and audit loops). The async StoreDatabase is the run store's alone, as it must speak
 * PostgreSQL too; both take their migrations from the one runner.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { bindings, DIALECTS } from './database.js';
import {
  layoutKey,
  migrationSteps,
  refuseNewer,
  SQLITE_LAYOUT_QUERY,
  type SchemaStatement,
  type StoreSchema,
} from './migrations.js';
import { isUnreadable, openSqliteFile, unreadableState, type SqliteFileOptions } from './sqlite-file.js';

export interface StateFileOptions extends SqliteFileOptions {
  schema: StoreSchema;
}

/** Opens (creating) the state file at `file` (`:memory:` for one in memory), its schema up to date. */
export function openStateFile(file: string, options: StateFileOptions): Database.Database {
  const db = openSqliteFile(file, options);
  try {
    migrateStateFile(db, file, options.schema);
    return db;
  } catch (error) {
    db.close();
    throw isUnreadable(error) ? unreadableState(file, error) : error;
  }
}

/**
 * Opens an existing state file to read while another process may write it (WAL lets both be):
 * no migration, but a file of a newer sitemapkit is refused all the same.
 */
export function openStateFileToRead(
  file: string,
  { schema, busyTimeoutMs }: { schema: StoreSchema; busyTimeoutMs?: number },
): Database.Database {
  const db = new Database(file, {
    readonly: true,
    fileMustExist: true,
    ...(busyTimeoutMs === undefined ? {} : { timeout: busyTimeoutMs }),
  });
  try {
    refuseNewer(schema, recordedVersion(db), file);
    return db;
  } catch (error) {
    db.close();
    throw isUnreadable(error) ? unreadableState(file, error) : error;
  }
}

function migrateStateFile(db: Database.Database, file: string, schema: StoreSchema): void {
  const found = recordedVersion(db);
  refuseNewer(schema, found, file);
  // The usual open: up to date, so no write lock is taken (a long record by another run may hold it).
  if (found === schema.migrations.at(-1)!.version) return;
  const context = { dialect: DIALECTS.sqlite, location: file, layouts: () => layoutsOf(schema) };
  for (const migration of schema.migrations)
    db.transaction(() => runSteps(migrationSteps(schema, migration, context), db)).immediate();
}

/** The version the file records (0 for none), read without a write lock. */
function recordedVersion(db: Database.Database): number {
  const recorded = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sitemapkit_schema'").get();
  if (recorded === undefined) return 0;
  const row = db.prepare<[], { version: number | null }>('SELECT max(version) AS version FROM sitemapkit_schema').get();
  return row?.version ?? 0;
}

/** The layout of the tables after each version, built in memory: what a file without versions is matched against. */
function layoutsOf(schema: StoreSchema): Map<string, number> {
  const probe = new Database(':memory:');
  try {
    const layouts = new Map<string, number>();
    for (const migration of schema.migrations) {
      probe.exec(migration.sql(DIALECTS.sqlite));
      layouts.set(layoutKey(probe.prepare(SQLITE_LAYOUT_QUERY).all()), migration.version);
    }
    return layouts;
  } finally {
    probe.close();
  }
}

/** Drives the steps of one migration on the synchronous connection, inside its transaction. */
function runSteps<T>(steps: Generator<SchemaStatement, T, unknown[]>, db: Database.Database): T {
  let next = steps.next();
  while (!next.done) {
    const statement = next.value;
    let rows: unknown[];
    try {
      rows = 'exec' in statement ? (db.exec(statement.exec), []) : rowsOf(db, statement.all, statement.params ?? []);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(rows);
  }
  return next.value;
}

function rowsOf(db: Database.Database, sql: string, params: readonly unknown[]): unknown[] {
  const statement = db.prepare(sql);
  return statement.reader ? statement.all(bindings(params)) : (statement.run(bindings(params)), []);
}

/**
 * Refuses a state file that holds `former.table`: a store of an earlier sitemapkit kept in a file
 * that now holds another (`former.what`, as "the crawl state"), with `advice`, what to do. A
 * missing, empty or unreadable file passes (its opener says what is wrong with it).
 */
export function refuseFormerStore(file: string, former: { table: string; what: string }, advice: string): void {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return;
  }
  try {
    const found = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(former.table);
    if (found !== undefined)
      throw new Error(`${file} holds ${former.what} of an earlier sitemapkit, which this one cannot resume; ${advice}`);
  } catch (error) {
    if (isUnreadable(error)) return;
    throw error;
  } finally {
    db.close();
  }
}

/** Deletes the SQLite file at `file` with its journal (-wal, -shm), for a fresh start. */
export function discardStateFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

/**
 * The state file at `file`, ready for work: discarded when `fresh`, otherwise kept for resuming,
 * unless it is `former`'s of an earlier sitemapkit, which cannot be resumed (refused with `advice`).
 */
export function keepOrDiscardStateFile(
  file: string,
  { fresh, former, advice }: { fresh: boolean; former: { table: string; what: string }; advice: string },
): string {
  if (fresh) discardStateFile(file);
  else refuseFormerStore(file, former, advice);
  return file;
}
