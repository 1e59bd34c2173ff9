/**
 * `sitemapkit/web` has no Node built-in anywhere in its module graph: esbuild bundles it for the
 * neutral platform (which knows no built-in, so any `node:` or bare `fs`-style import fails the
 * build), the graph holds none of the Node-only dependencies, and the bundle uses no Node global.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import { REPO_DIR } from '../helpers/runtimes.js';

test('the web entry bundles for the neutral platform without any Node built-in', async () => {
  const result = await build({
    entryPoints: [join(REPO_DIR, 'src/web.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    metafile: true,
    logLevel: 'silent',
  });
  assert.deepEqual(result.errors, []);
  const inputs = Object.keys(result.metafile.inputs);
  assert.ok(inputs.includes('src/parse/parser.ts') && inputs.includes('src/generate/document-writer.ts'));
  assert.deepEqual(
    inputs.filter(
      (path) => path.startsWith('node:') || /node_modules|\/(node|node-writer)\.ts$|children\.ts$/.test(path),
    ),
    [],
  );
  const code = result.outputFiles[0]!.text;
  for (const global of [/\bBuffer\./, /\bprocess\./, /\brequire\(/, /\bsetImmediate\(/, /\b__dirname\b/])
    assert.doesNotMatch(code, global);
});

test('a module that imports a Node built-in fails the same bundling (the check can fail)', async () => {
  await assert.rejects(
    build({
      stdin: { contents: "export { readFile } from 'node:fs/promises';", loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      logLevel: 'silent',
    }),
    /Could not resolve "node:fs\/promises"/,
  );
});
