/**
 * Memory bounded by design (issue 25 §2): the real CLI's peak RSS, read by the process itself,
 * against a 127.0.0.1 server that generates each sitemap when asked (the test holds none). Every
 * problem is counted, a bounded number kept as examples, whatever the size of the tree.
 *
 * Sizes here fit a test's minute on a shared two-core machine: 1,000 (tree) and 400 (audit)
 * sitemaps of 400 URLs with three errors each, and 20 nested indexes of 400 children. The full
 * sizes of the issue (2,500 sitemaps; 20 × 50,000 children) are measured by `npm run bench:memory`.
 *
 * What keeps a tree of a million sitemaps flat is that the walk holds a few bytes a sitemap once its
 * records spill to the scratch file: measured here in this process, after a garbage collection, as
 * the growth between two sizes (what is set up once cancels out; tens of bytes a sitemap, a
 * fingerprint and a parent id), against the same walk holding its records in memory (~600).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fetchSitemapTreeView } from '../../src/discover/tree.js';
import { TreeSpill } from '../../src/store/tree-spill.js';
import type { AuditReport } from '../../src/audit/report.js';
import type { SitemapTree, TreeNode } from '../../src/discover/tree.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startGeneratedSitemaps } from '../helpers/generated-sitemaps.js';
import type { Site } from '../helpers/site-server.js';

const BUDGET_BYTES = 400 * 1_000_000;
/** Each URL of /errors/… breaks three rules the tree sees (DATE-001, FREQ-001, PRIO-001). */
const ERROR_CODES = ['DATE-001', 'FREQ-001', 'PRIO-001'];

function assertWithinBudget(run: CliResult): void {
  assert.ok(run.usage, `the run measured itself:\n${run.stderr}`);
  assert.ok(run.usage.peakMemory < BUDGET_BYTES, `peak RSS ${Math.round(run.usage.peakMemory / 1e6)} MB`);
}

function* nodesOf(nodes: readonly TreeNode[]): Generator<TreeNode> {
  for (const node of nodes) {
    yield node;
    yield* nodesOf(node.children);
  }
}

describe('peak memory of the real CLI on trees made to hurt it', { concurrency: 1 }, () => {
  let site: Site;
  before(async () => {
    site = await startGeneratedSitemaps();
  });
  after(() => site.close());

  it('tree --json of 1,000 sitemaps full of errors: every error counted, 200 examples a code, < 400 MB', async () => {
    const sitemaps = 1_000;
    const run = await runCli(['tree', site.url(`/errors/${sitemaps}-400.xml`), '--json', '-q'], {
      measureUsage: true,
    });
    assert.equal(run.code, 1, run.stderr);
    assertWithinBudget(run);
    const tree = JSON.parse(run.stdout) as SitemapTree;
    assert.equal(tree.totals.sitemaps, sitemaps + 1);
    assert.equal(tree.totals.errors, sitemaps * 400 * ERROR_CODES.length, 'every error counted');
    const nodes = [...nodesOf(tree.roots)];
    for (const code of ERROR_CODES) {
      const counted = nodes.reduce((sum, node) => sum + (node.codes[code] ?? 0), 0);
      const kept = nodes.reduce((sum, node) => sum + node.diagnostics.filter((d) => d.code === code).length, 0);
      assert.equal(counted, sitemaps * 400, `${code} counted on every node`);
      assert.equal(kept, 200, `${code}: the tree keeps 200 examples, not ${counted}`);
    }
    assert.ok(nodes.every((node) => node.diagnosticCount === (node.kind === 'urlset' ? 1200 : 0)));
  });

  it('audit of 400 sitemaps full of errors: counts of the whole site, 100 examples a code, < 400 MB', async () => {
    const sitemaps = 400;
    const run = await runCli(
      ['audit', site.url(`/errors/${sitemaps}-400.xml`), '--json', '-q', '--max-urls', '5', '--timeout', '5'],
      { measureUsage: true },
    );
    assertWithinBudget(run);
    const report = JSON.parse(run.stdout) as AuditReport;
    for (const code of ERROR_CODES) {
      const check = report.siteChecks.find((c) => c.code === code);
      assert.equal(check?.count, sitemaps * 400, `${code}: every one counted, though few are kept`);
      assert.equal(check.examples.length, 100, `${code}: 100 examples`);
    }
  });

  it('the walk holds a few bytes a sitemap once its records spill (in memory: hundreds)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    /** Heap the walk of `path` still holds at its end, its tree's view open, and its sitemaps. */
    const heldBy = async (path: string, spillAfter: number) => {
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      const view = await fetchSitemapTreeView(site.url(path), { spillAfter, spill: () => new TreeSpill<TreeNode>() });
      try {
        assert.equal(view.tree.totals.read, view.tree.totals.sitemaps);
        gc();
        gc();
        return { bytes: process.memoryUsage().heapUsed - before, sitemaps: view.tree.totals.sitemaps };
      } finally {
        view.close();
      }
    };
    // Bytes a sitemap between two sizes: what the first walk sets up once (code, caches) cancels out.
    const perSitemap = async (spillAfter: number) => {
      const small = await heldBy('/nested/20-100.xml', spillAfter);
      const large = await heldBy('/nested/20-500.xml', spillAfter);
      return (large.bytes - small.bytes) / (large.sitemaps - small.sitemaps);
    };
    await heldBy('/nested/2-50.xml', 10); // warms the walk up
    const spilled = await perSitemap(100);
    const inMemory = await perSitemap(Infinity);
    assert.ok(spilled < 200, `spilled: ${Math.round(spilled)} bytes a sitemap held`);
    assert.ok(inMemory > 400, `the measure sees records held in memory (${Math.round(inMemory)} bytes a sitemap)`);
  });

  it('tree --json of 20 nested indexes of 400 children: every child read, < 400 MB', async () => {
    const run = await runCli(['tree', site.url('/nested/20-400.xml'), '--json', '-q'], { measureUsage: true });
    assertWithinBudget(run);
    const tree = JSON.parse(run.stdout) as SitemapTree;
    assert.equal(tree.totals.sitemaps, 1 + 20 + 20 * 400);
    assert.equal(tree.totals.read, tree.totals.sitemaps);
    assert.equal(tree.totals.urls, 20 * 400);
  });
});
