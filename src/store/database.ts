/**
 * The one store interface: a SQL database that holds the state shared by the processes of a run,
 * with two drivers behind it. Embedded SQLite (better-sqlite3) is the default, one file on one
 * machine (local processes share it through its locks); PostgreSQL (node-postgres) is for workers
 * on many machines. Both speak the same SQL here: parameters are `$1, $2…` in either, and the few
 * places where the engines differ (the clock, row locks, identity columns) are the dialect's.
 *
 * Statements run one at a time per process on SQLite (its connection is synchronous), and on a
 * small pool of connections on PostgreSQL. A transaction's work must not wait on the network: it
 * holds locks other workers wait for.
 */
import { openSqliteFile, type Durability } from './sqlite-file.js';
import type Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

/** What differs between the engines, as SQL fragments. */
export interface Dialect {
  name: DialectName;
  /** The database's clock in epoch milliseconds: one clock for every machine of a run. */
  nowMs: string;
  /** A generated key column: `id <identity>`. */
  identity: string;
  /** Appended to a SELECT whose rows the transaction takes: other workers skip them instead of waiting. */
  skipLocked: string;
  /** The larger of two values: `${greatest}(a, b)`. */
  greatest: string;
  /**
   * A FROM item whose rows are the objects of a JSON array parameter, one column per key: many
   * rows in one statement (one round trip) on either engine, named `r`. Bind JSON.stringify(rows).
   */
  jsonRows(param: string, columns: readonly JsonColumn[]): string;
}

/** A column read from JSON rows: its key and SQL type. */
export type JsonColumn = readonly [name: string, type: 'bigint' | 'integer' | 'text'];

export const DIALECTS: Record<DialectName, Dialect> = {
  sqlite: {
    name: 'sqlite',
    nowMs: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
    identity: 'INTEGER PRIMARY KEY',
    // SQLite has one writer at a time: a write transaction (BEGIN IMMEDIATE) holds every row.
    skipLocked: '',
    greatest: 'max',
    jsonRows: (param, columns) =>
      `(SELECT ${columns.map(([name]) => `value ->> '${name}' AS ${name}`).join(', ')} FROM json_each(${param})) AS r`,
  },
  postgres: {
    name: 'postgres',
    nowMs: '(extract(epoch from clock_timestamp()) * 1000)::bigint',
    identity: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
    skipLocked: 'FOR UPDATE SKIP LOCKED',
    greatest: 'GREATEST',
    jsonRows: (param, columns) =>
      `jsonb_to_recordset(${param}::jsonb) AS r(${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`,
  },
};

export interface Queryable {
  /** The rows of one statement (parameters `$1, $2…`). */
  all<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs one statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs several statements without parameters (schema changes). */
  exec(sql: string): Promise<void>;
}

export interface StoreDatabase extends Queryable {
  readonly dialect: Dialect;
  /** Where the data lives, for messages: a file, or the server's URL without its password. */
  readonly location: string;
  /**
   * Runs `work` in one transaction that takes the write lock at once (SQLite: BEGIN IMMEDIATE);
   * commits when it resolves, rolls back when it throws. PostgreSQL's deadlocks and serialization
   * failures are retried, so `work` must be safe to run again.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** True when `location` names a PostgreSQL server (postgres:// or postgresql://). */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens the store at `location`: a postgres:// URL, or the path of a SQLite file (created, with its
 * directory, when missing).
 */
export async function openStoreDatabase(
  location: string,
  { durability = 'NORMAL' }: { durability?: Durability | undefined } = {},
): Promise<StoreDatabase> {
  if (isPostgresLocation(location)) return PostgresDatabase.connect(location);
  // Workers started together open one file at once: the first to switch it to WAL holds a lock
  // the others must wait out, not fail on.
  return whenNotBusy(() => new SqliteDatabase(location === ':memory:' ? location : resolve(location), durability));
}

/** A postgres:// URL as it may be printed: the password replaced. */
export function redactLocation(location: string): string {
  if (!isPostgresLocation(location)) return location;
  try {
    const url = new URL(location);
    if (url.password !== '') url.password = '***';
    return url.href;
  } catch {
    return 'postgres://…';
  }
}

/**
 * How long a SQLite writer waits for another connection's transaction before it fails. The wait
 * is ours, asleep between tries, not SQLite's busy timeout: that one blocks the whole process,
 * and so the very transaction it waits for when both connections are in one process.
 */
const SQLITE_BUSY_WAIT_MS = 60_000;

class SqliteDatabase implements StoreDatabase {
  readonly dialect = DIALECTS.sqlite;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** The connection is one: statements and transactions of this process take turns on it. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly location: string,
    durability: Durability,
  ) {
    // Commits reach the operating system at once, so a killed worker (kill -9) loses nothing it
    // committed; NORMAL (the default) skips only the fsync per commit, which a power cut may cost,
    // OFF (a crawl state of one process, started again after a power cut) every fsync.
    this.db = openSqliteFile(location, { durability, busyTimeoutMs: 0 });
    this.db.pragma('foreign_keys = ON');
  }

  all<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return this.inTurn(() => whenNotBusy(() => this.allNow<Row>(sql, params)));
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.inTurn(() => whenNotBusy(() => this.runNow(sql, params)));
  }

  exec(sql: string): Promise<void> {
    return this.inTurn(() => whenNotBusy(() => void this.db.exec(sql)));
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      await whenNotBusy(() => this.db.exec('BEGIN IMMEDIATE'));
      const tx: Queryable = {
        all: <Row>(sql: string, params: readonly unknown[] = []) => Promise.resolve(this.allNow<Row>(sql, params)),
        run: (sql, params = []) => Promise.resolve(this.runNow(sql, params)),
        exec: (sql) => Promise.resolve(this.db.exec(sql)).then(() => undefined),
      };
      try {
        const result = await work(tx);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.turn.catch(() => undefined);
    this.db.close();
  }

  private inTurn<T>(work: () => T | Promise<T>): Promise<T> {
    const result = this.turn.then(work, work);
    this.turn = result.catch(() => undefined);
    return result;
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private allNow<Row>(sql: string, params: readonly unknown[]): Row[] {
    const statement = this.prepare(sql);
    const bound = bindings(params);
    return (statement.reader ? statement.all(bound) : (statement.run(bound), [])) as Row[];
  }

  private runNow(sql: string, params: readonly unknown[]): number {
    return this.prepare(sql).run(bindings(params)).changes;
  }
}

/** Runs `statement`, trying again while another connection holds the write lock. */
async function whenNotBusy<T>(statement: () => T): Promise<T> {
  const deadline = Date.now() + SQLITE_BUSY_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      return statement();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await sleep(pause);
    }
  }
}

/** SQLite's busy errors (SQLITE_BUSY and its extended codes), also where the opener wrapped them. */
function isBusy(error: unknown): boolean {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return [code, cause?.code].some((value) => typeof value === 'string' && value.startsWith('SQLITE_BUSY'));
}

/** `$1, $2…` are named parameters to SQLite: bound by their number. Booleans become 0 and 1. */
export function bindings(params: readonly unknown[]): Record<number, unknown> {
  const bound: Record<number, unknown> = {};
  params.forEach((value, index) => {
    bound[index + 1] = typeof value === 'boolean' ? Number(value) : value;
  });
  return bound;
}

/** Connections one process keeps to the server: its workers' claims and commits share them. */
const POSTGRES_POOL_SIZE = 4;
/** Deadlock and serialization failures: the transaction is tried again. */
const RETRIED_SQLSTATES = new Set(['40001', '40P01']);
const TRANSACTION_ATTEMPTS = 5;

/** The type OID of PostgreSQL's bigint (int8), counts and epoch ms here. */
const INT8_OID = 20;

/** 64-bit integers as numbers, not strings: every value here stays below 2^53. */
function typesOf(driver: typeof pg): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text') =>
      oid === INT8_OID
        ? Number
        : (driver.types.getTypeParser(oid, format) as (
            value: string,
          ) => unknown)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

class PostgresDatabase implements StoreDatabase {
  readonly dialect = DIALECTS.postgres;
  readonly location: string;

  private constructor(
    private readonly pool: pg.Pool,
    location: string,
  ) {
    this.location = redactLocation(location);
  }

  static async connect(location: string): Promise<PostgresDatabase> {
    // Loaded here, not at start: most runs use SQLite, and pg costs every command ~50 ms to load.
    const driver = (await import('pg')).default;
    const pool = new driver.Pool({ connectionString: location, max: POSTGRES_POOL_SIZE, types: typesOf(driver) });
    // An idle connection the server dropped must not crash the process: the next query reconnects.
    pool.on('error', () => undefined);
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      await pool.end();
      throw new Error(`cannot reach the store at ${redactLocation(location)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return new PostgresDatabase(pool, location);
  }

  async all<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, params as unknown[])).rows as Row[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.pool.query(sql, params as unknown[])).rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      const tx: Queryable = {
        all: async <Row>(sql: string, params: readonly unknown[] = []) =>
          (await client.query(sql, params as unknown[])).rows as Row[],
        run: async (sql, params = []) => (await client.query(sql, params as unknown[])).rowCount ?? 0,
        exec: async (sql) => {
          await client.query(sql);
        },
      };
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        const code = (error as { code?: string }).code;
        if (code === undefined || !RETRIED_SQLSTATES.has(code) || attempt >= TRANSACTION_ATTEMPTS) throw error;
      } finally {
        client.release(broken);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
