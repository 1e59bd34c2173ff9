// Bundles the `sitemapkit` command into dist/cli/ (npm run build calls it after tsc).
//
// Why: compiled one module per source file, a command loaded some 300 files through Node's ESM
// loader (undici alone is a hundred) before it did anything: about 0.13 s of CPU at every start,
// more than a small validate's whole work. Bundled, the command's code and its pure-JavaScript
// dependencies are a few dozen files beside the entry (dist/cli/sitemapkit.js), so that
// version.ts finds package.json two folders up from any of them, as from dist/src. Each command's
// own code is a chunk of its own, loaded only when that command runs (src/cli/main.ts imports
// commands lazily).
//
// The library (dist/src) is not bundled: an importer's bundler and Node resolve it as they like.
// better-sqlite3 (a native addon) and pg (optional, loaded only for a postgres:// store) stay
// outside, resolved from node_modules at run time.
import { chmodSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const OUT_DIR = 'dist/cli';

const { metafile } = await build({
  entryPoints: { sitemapkit: 'src/cli/main.ts' },
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'pg'],
  // The CommonJS dependencies bundled in (undici) call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});
// The chunks' names change with their content: an earlier build's would pile up, and be packed.
// They go after the new ones are written, never the folder first: a command already running
// (a test, while something builds again) finds every chunk of its own build, whose names the
// same content keeps.
const written = new Set(Object.keys(metafile.outputs));
for (const name of readdirSync(OUT_DIR))
  if (!written.has(join(OUT_DIR, name))) rmSync(join(OUT_DIR, name), { recursive: true, force: true });
chmodSync(`${OUT_DIR}/sitemapkit.js`, 0o755);
