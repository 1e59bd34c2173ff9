/**
 * The store interface on both drivers: the same statements, transactions that commit or roll
 * back whole, and the schema built by the versioned migrations (applied once, by one of several
 * processes starting at once; a store of a newer schema refused).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openStoreDatabase, redactLocation, type StoreDatabase } from '../../src/store/database.js';
import {
  migrate,
  MIGRATIONS,
  RUN_SCHEMA,
  SCHEMA_VERSION,
  schemaVersion,
  type Migration,
} from '../../src/store/migrations.js';
import { storeLocations } from '../helpers/postgres.js';

const stores = await storeLocations();

async function withDatabase<T>(location: string, work: (db: StoreDatabase) => Promise<T>): Promise<T> {
  const db = await openStoreDatabase(location);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

for (const { name, location } of stores) {
  describe(`the store on ${name}`, () => {
    test('migrations build the whole schema once, and record each version', async () => {
      await withDatabase(location, async (db) => {
        assert.deepEqual(
          await migrate(db),
          MIGRATIONS.map((m) => m.version),
        );
        assert.deepEqual(await migrate(db), [], 'a second open applies nothing');
        assert.equal(await schemaVersion(db), SCHEMA_VERSION);
        const rows = await db.all<{ version: number; name: string }>(
          'SELECT version, name FROM sitemapkit_schema ORDER BY version',
        );
        assert.deepEqual(
          rows,
          MIGRATIONS.map(({ version, name }) => ({ version, name })),
        );
        // Every table of the schema answers, empty.
        for (const table of ['runs', 'run_hosts', 'run_items', 'run_leases', 'run_workers', 'run_stripped'])
          assert.deepEqual(await db.all(`SELECT count(*) AS n FROM sitemapkit_${table}`), [{ n: 0 }]);
      });
    });

    test('a later migration applies to a store at an earlier version', async () => {
      const later: Migration = {
        version: SCHEMA_VERSION + 1,
        name: 'a test table',
        sql: (d) => `CREATE TABLE sitemapkit_test_later (id ${d.identity}, note TEXT NOT NULL)`,
      };
      await withDatabase(location, async (db) => {
        await migrate(db);
        assert.deepEqual(await migrate(db, { ...RUN_SCHEMA, migrations: [...MIGRATIONS, later] }), [later.version]);
        await db.run('INSERT INTO sitemapkit_test_later (note) VALUES ($1)', ['kept']);
        assert.deepEqual(await db.all('SELECT id, note FROM sitemapkit_test_later'), [{ id: 1, note: 'kept' }]);
        // This sitemapkit knows only up to SCHEMA_VERSION: the store is newer, and refused.
        await assert.rejects(migrate(db), /schema version \d+, newer than this sitemapkit knows .*upgrade/);
        await db.exec('DROP TABLE sitemapkit_test_later');
        await db.run('DELETE FROM sitemapkit_schema WHERE version = $1', [later.version]);
      });
    });

    test('a migration that fails is rolled back whole, and the store stays at its version', async () => {
      const broken: Migration = {
        version: SCHEMA_VERSION + 1,
        name: 'a step that breaks halfway',
        sql: () => `CREATE TABLE sitemapkit_test_broken (note TEXT);
ALTER TABLE sitemapkit_runs ADD COLUMN note TEXT;
INSERT INTO sitemapkit_test_nowhere VALUES (1);`,
      };
      await withDatabase(location, async (db) => {
        await migrate(db);
        await assert.rejects(migrate(db, { ...RUN_SCHEMA, migrations: [...MIGRATIONS, broken] }), {
          message: new RegExp(
            `^cannot bring .* \\(the run store\\) from schema version ${SCHEMA_VERSION} to ${broken.version} \\(a step that breaks halfway\\): .*sitemapkit_test_nowhere.*; it is left at version ${SCHEMA_VERSION}$`,
          ),
        });
        assert.equal(await schemaVersion(db), SCHEMA_VERSION);
        await assert.rejects(db.all('SELECT count(*) FROM sitemapkit_test_broken'), 'the new table is gone');
        await assert.rejects(db.all('SELECT note FROM sitemapkit_runs'), 'the new column is gone');
      });
    });

    test('processes that open the store at once migrate it once', async () => {
      const fresh = name === 'SQLite' ? location.replace(/runs\.sqlite$/, 'race.sqlite') : location;
      const dbs = await Promise.all([1, 2, 3].map(() => openStoreDatabase(fresh)));
      try {
        const applied = await Promise.all(dbs.map((db) => migrate(db)));
        assert.equal(applied.flat().length, name === 'SQLite' ? SCHEMA_VERSION : 0, 'each version applied once');
        assert.equal(await schemaVersion(dbs[0]!), SCHEMA_VERSION);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
    });

    test('a transaction commits whole, or rolls back whole when it throws', async () => {
      await withDatabase(location, async (db) => {
        await db.exec(`CREATE TABLE sitemapkit_test_tx (id ${db.dialect.identity}, note TEXT NOT NULL UNIQUE)`);
        try {
          await db.transaction(async (tx) => {
            await tx.run('INSERT INTO sitemapkit_test_tx (note) VALUES ($1), ($2)', ['a', 'b']);
          });
          await assert.rejects(
            db.transaction(async (tx) => {
              await tx.run('INSERT INTO sitemapkit_test_tx (note) VALUES ($1)', ['c']);
              await tx.run('INSERT INTO sitemapkit_test_tx (note) VALUES ($1)', ['a']);
            }),
          );
          const rows = await db.all<{ note: string }>('SELECT note FROM sitemapkit_test_tx ORDER BY note');
          assert.deepEqual(
            rows.map((r) => r.note),
            ['a', 'b'],
          );
          // RETURNING, upserts and booleans read the same on both engines.
          const returned = await db.all<{ id: number }>(
            'INSERT INTO sitemapkit_test_tx (note) VALUES ($1) ON CONFLICT (note) DO NOTHING RETURNING id',
            ['d'],
          );
          assert.equal(returned.length, 1);
          assert.equal(typeof returned[0]!.id, 'number');
          const [clock] = await db.all<{ now: number }>(`SELECT ${db.dialect.nowMs} AS now`);
          assert.ok(Math.abs(clock!.now - Date.now()) < 5_000, 'the database clock is epoch ms');
        } finally {
          await db.exec('DROP TABLE sitemapkit_test_tx');
        }
      });
    });
  });
}

test('a SQLite file locked by another connection is opened once the lock is let go, not refused', async () => {
  // Workers started together race to switch a new file to WAL; the loser meets a lock like this one.
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-busy-open-'));
  const file = join(dir, 'runs.sqlite');
  const holder = new Database(file);
  holder.exec('CREATE TABLE held (x); BEGIN EXCLUSIVE; INSERT INTO held VALUES (1)');
  const letGo = setTimeout(() => holder.exec('COMMIT'), 150);
  try {
    const opened = Date.now();
    await withDatabase(file, async (db) => {
      assert.ok(Date.now() - opened >= 100, 'it waited for the lock');
      assert.deepEqual(await db.all('SELECT x FROM held'), [{ x: 1 }]);
    });
  } finally {
    clearTimeout(letGo);
    holder.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a PostgreSQL URL is printed without its password', () => {
  assert.equal(
    redactLocation('postgres://user:secret@db.example:5432/runs'),
    'postgres://user:***@db.example:5432/runs',
  );
  assert.equal(redactLocation('/var/lib/runs.sqlite'), '/var/lib/runs.sqlite');
});
