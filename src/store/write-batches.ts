/**
 * A store's row-by-row writes grouped into transactions of N (the store's form of the batching
 * convention of core/batches.ts): one transaction per row would cost a journal write each, one
 * for millions of rows would hold the whole journal. Rows are written at once, so a write's
 * answer (a row ignored as a repeat) is known at the call.
 */
import type Database from 'better-sqlite3';

export class WriteBatches {
  private written = 0;
  private readonly begin;
  private readonly commit;

  constructor(
    private readonly db: Database.Database,
    private readonly size: number,
  ) {
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
  }

  /** Call before each write: ends a full transaction and begins the next. */
  next(): void {
    if (this.written % this.size === 0) {
      if (this.db.inTransaction) this.commit.run();
      this.begin.run();
    }
    this.written += 1;
  }

  /** Commits the last, partial transaction. */
  end(): void {
    if (this.db.inTransaction) this.commit.run();
  }
}
