/**
 * The scratch store of a big tree walk (issue 25 §2): records put across batches come back under
 * their parents in the order they were put, a replaced record is the new one, children can be read
 * while their parent's siblings are still being read, and close() deletes the file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TreeSpill } from '../../src/store/tree-spill.js';

interface Rec {
  url: string;
  urls: number;
}

const scratch = mkdtempSync(join(tmpdir(), 'tree-spill-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Rebuilds the nested shape from the store, depth first, as a writer of the tree would read it. */
function rebuild(spill: TreeSpill<Rec>, id?: number): unknown[] {
  const level = id === undefined ? spill.roots() : spill.children(id);
  return [...level].map((node) => ({ ...node.record, children: rebuild(spill, node.id) }));
}

describe('TreeSpill', () => {
  it('gives back a tree of 3 levels in the order it was put, across batches', () => {
    const spill = new TreeSpill<Rec>(scratch, 7);
    const expected: { url: string; urls: number; children: unknown[] }[] = [];
    let id = 0;
    for (let r = 0; r < 2; r += 1) {
      const root = { url: `https://a.test/r${r}.xml`, urls: 0, children: [] as unknown[] };
      const rootId = ++id;
      spill.put(rootId, undefined, { url: root.url, urls: 0 });
      expected.push(root);
      for (let c = 0; c < 40; c += 1) {
        const child = { url: `${root.url}/c${c}.xml`, urls: c, children: [] as unknown[] };
        const childId = ++id;
        spill.put(childId, rootId, { url: child.url, urls: c });
        root.children.push(child);
        for (let g = 0; g < 3; g += 1) {
          const grandchild = { url: `${child.url}/g${g}.xml`, urls: g, children: [] };
          spill.put(++id, childId, { url: grandchild.url, urls: g });
          child.children.push(grandchild);
        }
      }
    }
    assert.equal(spill.size, 2 + 80 + 240);
    assert.deepEqual(rebuild(spill), expected);
    spill.close();
  });

  it('keeps the last record put for an id', () => {
    const spill = new TreeSpill<Rec>(scratch);
    spill.put(1, undefined, { url: 'https://a.test/s.xml', urls: 0 });
    spill.put(1, undefined, { url: 'https://a.test/s.xml', urls: 12 });
    assert.deepEqual(
      [...spill.roots()].map((n) => n.record.urls),
      [12],
    );
    spill.close();
  });

  it('gets one record by id, whether it is written yet or not', () => {
    const spill = new TreeSpill<Rec>(scratch, 2);
    spill.put(1, undefined, { url: 'https://a.test/s.xml', urls: 0 });
    spill.put(2, 1, { url: 'https://a.test/c.xml', urls: 3 }); // the batch of two is written
    spill.put(3, 1, { url: 'https://a.test/d.xml', urls: 4 }); // still in memory
    assert.deepEqual(spill.get(2), { id: 2, parent: 1, record: { url: 'https://a.test/c.xml', urls: 3 } });
    assert.deepEqual(spill.get(3), { id: 3, parent: 1, record: { url: 'https://a.test/d.xml', urls: 4 } });
    assert.deepEqual(spill.get(1), { id: 1, record: { url: 'https://a.test/s.xml', urls: 0 } });
    assert.equal(spill.get(4), undefined);
    spill.close();
  });

  it('deletes its file on close, and closing twice is harmless', () => {
    const spill = new TreeSpill<Rec>(scratch);
    spill.put(1, undefined, { url: 'https://a.test/s.xml', urls: 0 });
    assert.equal(readdirSync(scratch).length > 0, true);
    const made = readdirSync(scratch).map((name) => join(scratch, name));
    spill.close();
    spill.close();
    for (const dir of made) assert.equal(existsSync(dir), false);
  });
});
