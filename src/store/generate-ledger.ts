/**
 * The ledger of `generate --state DIR`, in embedded SQLite (better-sqlite3, WAL): for each site
 * (the base URL its sitemaps are published at), per URL the digest of its entry and of its page's
 * content, when each last changed, and the shard it is written in; per shard the file it was
 * published as. Every run and what it changed are appended to generate_runs and
 * generate_changes, which `submit --from-state` reads:
 *
 *   generate_runs(run INTEGER PRIMARY KEY, at TEXT, base_url TEXT)
 *   generate_changes(run INTEGER, loc TEXT, change TEXT ('added' | 'changed' | 'removed'),
 *                    digest TEXT (the entry's digest; NULL when removed), at TEXT)
 *
 * A run stages its URLs in a temporary table (private to the connection, gone with it when the
 * process dies) and changes the ledger in one transaction once its sitemaps are published.
 */
import type { StoreSchema } from './migrations.js';
import { openStateFile, openStateFileToRead } from './state-file.js';
import { WriteBatches } from './write-batches.js';
import type Database from 'better-sqlite3';
import type {
  KnownUrl,
  LedgerRun,
  RecordedShard,
  RunChanges,
  ShardEntry,
  ShardTotals,
  SitemapLedger,
  StagedUrl,
  UrlChange,
} from '../generate/ledger.js';

/** The ledger's migrations (see migrations.ts): add one at the end, never edit one that shipped. */
export const GENERATE_LEDGER_SCHEMA: StoreSchema = {
  title: 'the generate ledger',
  otherwise: 'move it away to start a new ledger (the history of its runs is lost)',
  migrations: [
    {
      version: 1,
      name: 'sites, their URLs and shards, runs and their changes',
      sql: () => `
CREATE TABLE generate_runs (run INTEGER PRIMARY KEY, at TEXT, base_url TEXT);
CREATE TABLE generate_changes (
  run INTEGER,
  loc TEXT,
  change TEXT CHECK (change IN ('added', 'changed', 'removed')),
  digest TEXT,
  at TEXT
);
CREATE INDEX generate_changes_by_run ON generate_changes (run, change);
CREATE TABLE generate_sites (
  site INTEGER PRIMARY KEY,
  base_url TEXT NOT NULL UNIQUE,
  layout TEXT NOT NULL,
  next_seq INTEGER NOT NULL
);
CREATE TABLE generate_urls (
  site INTEGER NOT NULL,
  loc TEXT NOT NULL,
  shard INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  digest TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  content_digest TEXT,
  content_changed_at TEXT,
  PRIMARY KEY (site, loc)
) WITHOUT ROWID;
CREATE TABLE generate_shards (
  site INTEGER NOT NULL,
  shard INTEGER NOT NULL,
  name TEXT NOT NULL,
  digest TEXT NOT NULL,
  urls INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  gzip_bytes INTEGER,
  lastmod TEXT,
  PRIMARY KEY (site, shard)
);
`,
    },
  ],
};

/**
 * The run's URLs. `seq` orders them (a shard lists its URLs by it); `moved` marks those placed in
 * this run, whose place must be recorded even when their entry did not change.
 */
const STAGING = `
DROP TABLE IF EXISTS temp.generate_staging;
DROP TABLE IF EXISTS temp.generate_removed;
CREATE TEMP TABLE generate_staging (
  seq INTEGER PRIMARY KEY,
  loc TEXT NOT NULL UNIQUE,
  shard INTEGER,
  moved INTEGER NOT NULL DEFAULT 0,
  text TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  news INTEGER NOT NULL,
  lastmod TEXT,
  lastmod_ms REAL,
  digest TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  content_digest TEXT,
  content_changed_at TEXT,
  change TEXT NOT NULL
);
CREATE TEMP TABLE generate_removed (loc TEXT PRIMARY KEY, shard INTEGER NOT NULL);
`;

/** Staged rows per transaction while staging: one transaction per row would cost a journal write each. */
const STAGING_BATCH = 10_000;
/** Rows read per query when a shard is written, so no statement stays open across the writer's awaits. */
const PAGE = 2_000;
/**
 * How long a run waits for another run's record to finish (sites built side by side may share a
 * state directory): recording a large site's first run takes a while.
 */
const BUSY_TIMEOUT_MS = 5 * 60_000;

export class GenerateLedger implements SitemapLedger {
  readonly file: string;
  private readonly db: Database.Database;
  private running = false;

  /** Opens (creating) the ledger at `file`: `<state dir>/generate.sqlite` (generateLedgerPath). */
  constructor(file: string) {
    this.file = file;
    // Unlike a crawl's state, the ledger is history (when pages changed, what was announced): a
    // power cut may lose the last run, never spoil the file. WAL with NORMAL gives that.
    this.db = openStateFile(file, {
      schema: GENERATE_LEDGER_SCHEMA,
      durability: 'NORMAL',
      busyTimeoutMs: BUSY_TIMEOUT_MS,
    });
    // The staging of a large site can take gigabytes: on disk, not in memory.
    this.db.pragma('temp_store = FILE');
    // Every URL is looked up once per run: a page cache of a fixed 64 MiB (not the default 16)
    // keeps the upper levels of the URL index in memory (a run over 1M known URLs: 38 s → 27 s).
    this.db.pragma('cache_size = -65536');
  }

  /** True when the ledger has a record of the site published at `site` (its base URL). */
  knows(site: string): boolean {
    return this.db.prepare('SELECT 1 FROM generate_sites WHERE base_url = ?').get(site) !== undefined;
  }

  beginRun(site: string): LedgerRun {
    if (this.running) throw new Error('a GenerateLedger serves one run at a time');
    this.running = true;
    try {
      return new GenerateLedgerRun(this.db, site, () => (this.running = false));
    } catch (error) {
      this.running = false;
      throw error;
    }
  }

  /** The first `limit` URLs with `change` in `run`, in the order the run met them. */
  changesOf(run: number, change: UrlChange, limit: number): string[] {
    return this.db
      .prepare<[number, string, number], { loc: string }>(
        'SELECT loc FROM generate_changes WHERE run = ? AND change = ? ORDER BY rowid LIMIT ?',
      )
      .all(run, change, limit)
      .map((row) => row.loc);
  }

  /** Closes the database; call it when the run is done. */
  close(): void {
    this.db.close();
  }
}

interface UrlRow {
  shard: number;
  seq: number;
  digest: string;
  changed_at: string;
  content_digest: string | null;
  content_changed_at: string | null;
}

interface ShardRow {
  shard: number;
  name: string;
  digest: string;
  urls: number;
  bytes: number;
  gzip_bytes: number | null;
  lastmod: string | null;
}

class GenerateLedgerRun implements LedgerRun {
  readonly firstRun: boolean;
  readonly layout: string | undefined;
  private readonly siteId: number | undefined;
  private nextSeq: number;
  private readonly staging: WriteBatches;
  /** Whether the staging is indexed by shard: done once every URL is placed, as updates of an index cost. */
  private indexedByShard = false;
  private readonly statements;

  constructor(
    private readonly db: Database.Database,
    private readonly site: string,
    private readonly done: () => void,
  ) {
    const known = db
      .prepare<[string], { site: number; layout: string; next_seq: number }>(
        'SELECT site, layout, next_seq FROM generate_sites WHERE base_url = ?',
      )
      .get(site);
    this.firstRun = known === undefined;
    this.siteId = known?.site;
    this.layout = known?.layout;
    this.nextSeq = known?.next_seq ?? 0;
    db.exec(STAGING);
    this.staging = new WriteBatches(db, STAGING_BATCH);
    this.statements = {
      recall: db.prepare<[number, string], UrlRow>(
        'SELECT shard, seq, digest, changed_at, content_digest, content_changed_at FROM generate_urls WHERE site = ? AND loc = ?',
      ),
      stage: db.prepare(
        `INSERT OR IGNORE INTO generate_staging
           (seq, loc, shard, text, bytes, news, lastmod, lastmod_ms, digest, changed_at, content_digest, content_changed_at, change)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      totals: db.prepare<[], ShardTotals>(
        'SELECT shard, count(*) AS urls, sum(bytes) AS bytes, sum(news) AS news FROM generate_staging WHERE shard IS NOT NULL GROUP BY shard ORDER BY shard',
      ),
      sizes: db.prepare<[number, number, number], { seq: number; bytes: number; news: number }>(
        'SELECT seq, bytes, news FROM generate_staging WHERE shard = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      unplace: db.prepare('UPDATE generate_staging SET shard = NULL, seq = ? WHERE seq = ?'),
      unplaced: db.prepare<[number, number], { seq: number; bytes: number; news: number }>(
        'SELECT seq, bytes, news FROM generate_staging WHERE shard IS NULL AND seq > ? ORDER BY seq LIMIT ?',
      ),
      place: db.prepare('UPDATE generate_staging SET shard = ?, moved = 1 WHERE shard IS NULL AND seq BETWEEN ? AND ?'),
      entries: db.prepare<
        [number, number, number],
        { seq: number; text: string; lastmod: string | null; lastmod_ms: number | null }
      >('SELECT seq, text, lastmod, lastmod_ms FROM generate_staging WHERE shard = ? AND seq > ? ORDER BY seq LIMIT ?'),
    };
  }

  recall(loc: string): KnownUrl | undefined {
    if (this.siteId === undefined) return undefined;
    const row = this.statements.recall.get(this.siteId, loc);
    if (row === undefined) return undefined;
    const known: KnownUrl = { shard: row.shard, seq: row.seq, digest: row.digest, changedAt: row.changed_at };
    if (row.content_digest !== null) known.contentDigest = row.content_digest;
    if (row.content_changed_at !== null) known.contentChangedAt = row.content_changed_at;
    return known;
  }

  stage(url: StagedUrl): boolean {
    this.staging.next();
    const seq = url.seq ?? this.nextSeq;
    const { changes } = this.statements.stage.run(
      seq,
      url.loc,
      url.shard ?? null,
      url.text,
      url.bytes,
      url.news ? 1 : 0,
      url.lastmod ?? null,
      url.lastmodMillis ?? null,
      url.digest,
      url.changedAt,
      url.contentDigest ?? null,
      url.contentChangedAt ?? null,
      url.change,
    );
    if (changes === 0) return false;
    if (url.seq === undefined) this.nextSeq++;
    return true;
  }

  endStaging(): void {
    this.staging.end();
    if (this.siteId !== undefined)
      this.db
        .prepare(
          `INSERT INTO generate_removed (loc, shard)
           SELECT loc, shard FROM generate_urls u
           WHERE u.site = ? AND NOT EXISTS (SELECT 1 FROM generate_staging s WHERE s.loc = u.loc)`,
        )
        .run(this.siteId);
  }

  recordedShards(): RecordedShard[] {
    if (this.siteId === undefined) return [];
    return this.db
      .prepare<[number], ShardRow>(
        'SELECT shard, name, digest, urls, bytes, gzip_bytes, lastmod FROM generate_shards WHERE site = ? ORDER BY shard',
      )
      .all(this.siteId)
      .map((row) => {
        const shard: RecordedShard = {
          shard: row.shard,
          name: row.name,
          digest: row.digest,
          urls: row.urls,
          bytes: row.bytes,
        };
        if (row.gzip_bytes !== null) shard.gzipBytes = row.gzip_bytes;
        if (row.lastmod !== null) shard.lastmod = row.lastmod;
        return shard;
      });
  }

  shardsWithChanges(): number[] {
    return this.db
      .prepare<[], { shard: number }>(
        `SELECT shard FROM generate_staging WHERE shard IS NOT NULL AND change = 'changed'
         UNION SELECT shard FROM generate_removed ORDER BY shard`,
      )
      .all()
      .map((row) => row.shard);
  }

  shardTotals(): ShardTotals[] {
    return this.statements.totals.all();
  }

  *sizesOf(shard: number): Iterable<{ seq: number; bytes: number; news: boolean }> {
    yield* this.paged(
      (after) => this.statements.sizes.all(shard, after, PAGE),
      (row) => ({ ...row, news: row.news === 1 }),
    );
  }

  unplace(seqs: readonly number[]): void {
    this.db.transaction(() => {
      for (const seq of seqs) this.statements.unplace.run(this.nextSeq++, seq);
    })();
  }

  *unplaced(): Iterable<{ seq: number; bytes: number; news: boolean }> {
    yield* this.paged(
      (after) => this.statements.unplaced.all(after, PAGE),
      (row) => ({ ...row, news: row.news === 1 }),
    );
  }

  place(shard: number, fromSeq: number, toSeq: number): void {
    this.statements.place.run(shard, fromSeq, toSeq);
  }

  *entriesOf(shard: number): Iterable<ShardEntry> {
    if (!this.indexedByShard) {
      this.db.exec('CREATE INDEX temp.generate_staging_by_shard ON generate_staging (shard, seq)');
      this.indexedByShard = true;
    }
    yield* this.paged(
      (after) => this.statements.entries.all(shard, after, PAGE),
      (row) => ({ text: row.text, lastmod: row.lastmod ?? undefined, lastmodMillis: row.lastmod_ms ?? undefined }),
    );
  }

  /** Reads rows a page at a time by `seq`, so that no statement is open while the caller works between rows. */
  private *paged<Row extends { seq: number }, T>(page: (after: number) => Row[], map: (row: Row) => T): Iterable<T> {
    let after = -1;
    for (;;) {
      const rows = page(after);
      for (const row of rows) yield map(row);
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.seq;
    }
  }

  record(layout: string, shards: readonly RecordedShard[], at: Date): RunChanges {
    const when = at.toISOString();
    const db = this.db;
    const changes = db.transaction((): RunChanges => {
      const site =
        this.siteId ??
        Number(
          db
            .prepare('INSERT INTO generate_sites (base_url, layout, next_seq) VALUES (?, ?, ?)')
            .run(this.site, layout, this.nextSeq).lastInsertRowid,
        );
      db.prepare('UPDATE generate_sites SET layout = ?, next_seq = ? WHERE site = ?').run(layout, this.nextSeq, site);
      const run = Number(
        db.prepare('INSERT INTO generate_runs (at, base_url) VALUES (?, ?)').run(when, this.site).lastInsertRowid,
      );
      // In the order the URLs were first written; then the removed ones, by URL.
      db.prepare(
        `INSERT INTO generate_changes (run, loc, change, digest, at)
         SELECT ?, loc, change, digest, ? FROM generate_staging WHERE change != 'same' ORDER BY seq`,
      ).run(run, when);
      db.prepare(
        `INSERT INTO generate_changes (run, loc, change, digest, at)
         SELECT ?, loc, 'removed', NULL, ? FROM generate_removed ORDER BY loc`,
      ).run(run, when);
      const counts = new Map(
        db
          .prepare<[number], { change: UrlChange; n: number }>(
            'SELECT change, count(*) AS n FROM generate_changes WHERE run = ? GROUP BY change',
          )
          .all(run)
          .map((row) => [row.change, row.n]),
      );
      db.prepare('DELETE FROM generate_urls WHERE site = ? AND loc IN (SELECT loc FROM generate_removed)').run(site);
      db.prepare(
        `INSERT INTO generate_urls (site, loc, shard, seq, digest, changed_at, content_digest, content_changed_at)
         SELECT ?, loc, shard, seq, digest, changed_at, content_digest, content_changed_at
         FROM generate_staging WHERE change != 'same' OR moved = 1 ORDER BY loc
         ON CONFLICT (site, loc) DO UPDATE SET
           shard = excluded.shard, seq = excluded.seq, digest = excluded.digest, changed_at = excluded.changed_at,
           content_digest = excluded.content_digest, content_changed_at = excluded.content_changed_at`,
      ).run(site);
      db.prepare('DELETE FROM generate_shards WHERE site = ?').run(site);
      const insertShard = db.prepare(
        'INSERT INTO generate_shards (site, shard, name, digest, urls, bytes, gzip_bytes, lastmod) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      for (const shard of shards)
        insertShard.run(
          site,
          shard.shard,
          shard.name,
          shard.digest,
          shard.urls,
          shard.bytes,
          shard.gzipBytes ?? null,
          shard.lastmod ?? null,
        );
      return {
        run,
        firstRun: this.firstRun,
        added: counts.get('added') ?? 0,
        changed: counts.get('changed') ?? 0,
        removed: counts.get('removed') ?? 0,
      };
    });
    try {
      // IMMEDIATE: take the write lock first (waiting for another run's record), not halfway.
      return changes.immediate();
    } finally {
      this.discard();
    }
  }

  discard(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.db.exec('DROP TABLE IF EXISTS temp.generate_staging; DROP TABLE IF EXISTS temp.generate_removed;');
    this.done();
  }
}

/** A URL's last change in the runs read, as `submit --from-state` takes it. */
export interface LedgerChange {
  loc: string;
  change: UrlChange;
  /** The entry's digest now; null when removed. */
  digest: string | null;
}

/**
 * The ledger read by `submit --from-state`, read-only, while generate may be writing (WAL lets
 * both be): each site with its last run, the changes since a run, every URL of a site now.
 */
export class GenerateLedgerReader {
  private readonly db: Database.Database;

  /** Opens the ledger at `file` (generateLedgerPath); throws when there is none, or when a newer sitemapkit wrote it. */
  constructor(readonly file: string) {
    this.db = openStateFileToRead(file, { schema: GENERATE_LEDGER_SCHEMA, busyTimeoutMs: BUSY_TIMEOUT_MS });
  }

  /** The sites of the ledger, each with its last run and whether its entry point is gzipped. */
  sites(): { baseUrl: string; lastRun: number; gzipIndex: boolean }[] {
    return this.db
      .prepare<[], { base_url: string; last_run: number; layout: string }>(
        `SELECT s.base_url, s.layout, (SELECT max(run) FROM generate_runs r WHERE r.base_url = s.base_url) AS last_run
         FROM generate_sites s ORDER BY s.base_url`,
      )
      .all()
      .map((row) => ({
        baseUrl: row.base_url,
        lastRun: row.last_run,
        gzipIndex: (JSON.parse(row.layout) as { gzipIndex?: boolean }).gzipIndex === true,
      }));
  }

  /** Each URL changed in the runs of `site` after `afterRun` up to `upToRun`, with its last change. */
  *changesSince(site: string, afterRun: number, upToRun: number): Iterable<LedgerChange> {
    yield* this.db
      .prepare<[string, number, number], LedgerChange>(
        `SELECT c.loc, c.change, c.digest FROM generate_changes c
         JOIN (SELECT loc, max(c2.rowid) AS last FROM generate_changes c2 JOIN generate_runs r ON r.run = c2.run
               WHERE r.base_url = ? AND c2.run > ? AND c2.run <= ? GROUP BY loc) l ON c.rowid = l.last
         ORDER BY c.loc`,
      )
      .iterate(site, afterRun, upToRun);
  }

  /** Every URL of `site` as its last run published it, with its entry's digest. */
  *urlsOf(site: string): Iterable<{ loc: string; digest: string }> {
    yield* this.db
      .prepare<[string], { loc: string; digest: string }>(
        'SELECT u.loc, u.digest FROM generate_urls u JOIN generate_sites s ON s.site = u.site WHERE s.base_url = ?',
      )
      .iterate(site);
  }

  close(): void {
    this.db.close();
  }
}
