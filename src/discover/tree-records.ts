/**
 * Where the tree walk keeps the record of every sitemap it meets. A node is known by a number (its
 * id, from 1, in the order met), its parent by the parent's id (0 for a root).
 *
 * - Up to `spillAfter` nodes the records stay in memory, each in its parent's `children`: the
 *   SitemapTree object itself, as small trees always were.
 * - Past it every record moves to a scratch store (store/tree-spill.ts, a SQLite file, handed in
 *   by the caller: the store is a layer below this one) and the memory lets
 *   them go: a record is written when the node is met (the walk's queue reads it back from there)
 *   and again when it settles, and each `children` in memory stays empty. A tree of a million
 *   sitemaps then costs the walk a few bytes a node (the parent ids), not kilobytes.
 *
 * The spill keeps each record's fields in their order, `children` at its place, so a tree read
 * back writes out byte for byte as the one held in memory would.
 */
import { grown } from '../core/typed-arrays.js';
import { ownChildren, type ChildrenOf, type TreeNode } from './tree-model.js';

/** Nodes held in memory before the records move to the scratch file, unless the walk is told otherwise. */
export const DEFAULT_SPILL_AFTER = 20_000;

/**
 * Where the records go past the bound: the ids given, each record put again when it changes, the
 * children of an id read back in the order of their ids (store/tree-spill.ts's TreeSpill).
 */
export interface TreeRecordSpill {
  /** Keeps (or replaces) the record of `id`, under `parent` (none for a root). */
  put(id: number, parent: number | undefined, record: TreeNode): void;
  /** The record last put for `id`. */
  get(id: number): { record: TreeNode } | undefined;
  /** The children of `id`, in the order of their ids, read as they are asked for. */
  children(id: number): Iterable<{ id: number; record: TreeNode }>;
  /** Lets go of the store (a file is deleted). */
  close(): void;
}

export class TreeRecords {
  /** By id (index 0 unused); undefined once spilled. */
  private memory: (TreeNode | undefined)[] | undefined = [undefined];
  private spill: TreeRecordSpill | undefined;
  private parents = new Uint32Array(1024);
  private count = 0;
  /** The ids of the roots and of the records handed out by childrenOf, to find their own children. */
  private readonly ids = new WeakMap<TreeNode, number>();

  /** `spillAfter`: nodes kept in memory; `openSpill`: the store past it (none: the records stay in memory). */
  constructor(
    private readonly spillAfter: number,
    private readonly openSpill?: () => TreeRecordSpill,
  ) {}

  /** Nodes met. */
  get size(): number {
    return this.count;
  }

  /** Whether the records are in the scratch file. */
  get spilled(): boolean {
    return this.spill !== undefined;
  }

  /** A node met: its record (no children yet) and its parent's id (0 for a root); answers its id. */
  add(record: TreeNode, parent: number): number {
    const id = ++this.count;
    this.parents = grown(this.parents, id + 1);
    this.parents[id] = parent;
    // The roots are read from the caller's own objects; every other record from the spill.
    if (parent === 0) this.ids.set(record, id);
    if (this.memory) {
      this.memory.push(record);
      if (parent !== 0) this.memory[parent]!.children.push(record);
      if (this.count > this.spillAfter && this.openSpill) this.spillAll(this.openSpill());
    } else {
      this.spill!.put(id, parent || undefined, record);
    }
    return id;
  }

  /** The id of a parent (0 for a root). */
  parentOf(id: number): number {
    return this.parents[id]!;
  }

  /**
   * The record of `id` as last written: in memory, the record itself (the tree's own object); from
   * the scratch file, a copy that the caller writes back with settle().
   */
  get(id: number): TreeNode {
    const record = this.memory ? this.memory[id] : this.spill!.get(id)?.record;
    if (!record) throw new RangeError(`no node ${id} in the tree`);
    return record;
  }

  /** The URLs of the children of `id`, in order. */
  childUrls(id: number): string[] {
    if (this.memory) return this.memory[id]!.children.map((child) => child.url);
    return Array.from(this.spill!.children(id), (child) => child.record.url);
  }

  /** A node settled (read, or failed): its record written (in memory it is the tree's object already). */
  settle(id: number, record: TreeNode): void {
    this.spill?.put(id, this.parents[id]! || undefined, record);
  }

  /** Where the children of a record handed out here (or added) are. */
  get childrenOf(): ChildrenOf {
    if (!this.spill) return ownChildren;
    const spill = this.spill;
    const ids = this.ids;
    return function* (node: TreeNode): Generator<TreeNode> {
      const id = ids.get(node);
      if (id === undefined) return;
      for (const child of spill.children(id)) {
        ids.set(child.record, child.id);
        yield child.record;
      }
    };
  }

  /** Lets go of the scratch file (deleted). */
  close(): void {
    this.spill?.close();
  }

  /** Every record moves to the scratch file; the records still in use keep empty children from now on. */
  private spillAll(spill: TreeRecordSpill): void {
    this.spill = spill;
    const memory = this.memory!;
    this.memory = undefined;
    for (let id = 1; id < memory.length; id++) {
      const record = memory[id]!;
      record.children = []; // the same key, so its place among the fields is kept
      spill.put(id, this.parents[id]! || undefined, record);
    }
  }
}
