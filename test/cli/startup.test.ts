/**
 * What the binary pays to start and end, beyond its work (src/cli/v8-tuning.ts): a short command
 * over HTTP must not wait for V8's optimizing compile of undici's HTTP parser (llhttp), which took
 * 150 ms of CPU and 30 MB of memory in every such run. V8's own trace of its wasm compiles says
 * which compiler ran.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { startSite, urlset, XML, type Site } from '../helpers/site-server.js';

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
