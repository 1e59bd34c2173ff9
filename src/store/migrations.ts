/**
 * Versioned migrations, the one way every store that outlives a release builds its schema: the
 * run store (SQLite or PostgreSQL) through `migrate`, each state file (SQLite) through
 * `openStateFile`, both with the steps of `migrationSteps`. Each migration runs in its own
 * transaction and is recorded in the store's `sitemapkit_schema`; a store written by a newer
 * sitemapkit (a version this one does not know) is refused rather than misread. Below, the run
 * store's migrations; each state file's are beside its store.
 *
 * Add a migration at the end, never edit one that shipped: stores in use have applied it.
 */
import type { Dialect, Queryable, StoreDatabase } from './database.js';

export interface Migration {
  version: number;
  name: string;
  /** The statements, for the dialect at hand. */
  sql: (dialect: Dialect) => string;
}

/**
 * A run: its name (unique), its kind of work, and the options every worker of it follows (JSON).
 * Its state: 'starting' while its creator does the first visits alone, 'running', 'done' once no
 * work is left; `outputs_at` when its outputs were written, and by whom.
 *
 * Hosts: every host (origin) of a run, with its politeness: at most `concurrency` leases at once,
 * `delay_ms` between two requests (unknown, null, until its robots.txt is read), and `next_at`, the
 * earliest time a new lease may start a request there.
 *
 * Items: the work, one row per URL of a run (a page to crawl, a site to walk, a URL to audit),
 * unique on the run and the URL, so found twice or done twice it counts once. `outcome` is null
 * while it is to do; `lease_id` names the lease that holds it (free again once that lease expired).
 * `result` is the kind's own record (JSON): a listed page's entry, a site's summary, an audit row.
 *
 * Facts: what a run learnt that every worker must know (where a crawl's start URL landed), by key.
 * Leases: a worker's hold on one host's batch, until `expires_at` (renewed while it works).
 * Workers: each process of a run, for progress and for counts that no two workers write at once.
 */
const RUNS: Migration = {
  version: 1,
  name: 'runs, hosts, items, leases and workers',
  sql: (d) => `
CREATE TABLE sitemapkit_runs (
  id ${d.identity},
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  options TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  done_at BIGINT,
  outputs_at BIGINT,
  outputs_by TEXT
);
CREATE TABLE sitemapkit_run_facts (
  run_id BIGINT NOT NULL REFERENCES sitemapkit_runs (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
CREATE TABLE sitemapkit_run_hosts (
  id ${d.identity},
  run_id BIGINT NOT NULL REFERENCES sitemapkit_runs (id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  concurrency INTEGER NOT NULL,
  delay_ms INTEGER,
  next_at BIGINT NOT NULL DEFAULT 0,
  UNIQUE (run_id, host)
);
CREATE INDEX sitemapkit_run_hosts_due ON sitemapkit_run_hosts (run_id, next_at);
CREATE TABLE sitemapkit_run_items (
  id ${d.identity},
  run_id BIGINT NOT NULL REFERENCES sitemapkit_runs (id) ON DELETE CASCADE,
  host_id BIGINT NOT NULL REFERENCES sitemapkit_run_hosts (id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  depth INTEGER NOT NULL DEFAULT 0,
  chain INTEGER NOT NULL DEFAULT 0,
  found_on BIGINT,
  attempts INTEGER NOT NULL DEFAULT 0,
  not_before BIGINT NOT NULL DEFAULT 0,
  lease_id BIGINT,
  outcome TEXT,
  detail TEXT,
  fetched INTEGER NOT NULL DEFAULT 0,
  result TEXT,
  done_by BIGINT,
  UNIQUE (run_id, url)
);
CREATE INDEX sitemapkit_run_items_todo ON sitemapkit_run_items (run_id, host_id, depth, id) WHERE outcome IS NULL;
CREATE TABLE sitemapkit_run_leases (
  id ${d.identity},
  run_id BIGINT NOT NULL REFERENCES sitemapkit_runs (id) ON DELETE CASCADE,
  host_id BIGINT NOT NULL REFERENCES sitemapkit_run_hosts (id) ON DELETE CASCADE,
  worker_id BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX sitemapkit_run_leases_host ON sitemapkit_run_leases (host_id, expires_at);
CREATE INDEX sitemapkit_run_leases_worker ON sitemapkit_run_leases (worker_id);
CREATE TABLE sitemapkit_run_workers (
  id ${d.identity},
  run_id BIGINT NOT NULL REFERENCES sitemapkit_runs (id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  seen_at BIGINT NOT NULL,
  stopped_at BIGINT,
  fetched INTEGER NOT NULL DEFAULT 0,
  done INTEGER NOT NULL DEFAULT 0,
  batches INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sitemapkit_run_workers_run ON sitemapkit_run_workers (run_id);
`,
};

/**
 * Query parameters a crawl removed from URLs it met (the report's "stripped" section), per run:
 * the URL as met, the name, and the URL as kept.
 */
const STRIPPED: Migration = {
  version: 2,
  name: 'query parameters stripped by a crawl',
  sql: () => `
CREATE TABLE sitemapkit_run_stripped (
  run_id BIGINT NOT NULL REFERENCES sitemapkit_runs (id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  name TEXT NOT NULL,
  kept TEXT NOT NULL,
  UNIQUE (run_id, url, name)
);
`,
};

/**
 * What an item needs to be done beyond its URL, as the kind records it (JSON) when it adds the
 * item: an audited URL's listing (its sitemap, line, lastmod, alternates and repeats).
 */
const ITEM_INPUT: Migration = {
  version: 3,
  name: "an item's input",
  sql: () => `ALTER TABLE sitemapkit_run_items ADD COLUMN input TEXT;`,
};

/**
 * A run's budget of requests, counted across all its workers (a crawl's --max-pages): `budget` as
 * its creator set it (null: no limit), `budget_left` what no lease has taken yet. A claim takes
 * the budget of its batch from `budget_left` (a lease's `budget`), and its commit gives back what
 * the batch did not spend; an expired lease's budget comes back when the lease is deleted.
 */
const BUDGET: Migration = {
  version: 4,
  name: "a run's budget of requests",
  sql: () => `
ALTER TABLE sitemapkit_runs ADD COLUMN budget BIGINT;
ALTER TABLE sitemapkit_runs ADD COLUMN budget_left BIGINT;
ALTER TABLE sitemapkit_run_leases ADD COLUMN budget INTEGER;
`,
};

/**
 * The query variants of each path a crawl run fetched (`path`: the URL before its "?"), counted
 * across all its workers, so --max-query-variants holds for the run as a whole.
 */
const QUERY_VARIANTS: Migration = {
  version: 5,
  name: 'query variants fetched per path',
  sql: () => `
CREATE TABLE sitemapkit_run_query_variants (
  run_id BIGINT NOT NULL REFERENCES sitemapkit_runs (id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  fetched INTEGER NOT NULL,
  PRIMARY KEY (run_id, path)
);
`,
};

export const MIGRATIONS: readonly Migration[] = [RUNS, STRIPPED, ITEM_INPUT, BUDGET, QUERY_VARIANTS];

/** The schema version this sitemapkit writes: the last migration's. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** The run store's schema: the migrations above, on SQLite or PostgreSQL. */
export const RUN_SCHEMA: StoreSchema = { title: 'the run store', migrations: MIGRATIONS };

/** The migrations of one store, in order (versions 1, 2, 3…), and how messages name its files. */
export interface StoreSchema {
  /** What the store is, for messages: "the generate ledger". */
  title: string;
  migrations: readonly Migration[];
  /** What a user may do, besides upgrading, with a file this sitemapkit cannot use ("crawl again without --resume"). */
  otherwise?: string;
}

/** A number every sitemapkit takes the same lock with on PostgreSQL while it migrates. */
const MIGRATION_LOCK = 7_372_616;

/**
 * What a migration step asks its driver to run: `exec`, statements without parameters; `all`, one
 * statement (parameters `$1, $2…`) whose rows come back.
 */
export type SchemaStatement = { exec: string } | { all: string; params?: readonly unknown[] };

/** Where a migration step runs. */
export interface MigrationContext {
  dialect: Dialect;
  /** The file or the server, for messages. */
  location: string;
  /**
   * SQLite state files only: the layout of the tables (layoutKey) after each version, so that a
   * file written before versions were recorded is adopted at the version its tables match.
   */
  layouts?: () => ReadonlyMap<string, number>;
}

const CREATE_SCHEMA_TABLE =
  'CREATE TABLE IF NOT EXISTS sitemapkit_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)';

/** Records a version as applied ($1), under its name ($2), now. */
const record = (dialect: Dialect): string =>
  `INSERT INTO sitemapkit_schema (version, name, applied_at) VALUES ($1, $2, ${dialect.nowMs})`;

/**
 * The tables of a SQLite database and their columns, in order: what decides whether a file that
 * records no version holds the tables of one this sitemapkit knows.
 */
export const SQLITE_LAYOUT_QUERY = `SELECT m.name AS tbl, p.name AS col, p.type, p."notnull" AS required, p.dflt_value AS dflt, p.pk
FROM sqlite_master m JOIN pragma_table_info(m.name) p
WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite%' AND m.name != 'sitemapkit_schema'
ORDER BY m.name, p.cid`;

/** The rows of SQLITE_LAYOUT_QUERY as one comparable string. */
export function layoutKey(rows: readonly unknown[]): string {
  return JSON.stringify(rows);
}

/**
 * One migration in its transaction, as the statements it needs: the one runner of every store,
 * written as a generator so that the run store (async, SQLite or PostgreSQL) and the state files
 * (synchronous: their stores open in a constructor) take the very same steps. Yields statements
 * and receives their rows; returns the version it recorded, or undefined when there was nothing to do.
 */
export function* migrationSteps(
  schema: StoreSchema,
  migration: Migration,
  context: MigrationContext,
): Generator<SchemaStatement, number | undefined, unknown[]> {
  // SQLite's BEGIN IMMEDIATE already holds the one write lock.
  if (context.dialect.name === 'postgres') yield { all: 'SELECT pg_advisory_xact_lock($1)', params: [MIGRATION_LOCK] };
  // Inside the lock: two processes creating it at once would collide on PostgreSQL.
  yield { exec: CREATE_SCHEMA_TABLE };
  const [row] = (yield { all: 'SELECT max(version) AS version FROM sitemapkit_schema' }) as {
    version: number | null;
  }[];
  const found = row?.version ?? 0;
  refuseNewer(schema, found, context.location);
  if (found >= migration.version) return undefined;
  if (found === 0 && context.layouts !== undefined) {
    const tables = yield { all: SQLITE_LAYOUT_QUERY };
    if (tables.length > 0) {
      const version = context.layouts().get(layoutKey(tables));
      if (version === undefined) throw otherLayout(schema, context.location);
      const adopted = schema.migrations.find((m) => m.version === version)!;
      yield { all: record(context.dialect), params: [version, `${adopted.name} (adopted)`] };
      return version;
    }
  }
  try {
    yield { exec: migration.sql(context.dialect) };
  } catch (error) {
    throw new Error(
      `cannot bring ${context.location} (${schema.title}) from schema version ${found} to ${migration.version} (${migration.name}): ${(error as Error).message}; it is left at version ${found}`,
      { cause: error },
    );
  }
  yield { all: record(context.dialect), params: [migration.version, migration.name] };
  return migration.version;
}

/** Refuses a store written by a newer sitemapkit: its tables may mean what this one cannot know. */
export function refuseNewer(schema: StoreSchema, found: number, location: string): void {
  const known = schema.migrations.at(-1)!.version;
  if (found <= known) return;
  const otherwise = schema.otherwise === undefined ? '' : `, or ${schema.otherwise}`;
  throw new Error(
    `${location} (${schema.title}) has schema version ${found}, newer than this sitemapkit knows (${known}): it was written by a newer sitemapkit; upgrade sitemapkit to use it${otherwise}`,
  );
}

function otherLayout(schema: StoreSchema, location: string): Error {
  return new Error(
    `${location} holds tables that are not ${schema.title} of any version this sitemapkit knows (written by another version of sitemapkit, or by another program): ${schema.otherwise ?? 'move it away'}`,
  );
}

/**
 * Brings the store's schema to its last migration's version; returns the versions applied (none
 * when it was there already). Several processes may start at once: they take turns, and only the
 * first applies anything.
 */
export async function migrate(db: StoreDatabase, schema: StoreSchema = RUN_SCHEMA): Promise<number[]> {
  const applied: number[] = [];
  const context = { dialect: db.dialect, location: db.location };
  for (const migration of schema.migrations) {
    const version = await db.transaction((tx) => runSteps(migrationSteps(schema, migration, context), tx));
    if (version !== undefined) applied.push(version);
  }
  return applied;
}

/** Drives the steps of one migration on an async connection. */
async function runSteps<T>(steps: Generator<SchemaStatement, T, unknown[]>, tx: Queryable): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const statement = next.value;
    let rows: unknown[];
    try {
      rows = 'exec' in statement ? (await tx.exec(statement.exec), []) : await tx.all(statement.all, statement.params);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(rows);
  }
  return next.value;
}

/** The newest migration applied to the store (0 for none). */
export async function schemaVersion(db: Queryable): Promise<number> {
  const [row] = await db.all<{ version: number | null }>('SELECT max(version) AS version FROM sitemapkit_schema');
  return row?.version ?? 0;
}
