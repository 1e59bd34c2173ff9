/** A store's row-by-row writes, committed N at a time: what another connection sees, and when. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { WriteBatches } from '../../src/store/write-batches.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-write-batches-'));
after(() => rm(scratch, { recursive: true, force: true }));

test('rows are committed a full batch at a time, and the rest at the end', () => {
  const file = join(scratch, 'rows.sqlite');
  const writer = new Database(file);
  const reader = new Database(file);
  try {
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE rows (n INTEGER)');
    const insert = writer.prepare('INSERT INTO rows (n) VALUES (?)');
    const committed = (): number => (reader.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n;
    const writes = new WriteBatches(writer, 3);
    const seen: number[] = [];
    for (let n = 1; n <= 7; n++) {
      writes.next();
      insert.run(n);
      seen.push(committed());
    }
    // Each batch becomes visible when the next one begins.
    assert.deepEqual(seen, [0, 0, 0, 3, 3, 3, 6]);
    writes.end();
    assert.equal(committed(), 7);
    assert.equal(writer.inTransaction, false);
    writes.end();
    assert.equal(committed(), 7, 'a second end commits nothing more and throws nothing');
  } finally {
    reader.close();
    writer.close();
  }
});
