// Checks the package as npm would publish it (run by `npm test` after the build): the files it
// holds, the source maps and entry points in it, and then publint and @arethetypeswrong/cli on it.
// Exits 1 with a list of what is wrong.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const problems = [];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (name) => join(root, 'node_modules', '.bin', name);

// The build is in dist/ already: pack it as it is (--ignore-scripts: no second build).
const packDir = mkdtempSync(join(tmpdir(), 'sitemapkit-pack-'));
try {
  const [packed] = JSON.parse(
    execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  const files = new Set(packed.files.map((file) => file.path));

  for (const required of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'])
    if (!files.has(required)) problems.push(`${required} is not in the package`);
  for (const file of files) {
    if (/^(test|bench|scripts|\.ci|node_modules|dist\/(test|bench))\//.test(file))
      problems.push(`${file} is in the package: only the library, its sources and docs belong there`);
  }

  // Every entry point, the types beside it, and the command-line binary.
  const targets = [pkg.main, pkg.types, ...Object.values(pkg.bin)];
  for (const conditions of Object.values(pkg.exports))
    targets.push(...(typeof conditions === 'string' ? [conditions] : Object.values(conditions)));
  for (const target of targets) {
    const path = posix.normalize(target);
    if (!files.has(path)) problems.push(`${target}, named by package.json, is not in the package`);
  }
  for (const binary of Object.values(pkg.bin)) {
    if (!readFileSync(join(root, binary), 'utf8').startsWith('#!/usr/bin/env node'))
      problems.push(`${binary} does not start with #!/usr/bin/env node`);
  }

  // A source map must point at sources the package holds, or a debugger shows nothing.
  for (const file of files) {
    if (!file.endsWith('.map')) continue;
    const map = JSON.parse(readFileSync(join(root, file), 'utf8'));
    for (const source of map.sources) {
      const path = posix.normalize(posix.join(posix.dirname(file), map.sourceRoot ?? '', source));
      if (!files.has(path)) problems.push(`${file} points at ${path}, which is not in the package`);
    }
  }

  // publint: package.json fields against the files; attw: the types each entry point resolves to.
  const run = (command, args) => {
    try {
      execFileSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      problems.push(`${posix.basename(command)} ${args.join(' ')}:\n${error.stdout}${error.stderr}`);
    }
  };
  run(bin('publint'), ['run', join(packDir, packed.filename), '--strict']);
  run(bin('attw'), [join(packDir, packed.filename), '--profile', 'esm-only', '--format', 'ascii']);

  if (problems.length > 0) {
    console.error(`The package is not fit to publish:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`package ok: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} KiB packed`);
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
