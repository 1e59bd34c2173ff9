/**
 * A scratch SQLite file: work too big for the JavaScript heap (a big tree walk's records, an
 * audit's listed URLs) waits in it, and it is deleted with its folder on close. Nothing in it must
 * survive a crash, so it is written with durability OFF. A scratch file left open when the process
 * exits (an error, Ctrl-C) is deleted by one 'exit' hook; only kill -9 can leave a folder behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openSqliteFile } from './sqlite-file.js';

/** Scratch files not closed yet, deleted when the process exits. */
const openFiles = new Set<ScratchFile>();
let exitHooked = false;

export class ScratchFile {
  readonly db: Database.Database;
  private readonly dir: string;
  private closed = false;

  /** A fresh scratch file in a folder named after `purpose`, under `directory` (the system's temporary folder). */
  constructor(purpose: string, directory: string = tmpdir()) {
    this.dir = mkdtempSync(join(directory, `sitemapkit-${purpose}-`));
    this.db = openSqliteFile(join(this.dir, `${purpose}.sqlite`), { durability: 'OFF' });
    openFiles.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', () => {
        for (const file of openFiles) file.close();
      });
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Closes the database and deletes its folder; safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    openFiles.delete(this);
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
