/**
 * The state of one audit in embedded SQLite (better-sqlite3, WAL): every URL the sitemaps list,
 * where it was first listed, and, once checked, what its check found. Checks are committed a few
 * at a time, within a tenth of a second of their end (see audit/checker.ts), so an audit killed at
 * any moment (kill -9 included) resumes with every check but the last instant's.
 *
 * The audit works against `AuditState`, not against SQLite: schema and statements live here and
 * nowhere else, so the state can move behind another driver (PostgreSQL, for workers sharing a
 * run) without the audit changing. The store knows nothing of HTTP or of findings: results are
 * JSON text and a bit mask the audit chooses.
 */
import type { StoreSchema } from './migrations.js';
import { openStateFile } from './state-file.js';
import type Database from 'better-sqlite3';

/** A URL as the sitemaps list it, the first time it is met. */
export interface NewListing {
  url: string;
  sitemap: string;
  line?: number | undefined;
  lastmod?: string | undefined;
  /** The sitemap's hreflang alternates of the URL, as JSON text. */
  alternates?: string | undefined;
  /** Orders the deterministic sample (--max-urls): the smallest keys are taken. */
  sampleKey: number;
}

/** A listed URL, with its place in the audit's order. */
export interface StoredListing {
  seq: number;
  url: string;
  sitemap: string;
  line: number | null;
  lastmod: string | null;
  alternates: string | null;
}

/** A listed URL and what its check found (null before it is checked). */
export interface StoredRow extends StoredListing {
  result: string | null;
}

/** Another listing of a URL met before: where, and what the validator said of it. */
export interface StoredRepeat {
  sitemap: string;
  line: number | null;
  detail: string;
}

/** A check's outcome, as the audit encodes it. */
export interface StoredCheck {
  /** JSON text. */
  result: string;
  /** One bit per finding. */
  findings: number;
  /** The page's own hreflang links as JSON text, when it has any (for return-link checks). */
  liveHreflang?: string | undefined;
}

/** What the audit needs of its state: this interface, whatever the driver. */
export interface AuditState {
  /** A value kept by key, or undefined. */
  getMeta(key: string): string | undefined;
  /** Keeps a value by key. */
  setMeta(key: string, value: string): void;
  /** Records listings in one transaction; a URL already listed is kept as first met. Returns how many were new. */
  addListings(listings: readonly NewListing[]): number;
  /** Records another listing of `url` (a duplicate or a twin), once per place. */
  addRepeat(url: string, repeat: StoredRepeat): void;
  /** URLs listed (each once). */
  listedCount(): number;
  /** URLs in the sample: all of them unless chooseSample() narrowed it. */
  sampledCount(): number;
  /** Narrows the sample to the `size` listings of smallest sample key (ties: first met). */
  chooseSample(size: number): void;
  /** Up to `limit` sampled, unchecked listings after `afterSeq`, in order. */
  nextToCheck(afterSeq: number, limit: number): StoredListing[];
  /** The other listings of `url`, in the order met. */
  repeatsOf(url: string): StoredRepeat[];
  /** Every URL with a repeat (lazily; they are few). */
  repeatedUrls(): IterableIterator<string>;
  /** Whether the sitemaps list `url`. */
  isListed(url: string): boolean;
  /** Commits checks in one transaction. */
  saveChecks(checks: readonly { seq: number; check: StoredCheck }[]): void;
  /** URLs checked. */
  checkedCount(): number;
  /** Checked URLs with at least one finding. */
  flaggedCount(): number;
  /** Sampled listings in order, with their results (lazily, in constant memory). */
  rows(): IterableIterator<StoredRow>;
  /** The live hreflang links of a listed URL: undefined when it is not listed or not yet checked, null when it has none. */
  liveHreflangOf(url: string): string | null | undefined;
  /** Every listed URL (lazily). */
  listedUrls(): IterableIterator<string>;
  /** Closes the state. */
  close(): void;
}

/**
 * No index beyond the URL's (every index costs a page write per listing): the checking order is
 * read by seq from a cursor, the sample by one sort, the rest by URL.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit_sitemaps (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS audit_urls (
  seq INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  sitemap INTEGER NOT NULL,
  line INTEGER,
  lastmod TEXT,
  alternates TEXT,
  sample_key INTEGER NOT NULL,
  sampled INTEGER NOT NULL DEFAULT 1,
  result TEXT,
  findings INTEGER NOT NULL DEFAULT 0,
  live_hreflang TEXT
);
CREATE TABLE IF NOT EXISTS audit_repeats (
  url TEXT NOT NULL, sitemap INTEGER NOT NULL, line INTEGER, detail TEXT NOT NULL, UNIQUE (url, sitemap, line)
);
`;

/**
 * The migrations of the layout above (see migrations.ts): add one at the end, never edit one that
 * shipped. A state file of another layout is not read.
 */
export const AUDIT_STATE_SCHEMA: StoreSchema = {
  title: 'the audit state',
  otherwise: 'audit again without --resume',
  migrations: [{ version: 1, name: 'listings, sitemaps, repeats and checks', sql: () => SCHEMA }],
};

const LISTING_COLUMNS = 'u.seq, u.url, s.url AS sitemap, u.line, u.lastmod, u.alternates';

/** Sitemap ids kept in memory at most. */
const SITEMAP_IDS_KEPT = 4096;

export class SqliteAuditStore implements AuditState {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly statements;
  /**
   * Sitemap URL → id, for the sitemaps met lately: a sitemap's listings come together, and a tree
   * may hold a million sitemaps, so older ones are looked up again in the file.
   */
  private readonly sitemapIds = new Map<string, number>();
  private readonly addTransaction;
  private readonly saveTransaction;

  /** Opens (creating) the state at `file`; `fresh` discards an earlier audit's state there. */
  constructor(file: string, { fresh = false }: { fresh?: boolean } = {}) {
    this.file = file;
    // OFF spares the fsyncs, at the price of a power cut possibly spoiling the state (a fresh
    // audit rebuilds it); kill -9 loses nothing committed.
    this.db = openStateFile(file, { schema: AUDIT_STATE_SCHEMA, durability: 'OFF', fresh });
    const db = this.db;
    this.statements = {
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM audit_meta WHERE key = ?'),
      setMeta: db.prepare(
        'INSERT INTO audit_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      addSitemap: db.prepare('INSERT OR IGNORE INTO audit_sitemaps (url) VALUES (?)'),
      sitemapId: db.prepare<[string], { id: number }>('SELECT id FROM audit_sitemaps WHERE url = ?'),
      addListing: db.prepare(
        'INSERT OR IGNORE INTO audit_urls (url, sitemap, line, lastmod, alternates, sample_key) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      addRepeat: db.prepare('INSERT OR IGNORE INTO audit_repeats (url, sitemap, line, detail) VALUES (?, ?, ?, ?)'),
      repeats: db.prepare<[string], StoredRepeat>(
        'SELECT s.url AS sitemap, r.line, r.detail FROM audit_repeats r JOIN audit_sitemaps s ON s.id = r.sitemap WHERE r.url = ? ORDER BY r.rowid',
      ),
      listedCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM audit_urls'),
      sampledCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM audit_urls WHERE sampled = 1'),
      unsampleAll: db.prepare('UPDATE audit_urls SET sampled = 0'),
      sample: db.prepare(
        'UPDATE audit_urls SET sampled = 1 WHERE seq IN (SELECT seq FROM audit_urls ORDER BY sample_key, seq LIMIT ?)',
      ),
      nextToCheck: db.prepare<[number, number], StoredListing>(
        `SELECT ${LISTING_COLUMNS} FROM audit_urls u JOIN audit_sitemaps s ON s.id = u.sitemap
         WHERE u.seq > ? AND u.sampled = 1 AND u.result IS NULL ORDER BY u.seq LIMIT ?`,
      ),
      repeatedUrls: db.prepare<[], { url: string }>('SELECT DISTINCT url FROM audit_repeats').pluck(),
      isListed: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM audit_urls WHERE url = ?'),
      saveCheck: db.prepare('UPDATE audit_urls SET result = ?, findings = ?, live_hreflang = ? WHERE seq = ?'),
      checkedCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM audit_urls WHERE result IS NOT NULL'),
      flaggedCount: db.prepare<[], { n: number }>(
        'SELECT count(*) AS n FROM audit_urls WHERE result IS NOT NULL AND findings != 0',
      ),
      rows: db.prepare<[], StoredRow>(
        `SELECT ${LISTING_COLUMNS}, u.result FROM audit_urls u JOIN audit_sitemaps s ON s.id = u.sitemap
         WHERE u.sampled = 1 ORDER BY u.seq`,
      ),
      liveHreflang: db.prepare<[string], { checked: number; live: string | null }>(
        'SELECT result IS NOT NULL AS checked, live_hreflang AS live FROM audit_urls WHERE url = ?',
      ),
      listedUrls: db.prepare<[], { url: string }>('SELECT url FROM audit_urls ORDER BY seq').pluck(),
    };
    this.addTransaction = db.transaction((listings: readonly NewListing[]) => {
      let added = 0;
      for (const listing of listings) {
        added += this.statements.addListing.run(
          listing.url,
          this.sitemapId(listing.sitemap),
          listing.line ?? null,
          listing.lastmod ?? null,
          listing.alternates ?? null,
          listing.sampleKey,
        ).changes;
      }
      return added;
    });
    this.saveTransaction = db.transaction((checks: readonly { seq: number; check: StoredCheck }[]) => {
      for (const { seq, check } of checks)
        this.statements.saveCheck.run(check.result, check.findings, check.liveHreflang ?? null, seq);
    });
  }

  private sitemapId(url: string): number {
    let id = this.sitemapIds.get(url);
    if (id === undefined) {
      this.statements.addSitemap.run(url);
      id = this.statements.sitemapId.get(url)!.id;
      if (this.sitemapIds.size === SITEMAP_IDS_KEPT) this.sitemapIds.clear();
      this.sitemapIds.set(url, id);
    }
    return id;
  }

  /** A value kept by key, or undefined. */
  getMeta(key: string): string | undefined {
    return this.statements.getMeta.get(key)?.value;
  }

  /** Keeps a value by key. */
  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }

  addListings(listings: readonly NewListing[]): number {
    return this.addTransaction(listings);
  }

  addRepeat(url: string, repeat: StoredRepeat): void {
    this.statements.addRepeat.run(url, this.sitemapId(repeat.sitemap), repeat.line, repeat.detail);
  }

  /** URLs listed (each once). */
  listedCount(): number {
    return this.statements.listedCount.get()!.n;
  }

  sampledCount(): number {
    return this.statements.sampledCount.get()!.n;
  }

  chooseSample(size: number): void {
    this.db.transaction(() => {
      this.statements.unsampleAll.run();
      this.statements.sample.run(size);
    })();
  }

  nextToCheck(afterSeq: number, limit: number): StoredListing[] {
    return this.statements.nextToCheck.all(afterSeq, limit);
  }

  /** The other listings of `url`, in the order met. */
  repeatsOf(url: string): StoredRepeat[] {
    return this.statements.repeats.all(url);
  }

  /** Whether the sitemaps list `url`. */
  isListed(url: string): boolean {
    return this.statements.isListed.get(url) !== undefined;
  }

  repeatedUrls(): IterableIterator<string> {
    return this.statements.repeatedUrls.iterate() as IterableIterator<string>;
  }

  saveChecks(checks: readonly { seq: number; check: StoredCheck }[]): void {
    this.saveTransaction(checks);
  }

  /** URLs checked. */
  checkedCount(): number {
    return this.statements.checkedCount.get()!.n;
  }

  flaggedCount(): number {
    return this.statements.flaggedCount.get()!.n;
  }

  rows(): IterableIterator<StoredRow> {
    return this.statements.rows.iterate();
  }

  liveHreflangOf(url: string): string | null | undefined {
    const row = this.statements.liveHreflang.get(url);
    return row === undefined || row.checked === 0 ? undefined : row.live;
  }

  listedUrls(): IterableIterator<string> {
    return this.statements.listedUrls.iterate() as IterableIterator<string>;
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}
