/**
 * PostgreSQL for a test file: a database of its own on the server of the test run.
 *
 * The server is the one in SITEMAPKIT_TEST_PG (a superuser's postgres:// URL): set by hand to use
 * a server of your own, or by scripts/run-tests.mjs, which starts one for the whole run. A test
 * file run alone without it (`node --import tsx --test file.test.ts`) starts a server of its own,
 * stopped when the file's tests end. No test is skipped for want of PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import pg from 'pg';
import { startPostgresServer, type PostgresServer } from './postgres-server.js';

let ownServer: Promise<PostgresServer> | undefined;

/** The server's URL: the run's, or one started for this process (once) and stopped at its end. */
async function serverUrl(): Promise<string> {
  const given = process.env.SITEMAPKIT_TEST_PG;
  if (given !== undefined && given !== '') return given;
  if (ownServer === undefined) {
    ownServer = startPostgresServer();
    after(async () => (await ownServer!).stop());
  }
  return (await ownServer).url;
}

/**
 * A fresh, empty database on the test server; dropped after the file's tests. Resolves to its
 * postgres:// URL.
 */
export async function createTestDatabase(): Promise<string> {
  const server = await serverUrl();
  const name = `sitemapkit_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(server, (client) => client.query(`CREATE DATABASE ${name}`));
  after(() =>
    withAdmin(server, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined),
  );
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}

/** A driver of the run store, for suites run over each: every `location()` is a fresh, empty store. */
export interface QueueDriver {
  name: 'SQLite' | 'PostgreSQL';
  location: () => Promise<string>;
}

/** Both drivers: a SQLite file in a fresh directory, and a fresh PostgreSQL database, each removed after the tests. */
export const queueDrivers: readonly QueueDriver[] = [
  {
    name: 'SQLite',
    location: () => {
      const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-store-'));
      after(() => rmSync(dir, { recursive: true, force: true }));
      return Promise.resolve(join(dir, 'runs.sqlite'));
    },
  },
  { name: 'PostgreSQL', location: createTestDatabase },
];

/** One fresh store of each driver, for tests that must hold on each. */
export async function storeLocations(): Promise<{ name: string; location: string }[]> {
  return Promise.all(queueDrivers.map(async ({ name, location }) => ({ name, location: await location() })));
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
