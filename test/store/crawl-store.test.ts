/**
 * The audit's crawl state file (store/crawl-store.ts): a run store file the crawl works in, kept
 * for --resume, emptied otherwise, and refused when an earlier sitemapkit's crawl state is there.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { RunStore } from '../../src/store/run-store.js';
import { CrawlStore } from '../../src/store/crawl-store.js';

describe("the audit's crawl state file", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-state-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a crawl run for a resume, and deletes it for a fresh audit', async () => {
    const file = join(dir, 'kept.sqlite');
    const store = await RunStore.open(file);
    await store.createOrJoin({ name: 'crawl', kind: 'crawl', options: {}, state: 'starting' }, [], { concurrency: 1 });
    await store.close();
    writeFileSync(`${file}-wal`, '');
    assert.equal(new CrawlStore(file).file, file);
    const resumed = await RunStore.open(file);
    assert.ok((await resumed.run('crawl')) !== undefined, 'the run is there to continue');
    await resumed.close();
    new CrawlStore(file, { fresh: true });
    assert.deepEqual([existsSync(file), existsSync(`${file}-wal`)], [false, false]);
  });

  it("refuses to resume an earlier sitemapkit's crawl state, naming the file and what to do", () => {
    const file = join(dir, 'former.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE crawl_urls (seq INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)');
    db.close();
    assert.throws(
      () => new CrawlStore(file),
      (error: Error) =>
        error.message.includes(file) &&
        /earlier sitemapkit/.test(error.message) &&
        /audit again without --resume/.test(error.message),
    );
    new CrawlStore(file, { fresh: true });
    assert.equal(existsSync(file), false);
  });
});
