/**
 * A big tree's records go to a scratch file past a bound (issue 25 §2), and nothing shows it: the
 * tree read back from the file prints byte for byte as the one held in memory, text and --json,
 * and the file is gone afterwards, also when the walk is stopped with Ctrl-C.
 *
 * The bound is forced down (spillAfter, SITEMAPKIT_TREE_SPILL_AFTER) so that a tree of a few
 * dozen sitemaps, with every kind of node (nested index, repeats, a loop, missing sitemaps,
 * errors, more siblings than are drawn), spills in the middle of its walk.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { fetchSitemapTree, fetchSitemapTreeView, type TreeNode } from '../../src/discover/tree.js';
import { renderTree, treeJsonChunks, treeToJson } from '../../src/report/tree.js';
import { TreeSpill } from '../../src/store/tree-spill.js';
import { runCli } from '../helpers/cli.js';
import { startSite, type Site } from '../helpers/site-server.js';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const index = (locs: string[]) =>
  `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;
const urlset = (urls: string[]) =>
  `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('')}</urlset>\n`;
const xml = (body: string) => ({ headers: { 'content-type': 'application/xml' }, body });

/** Children of the nested index: more than the 20 siblings drawn; every seventh is missing. */
const NESTED = 30;

function routes(origin: string): Record<string, { headers: Record<string, string>; body: string }> {
  const table: Record<string, { headers: Record<string, string>; body: string }> = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `Sitemap: ${origin}/index.xml\n` },
    '/index.xml': xml(
      index([
        `${origin}/a.xml`,
        `${origin}/nested.xml`,
        `${origin}/missing.xml`,
        `${origin}/a.xml`,
        `${origin}/index.xml`,
      ]),
    ),
    '/a.xml': xml(
      urlset([
        `<url><loc>${origin}/p1</loc><lastmod>someday</lastmod><priority>3</priority></url>\n`,
        `<url><loc>${origin}/p2</loc><lastmod>2024-05-01</lastmod></url>\n`,
        `<url><loc>https://elsewhere.example/p3</loc></url>\n`,
      ]),
    ),
    '/nested.xml': xml(
      index([
        ...Array.from({ length: NESTED }, (_, i) => `${origin}/n/${i}.xml`),
        `${origin}/a.xml`,
        `${origin}/index.xml`,
      ]),
    ),
  };
  for (let i = 0; i < NESTED; i++) {
    if (i % 7 === 3) continue;
    table[`/n/${i}.xml`] = xml(
      urlset([
        `<url><loc>${origin}/n/${i}/a</loc><lastmod>2024-01-${String((i % 28) + 1).padStart(2, '0')}</lastmod></url>\n`,
        `<url><loc>${origin}/n/${i}/b</loc></url>\n`,
      ]),
    );
  }
  return table;
}

/** The scratch store the CLI gives the walk. */
const spill = () => new TreeSpill<TreeNode>();

/** Times differ from run to run; nothing else may. */
function withoutTimes(text: string): string {
  return text.replace(/"durationMs": \d+/g, '"durationMs": 0').replace(/\d+ ms\b|\d+\.\d s\b|\d+ min \d+ s\b/g, 'T');
}

/** The nested object of the tree, each node's children read through the view. */
function filled(node: TreeNode, childrenOf: (node: TreeNode) => Iterable<TreeNode>): TreeNode {
  return { ...node, children: [...childrenOf(node)].map((child) => filled(child, childrenOf)) };
}

describe('a tree spilled to its scratch file', { concurrency: 1 }, () => {
  let site: Site;
  let scratch: string;
  before(async () => {
    site = await startSite(routes);
    scratch = mkdtempSync(join(tmpdir(), 'tree-spill-cli-'));
  });
  after(async () => {
    await site.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('is read back in tree order: the streamed JSON and text are those of the whole object', async () => {
    const view = await fetchSitemapTreeView(site.origin, { spillAfter: 5, spill });
    try {
      const { tree, childrenOf } = view;
      assert.deepEqual(tree.roots[0]?.children, [], 'the records are in the file, not in the roots');
      const whole = { ...tree, roots: tree.roots.map((root) => filled(root, childrenOf)) };
      assert.equal(whole.totals.sitemaps, 1 + 3 + NESTED);
      assert.equal([...treeJsonChunks(tree, childrenOf)].join(''), `${JSON.stringify(whole, null, 2)}\n`);
      assert.equal(renderTree(tree, {}, childrenOf), renderTree(whole));
      assert.match(renderTree(whole), /… 10 more sitemaps: 9 read, 1 failed/);
    } finally {
      view.close();
    }
  });

  it('gives the library the same tree as a walk held in memory', async () => {
    const inMemory = await fetchSitemapTree(site.origin, { spillAfter: Infinity });
    for (const spillAfter of [0, 5]) {
      const spilled = await fetchSitemapTree(site.origin, { spillAfter, spill });
      assert.equal(withoutTimes(treeToJson(spilled)), withoutTimes(treeToJson(inMemory)), `spill after ${spillAfter}`);
    }
  });

  for (const output of [['--json'], []]) {
    it(`prints the same ${output.length > 0 ? '--json' : 'text'} spilled or not, and deletes its file`, async () => {
      const inMemory = await runCli(['tree', site.origin, ...output, '-q']);
      const spilled = await runCli(['tree', site.origin, ...output, '-q'], {
        env: { SITEMAPKIT_TREE_SPILL_AFTER: '5', TMPDIR: scratch },
      });
      assert.equal(spilled.code, 1, spilled.stderr);
      assert.equal(inMemory.code, 1, inMemory.stderr);
      assert.equal(withoutTimes(spilled.stdout), withoutTimes(inMemory.stdout));
      assert.deepEqual(readdirSync(scratch), [], 'the scratch file is deleted');
    });
  }

  it('deletes its file when Ctrl-C stops the walk, and prints the tree read so far', async () => {
    // A site whose last sitemap never answers: the walk is under way, spilled, until interrupted.
    let hanging!: () => void;
    const waiting = new Promise<void>((resolve) => (hanging = resolve));
    const stuck = await startSite((origin) => ({
      ...routes(origin),
      [`/n/${NESTED - 1}.xml`]: () => hanging(),
    }));
    try {
      let child!: ChildProcess;
      const run = runCli(['tree', stuck.origin, '--json', '-q'], {
        env: { SITEMAPKIT_TREE_SPILL_AFTER: '5', TMPDIR: scratch },
        onSpawn: (spawned) => (child = spawned),
      });
      await waiting;
      assert.equal(readdirSync(scratch).length, 1, 'the walk spilled to its scratch folder');
      child.kill('SIGINT');
      const done = await run;
      assert.equal(done.code, 1, done.stderr);
      const tree = JSON.parse(done.stdout) as { complete: boolean; totals: { sitemaps: number } };
      assert.equal(tree.complete, false);
      assert.equal(tree.totals.sitemaps, 1 + 3 + NESTED);
      assert.deepEqual(readdirSync(scratch), [], 'the scratch file is deleted');
    } finally {
      await stuck.close();
    }
  });
});
