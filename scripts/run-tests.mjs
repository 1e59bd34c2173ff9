// Runs every test/**/*.test.ts with Node's test runner (TypeScript loaded through tsx).
// Arguments narrow the run: `node scripts/run-tests.mjs test/parse` runs one folder.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(path) {
  if (statSync(path).isFile()) return path.endsWith('.test.ts') ? [path] : [];
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name === 'node_modules' || name === 'fixtures' ? [] : findTests(join(path, name))));
}

const roots = process.argv.slice(2);
const files = (roots.length ? roots : ['test']).flatMap(findTests);
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
