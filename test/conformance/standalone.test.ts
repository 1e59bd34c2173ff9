/**
 * The repository stands alone (issue 10 §1): a clone with nothing beside it passes its own tests,
 * so nothing in src/, bench/, test/ or scripts/ may name a file outside it; and the published
 * package carries the library, never the vendored corpus or any test.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../helpers/paths.js';

const ROOT = REPO_DIR;
/** TypeScript under these folders runs compiled, from dist/ (tsconfig.json); the rest runs where it stands. */
const COMPILED = ['src', 'bench'];

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs|cjs|js)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith(join('test', 'conformance', 'corpus')));
}

/** Where a file's relative paths resolve from when it runs. */
function runsFrom(path: string): string {
  const compiled = COMPILED.some((folder) => path.startsWith(`${folder}/`)) && path.endsWith('.ts');
  return dirname(join(ROOT, compiled ? join('dist', path) : path));
}

const isInside = (path: string) => !relative(ROOT, path).startsWith('..');

test('no source, benchmark, test or script names a path outside the repository', () => {
  const files = ['src', 'bench', 'test', 'scripts'].flatMap(filesUnder);
  assert.ok(files.length > 100, `only ${files.length} files`);
  const outside: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    // Relative paths (module specifiers, new URL(…, import.meta.url), join(…)) in string literals.
    for (const [, literal] of text.matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)) {
      if (!isInside(resolve(runsFrom(file), literal!))) outside.push(`${file}: ${literal}`);
    }
    // Absolute paths of a machine (the checkout's neighbours, a home folder).
    for (const [, literal] of text.matchAll(/['"`](\/(?:work|home|Users|root|mnt|opt|srv)\/[^'"`]*)['"`]/g)) {
      outside.push(`${file}: ${literal}`);
    }
  }
  assert.deepEqual(outside, []);
});

test('the published package holds the library and the examples, not the corpus nor any test', () => {
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
  ) as [{ files: { path: string }[] }];
  const paths = pack.files.map((file) => file.path);
  assert.ok(paths.includes('dist/cli/sitemapkit.js'), 'the command is published');
  assert.ok(paths.includes('dist/src/index.js'), 'the library is published');
  // npm adds package.json and the top-level README, LICENSE and CHANGELOG to every package.
  const unexpected = paths.filter(
    (path) =>
      !path.startsWith('dist/src/') &&
      !path.startsWith('dist/cli/') &&
      // The TypeScript sources ship beside dist/ so that source and declaration maps resolve.
      !path.startsWith('src/') &&
      !path.startsWith('examples/') &&
      !/^(package\.json|(README|LICEN[CS]E|CHANGELOG)(\.\w+)?)$/.test(path),
  );
  assert.deepEqual(unexpected, []);
});
