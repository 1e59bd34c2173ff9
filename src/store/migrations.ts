/**
 * The schema of the shared store, built by versioned migrations that the tool applies itself
 * whenever it opens a store: the same steps on SQLite and on PostgreSQL. Each migration runs in
 * its own transaction and is recorded in `sitemapkit_schema`; a store written by a newer
 * sitemapkit (a version this one does not know) is refused rather than misread.
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

/** A number every sitemapkit takes the same lock with on PostgreSQL while it migrates. */
const MIGRATION_LOCK = 7_372_616;

/**
 * Brings the store's schema to SCHEMA_VERSION; returns the versions applied (none when it was
 * there already). Several processes may start at once: they take turns, and only the first
 * applies anything.
 */
export async function migrate(db: StoreDatabase, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await lockMigrations(db, tx);
      // Inside the lock: two processes creating it at once would collide on PostgreSQL.
      await tx.exec(
        'CREATE TABLE IF NOT EXISTS sitemapkit_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
      );
      const newest = await schemaVersion(tx);
      const known = migrations.at(-1)!.version;
      if (newest > known)
        throw new Error(
          `the store at ${db.location} has schema version ${newest}, newer than this sitemapkit knows (${known}): upgrade sitemapkit`,
        );
      if (newest >= migration.version) return false;
      await tx.exec(migration.sql(db.dialect));
      await tx.run(`INSERT INTO sitemapkit_schema (version, name, applied_at) VALUES ($1, $2, ${db.dialect.nowMs})`, [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/** The newest migration applied to the store (0 for none). */
export async function schemaVersion(db: Queryable): Promise<number> {
  const [row] = await db.all<{ version: number | null }>('SELECT max(version) AS version FROM sitemapkit_schema');
  return row?.version ?? 0;
}

async function lockMigrations(db: StoreDatabase, tx: Queryable): Promise<void> {
  // SQLite's BEGIN IMMEDIATE already holds the one write lock.
  if (db.dialect.name === 'postgres') await tx.all('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
}
