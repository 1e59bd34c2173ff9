/**
 * The rows of a diff held on disk while the removed URLs' redirects are checked (`diff
 * --check-redirects`): a private temporary SQLite database (better-sqlite3; the file is gone when
 * it closes), so that millions of rows cost no memory and a URL's row is found by its key.
 *
 *   diff_rows(loc TEXT PRIMARY KEY, change TEXT, row TEXT (the row as its owner wrote it), moved_to TEXT)
 */
import Database from 'better-sqlite3';
import { WriteBatches } from './write-batches.js';

const SCHEMA = `
CREATE TABLE diff_rows (loc TEXT PRIMARY KEY, change TEXT NOT NULL, row TEXT NOT NULL, moved_to TEXT) WITHOUT ROWID;
`;

/** Rows written per transaction. */
const BATCH = 10_000;

/** A held row as it comes back: its text as held, or the URL a removed one moved to. */
export type HeldRow = { loc: string; row: string; movedTo?: undefined } | { loc: string; movedTo: string };

export class DiffRowStore {
  private readonly db: Database.Database;
  private readonly writes: WriteBatches;
  private readonly statements;

  constructor() {
    // An empty name: SQLite makes a temporary database on disk, private to this connection.
    this.db = new Database('');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(SCHEMA);
    this.writes = new WriteBatches(this.db, BATCH);
    this.statements = {
      hold: this.db.prepare('INSERT OR IGNORE INTO diff_rows (loc, change, row) VALUES (?, ?, ?)'),
      removedAfter: this.db.prepare<[string, number], { loc: string }>(
        "SELECT loc FROM diff_rows WHERE change = 'removed' AND loc > ? ORDER BY loc LIMIT ?",
      ),
      isAdded: this.db.prepare<[string], { one: number }>(
        "SELECT 1 AS one FROM diff_rows WHERE loc = ? AND change = 'added'",
      ),
      markMoved: this.db.prepare("UPDATE diff_rows SET moved_to = ? WHERE loc = ? AND change = 'removed'"),
    };
  }

  /** Holds a row (`change` is 'added', 'removed' or another kind); a second row of one URL is ignored. */
  hold(loc: string, change: string, row: string): void {
    this.writes.next();
    this.statements.hold.run(loc, change, row);
  }

  /** Ends the holding: what follows reads and marks. */
  endHolding(): void {
    this.writes.end();
  }

  /** The URLs of removed rows after `after`, by URL, `limit` at most. */
  removedAfter(after: string, limit: number): string[] {
    return this.statements.removedAfter.all(after, limit).map((row) => row.loc);
  }

  isAdded(loc: string): boolean {
    return this.statements.isAdded.get(loc) !== undefined;
  }

  /** Marks the removed URL `loc` as moved to the added URL `to`. */
  markMoved(loc: string, to: string): void {
    this.statements.markMoved.run(to, loc);
  }

  /** Removed URLs marked moved, and the added URLs they moved to. */
  moves(): { moved: number; targets: number } {
    return this.db
      .prepare<[], { moved: number; targets: number }>(
        'SELECT count(*) AS moved, count(DISTINCT moved_to) AS targets FROM diff_rows WHERE moved_to IS NOT NULL',
      )
      .get()!;
  }

  /** Every row by URL; a moved one as its move, and the added rows that a move reached left out. */
  *rows(): Iterable<HeldRow> {
    this.db.exec('CREATE INDEX IF NOT EXISTS diff_rows_by_target ON diff_rows (moved_to) WHERE moved_to IS NOT NULL');
    const rows = this.db
      .prepare<[], { loc: string; row: string; moved_to: string | null }>(
        `SELECT loc, row, moved_to FROM diff_rows r
         WHERE NOT (change = 'added' AND EXISTS (SELECT 1 FROM diff_rows m WHERE m.moved_to = r.loc))
         ORDER BY loc`,
      )
      .iterate();
    for (const { loc, row, moved_to } of rows) yield moved_to === null ? { loc, row } : { loc, movedTo: moved_to };
  }

  close(): void {
    this.db.close();
  }
}
