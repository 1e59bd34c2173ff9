/**
 * What the binary pays to start and end, beyond its work:
 * - a command that reads only files does not load the HTTP stack (src/http/undici.ts): undici
 *   was a third of a small validate's CPU time;
 * - a short command over HTTP does not wait for V8's optimizing compile of undici's HTTP parser
 *   (llhttp, src/cli/v8-tuning.ts), which took 150 ms of CPU and 30 MB of memory in every such
 *   run. V8's own trace of its wasm compiles says which compiler ran.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { REPO_DIR } from '../helpers/paths.js';
import { startSite, urlset, XML, type Site } from '../helpers/site-server.js';

/** A name in undici's HTTP parser (llhttp) that no other code loaded has. */
const LLHTTP_CALLBACK = 'wasm_on_headers_complete';

describe('a command that reads only files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-startup-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Whether `sitemapkit ARGS` (exiting with `code`) loaded undici, wherever its code stands (a
   * chunk of the bundle, node_modules): told by the HTTP parser's callbacks in a loaded file.
   */
  async function loadsUndici(args: readonly string[], code: number): Promise<boolean> {
    const list = join(dir, 'loaded.txt');
    writeFileSync(list, '');
    const run = await runCli([...args], {
      nodeArgs: ['--import', join(REPO_DIR, 'test/helpers/loaded-modules.mjs')],
      env: { SITEMAPKIT_TEST_LOADED: list },
    });
    assert.equal(run.code, code, run.stderr);
    const files = readFileSync(list, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url));
    assert.ok(files.includes(CLI_PATH), `the hook saw the command load: ${files.join(', ')}`);
    return files.some((file) => readFileSync(file, 'utf8').includes(LLHTTP_CALLBACK));
  }

  it('validate, parse and generate of files load no HTTP client (undici)', async () => {
    const sitemap = join(dir, 'sitemap.xml');
    writeFileSync(sitemap, urlset(['https://example.com/a', 'https://example.com/b']));
    writeFileSync(join(dir, 'urls.txt'), 'https://example.com/a\n');
    for (const args of [
      ['validate', sitemap],
      ['parse', sitemap],
      ['generate', join(dir, 'urls.txt'), '--out', join(dir, 'out'), '--base-url', 'https://example.com/', '-q'],
    ])
      assert.equal(await loadsUndici(args, 0), false, args[0]);
  });

  it('validate of a URL loads it, once it fetches', async () => {
    assert.equal(await loadsUndici(['validate', 'http://127.0.0.1:9/sitemap.xml', '--retries', '0'], 1), true);
  });
});

describe('a short command over HTTP', () => {
  let site: Site;
  before(async () => {
    site = await startSite((origin) => ({
      '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
      '/sitemap.xml': { headers: XML, body: urlset([`${origin}/a`, `${origin}/b`]) },
    }));
  });
  after(() => site.close());

  it('parses HTTP with the baseline code of llhttp: no optimizing compile to wait for at exit', async () => {
    const run = await runCli(['validate', site.url('/sitemap.xml')], {
      nodeArgs: ['--trace-wasm-compilation-times'],
    });
    assert.equal(run.code, 0, run.stderr);
    const compiles = run.stdout.split('\n').filter((line) => line.startsWith('Compiled function'));
    assert.ok(compiles.length > 0, `V8 traced the parser's compiles:\n${run.stdout}`);
    assert.deepEqual(
      compiles.filter((line) => line.includes('TurboFan')),
      [],
    );
  });
});
