/**
 * The shared case suite (cases.ts) on Node, each case a test, against `sitemapkit/web` as a
 * Node application imports it (the package's own exports). The other runtimes run the same
 * suite from runtimes.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as web from 'sitemapkit/web';
import { CASES } from './cases.js';
import { runCases } from './suite.js';

for (const one of CASES) {
  test(one.name, async () => {
    const [result] = await runCases(web, [one]);
    assert.ok(result!.ok, result!.detail);
  });
}
