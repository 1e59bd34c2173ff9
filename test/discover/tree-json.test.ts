/**
 * `tree --json` written node by node (issue 25 §2): the pieces, joined, are exactly the document
 * JSON.stringify made of the whole tree, whatever the nodes hold, so no reader sees a difference,
 * while no string of the whole document is ever built.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { SitemapTree, TreeNode } from '../../src/discover/tree.js';
import { newRecord } from '../../src/discover/tree-model.js';
import { treeJsonChunks, treeToJson } from '../../src/report/tree.js';

/** Nodes with random extra fields (strings with newlines and quotes, nested values, undefined). */
const node: fc.Memo<TreeNode> = fc.memo((depth) =>
  fc
    .record({
      url: fc.webUrl(),
      extra: fc.dictionary(
        fc.string({ maxLength: 6 }),
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined), fc.string()),
      ),
      children: depth <= 1 ? fc.constant([]) : fc.array(node(depth - 1), { maxLength: 3 }),
    })
    .map(({ url, extra, children }) => ({ ...extra, ...newRecord(url, 'robots', 0), children }) as TreeNode),
);

const tree = fc
  .record({ roots: fc.array(node(4), { maxLength: 4 }), note: fc.oneof(fc.string(), fc.constant(undefined)) })
  .map(
    ({ roots, note }) =>
      ({
        input: 'https://example.com/\n"quoted"',
        mode: 'site',
        probes: [],
        roots,
        totals: {
          sitemaps: roots.length,
          read: 0,
          failed: 0,
          urls: 0,
          bytesIn: 0,
          bytesDecoded: 0,
          errors: 0,
          warnings: 0,
          infos: 0,
        },
        diagnostics: [],
        complete: true,
        durationMs: 1,
        note,
      }) as SitemapTree,
  );

test('the pieces of tree --json, joined, are JSON.stringify of the whole tree', () => {
  fc.assert(
    fc.property(tree, (t) => {
      assert.equal(treeToJson(t), `${JSON.stringify(t, null, 2)}\n`);
    }),
    { numRuns: 300 },
  );
});

test('a tree is written in pieces no larger than one node', () => {
  const children = Array.from({ length: 5_000 }, (_, i) => newRecord(`https://example.com/s/${i}.xml`, 'index', 1));
  const root = { ...newRecord('https://example.com/index.xml', 'robots', 0), children };
  const t = {
    input: 'x',
    mode: 'site',
    probes: [],
    roots: [root],
    totals: {},
    diagnostics: [],
    complete: true,
    durationMs: 0,
  } as unknown as SitemapTree;
  const pieces = [...treeJsonChunks(t)];
  assert.ok(pieces.length > 5_000);
  assert.ok(pieces.reduce((most, piece) => Math.max(most, piece.length), 0) < 2_000);
  assert.equal(pieces.join(''), `${JSON.stringify(t, null, 2)}\n`);
});
