/**
 * Where a big tree walk puts the records of its sitemaps instead of the JS heap: a temporary
 * SQLite file (better-sqlite3), deleted on close. One row per sitemap, its record as JSON without
 * its children; children are found by their parent's id, in the order they were put, so a tree of
 * a million sitemaps can be written out piece by piece in the order the object tree would have.
 *
 *   tree_nodes(id INTEGER PRIMARY KEY, parent INTEGER, record TEXT)
 *
 * The file is scratch (./scratch-file.ts: deleted on close and at exit); writes are batched in
 * transactions of `batchSize` rows.
 */
import { tmpdir } from 'node:os';
import type Database from 'better-sqlite3';
import { ScratchFile } from './scratch-file.js';

/** One spilled record: its id, its parent's id (none for a root), and the record itself. */
export interface SpilledNode<R> {
  id: number;
  parent?: number;
  record: R;
}

/**
 * The scratch store of a big tree walk (see above): give `() => new TreeSpill()` as the walk's
 * `spill` (TreeOptions).
 */
export class TreeSpill<R> {
  private readonly file: ScratchFile;
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;
  /**
   * Statements of children() not iterating, for the next call: one per level being read at once.
   * A statement made per call holds native memory that only a garbage collection frees, which the
   * JavaScript heap, seeing little garbage, long puts off: a million calls grew the process by
   * hundreds of megabytes.
   */
  private readonly idleChildren: Database.Statement[] = [];
  /** Rows put and not written yet, by id: a get() of a record just put needs no write. */
  private readonly pending = new Map<number, [number, number | null, string]>();

  /** `directory`: where the scratch folder is made (the system's temporary folder by default). */
  constructor(
    directory: string = tmpdir(),
    private readonly batchSize = 1_000,
  ) {
    this.file = new ScratchFile('tree', directory);
    this.db = this.file.db;
    this.db.exec(
      'CREATE TABLE tree_nodes (id INTEGER PRIMARY KEY, parent INTEGER, record TEXT NOT NULL);' +
        'CREATE INDEX tree_nodes_parent ON tree_nodes (parent, id);',
    );
    this.insert = this.db.prepare('INSERT OR REPLACE INTO tree_nodes (id, parent, record) VALUES (?, ?, ?)');
    this.select = this.db.prepare('SELECT id, parent, record FROM tree_nodes WHERE id = ?');
  }

  /** Stores (or replaces) the record of `id`; written in the next batch. */
  put(id: number, parent: number | undefined, record: R): void {
    this.pending.set(id, [id, parent ?? null, JSON.stringify(record)]);
    if (this.pending.size >= this.batchSize) this.flush();
  }

  /** The record last put for `id`, if any. */
  get(id: number): SpilledNode<R> | undefined {
    const row = this.pending.get(id);
    if (row) return spilled({ id: row[0], parent: row[1], record: row[2] });
    const stored = this.select.get(id) as Row | undefined;
    return stored && spilled(stored);
  }

  /** Writes the pending records in one transaction. */
  flush(): void {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending.clear();
    this.db.transaction(() => {
      for (const row of rows) this.insert.run(row);
    })();
  }

  /** The roots, in the order of their ids. */
  roots(): IterableIterator<SpilledNode<R>> {
    this.flush();
    return this.rows(
      this.db.prepare('SELECT id, parent, record FROM tree_nodes WHERE parent IS NULL ORDER BY id'),
      [],
      false,
    );
  }

  /** The children of `id`, in the order of their ids, read as they are asked for. */
  children(id: number): IterableIterator<SpilledNode<R>> {
    this.flush();
    const statement =
      this.idleChildren.pop() ??
      this.db.prepare('SELECT id, parent, record FROM tree_nodes WHERE parent = ? ORDER BY id');
    return this.rows(statement, [id], true);
  }

  /** Records stored. */
  get size(): number {
    this.flush();
    return (this.db.prepare('SELECT count(*) AS n FROM tree_nodes').get() as { n: number }).n;
  }

  /** Closes the database and deletes its folder; safe to call twice. */
  close(): void {
    this.file.close();
  }

  /** The rows of `statement`; `reuse`: it goes back to idleChildren once read (or left). */
  private *rows(statement: Database.Statement, params: unknown[], reuse: boolean): IterableIterator<SpilledNode<R>> {
    try {
      for (const row of statement.iterate(...params) as IterableIterator<Row>) yield spilled(row);
    } finally {
      if (reuse && !this.file.isClosed) this.idleChildren.push(statement);
    }
  }
}

interface Row {
  id: number;
  parent: number | null;
  record: string;
}

function spilled<R>(row: Row): SpilledNode<R> {
  return { id: row.id, ...(row.parent === null ? {} : { parent: row.parent }), record: JSON.parse(row.record) as R };
}
