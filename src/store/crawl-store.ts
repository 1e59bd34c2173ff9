/**
 * The crawl state in embedded SQLite (better-sqlite3, WAL): one row per URL the crawl has met,
 * queued until its outcome is known. Each finished page, with every URL it led to, is written in
 * one transaction, so a crawl killed at any moment (kill -9 included) resumes with the pages it
 * finished and their links, and fetches again only the pages that were in flight.
 *
 * The store knows nothing of HTTP or HTML: outcomes are strings the crawler chooses.
 */
import type { StoreSchema } from './migrations.js';
import { openStateFile } from './state-file.js';
import type Database from 'better-sqlite3';
import { withoutCommonImages } from '../core/common-images.js';
import type { UrlEntry } from '../core/entry.js';
import { FingerprintSet } from '../core/fingerprint-set.js';

export interface QueuedUrl {
  seq: number;
  url: string;
  depth: number;
  /** How many pages of the same URL pattern led here one after another (see crawl/traps.ts). */
  chain: number;
}

export interface FinishedUrl {
  url: string;
  /** 'listed' or the reason the URL was left out. */
  outcome: string;
  detail?: string;
  /** True when the URL was requested (whatever the answer); default false. */
  fetched?: boolean;
  entry?: UrlEntry;
  /** True when the failure may pass: the URL is handed out again by nextRetry(). */
  retry?: boolean;
}

/** Where a found URL was met: its depth, its chain, and the seq of the page that led to it (none for seeds). */
interface FoundAt {
  depth: number;
  chain?: number;
  foundOn?: number;
}

/**
 * A URL met while finishing a page: queued at `depth`; or settled at once with an outcome (when
 * it is new); or, `beyondDepth`, set aside and settled at the end only if no shallower path
 * queued it meanwhile.
 */
export type FoundUrl = ({ url: string; outcome?: undefined; beyondDepth?: boolean } | FinishedUrl) & FoundAt;

/** A URL as a run's store holds it, `seq` its order there and `foundOn` the seq of the page that led to it. */
export interface RestoredUrl {
  seq: number;
  url: string;
  depth: number;
  foundOn: number | null;
  outcome: string | null;
  detail?: string | null;
  fetched: boolean;
  entry?: UrlEntry;
}

/** A URL left out, with the page that first led to it (none for a seed or the start URL). */
export interface LeftOutUrl {
  url: string;
  outcome: string;
  detail: string | null;
  foundOn: string | null;
}

/** Query parameters normalisation removed from one URL met. */
export interface StrippedParams {
  /** The URL as met, and as kept. */
  from: string;
  to: string;
  names: readonly string[];
}

export interface OutcomeExample {
  url: string;
  detail: string | null;
}

/**
 * No index beyond the URL's: every index costs a page write per finished page. The queue is read
 * by seq (the rowid) from a cursor, and rows past the cursor are mostly queued ones; counts and
 * examples by outcome are read once, at the end, by a scan. `found_on` is the seq of the page
 * that led to a URL (a rowid lookup for the report); `retry` marks a failure to try again.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS crawl_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS crawl_urls (
  seq INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  depth INTEGER NOT NULL,
  chain INTEGER NOT NULL DEFAULT 0,
  found_on INTEGER,
  outcome TEXT,
  detail TEXT,
  fetched INTEGER NOT NULL DEFAULT 0,
  retry INTEGER NOT NULL DEFAULT 0,
  entry TEXT
);
CREATE TABLE IF NOT EXISTS crawl_beyond_depth (url TEXT PRIMARY KEY, depth INTEGER NOT NULL, found_on INTEGER);
CREATE TABLE IF NOT EXISTS crawl_stripped (url TEXT NOT NULL, name TEXT NOT NULL, kept TEXT NOT NULL, UNIQUE (url, name));
`;

/**
 * The migrations of the layout above (see migrations.ts): add one at the end, never edit one that
 * shipped. A state file of another layout is not read.
 */
export const CRAWL_STATE_SCHEMA: StoreSchema = {
  title: 'the crawl state',
  otherwise: 'crawl again without --resume',
  migrations: [{ version: 1, name: 'the queue, outcomes, depth-limited and stripped URLs', sql: () => SCHEMA }],
};

/**
 * The crawl's state in one SQLite file: the queue, every URL's outcome, the pages to list. A crawl
 * stopped at any moment continues from it.
 */
export class CrawlStore {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly statements;
  /**
   * URLs this process has already written to crawl_urls (8 bytes each): most links on a page
   * are known ones, and skipping their INSERT OR IGNORE spares most of the per-page writes.
   */
  private readonly known = new FingerprintSet();
  /** URLs whose stripped parameters are recorded already: links repeat on every page. */
  private readonly strippedKnown = new FingerprintSet();
  private readonly enqueueTransaction;
  private readonly finishTransaction;
  private readonly settleTransaction;
  private readonly stripTransaction;
  private readonly restoreTransaction;

  /**
   * Opens (creating) the database at `file`. `fresh` discards an earlier crawl's state there;
   * otherwise the state is kept for resuming.
   */
  constructor(file: string, { fresh = false }: { fresh?: boolean } = {}) {
    this.file = file;
    // OFF spares the fsyncs (a third of the cost of a page here) at the price of a power cut
    // possibly spoiling the state, which a fresh crawl rebuilds; kill -9 loses nothing committed.
    this.db = openStateFile(file, { schema: CRAWL_STATE_SCHEMA, durability: 'OFF', fresh });
    this.statements = {
      getMeta: this.db.prepare<[string], { value: string }>('SELECT value FROM crawl_meta WHERE key = ?'),
      setMeta: this.db.prepare(
        'INSERT INTO crawl_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      queue: this.db.prepare('INSERT OR IGNORE INTO crawl_urls (url, depth, chain, found_on) VALUES (?, ?, ?, ?)'),
      settle: this.db.prepare(
        'INSERT OR IGNORE INTO crawl_urls (url, depth, chain, found_on, outcome, detail, fetched, retry, entry) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      beyondDepth: this.db.prepare('INSERT OR IGNORE INTO crawl_beyond_depth (url, depth, found_on) VALUES (?, ?, ?)'),
      finish: this.db.prepare(
        'UPDATE crawl_urls SET outcome = ?, detail = ?, fetched = ?, retry = ?, entry = ? WHERE url = ?',
      ),
      nextQueued: this.db.prepare<[number, number], QueuedUrl>(
        'SELECT seq, url, depth, chain FROM crawl_urls WHERE outcome IS NULL AND seq > ? ORDER BY seq LIMIT ?',
      ),
      nextRetry: this.db.prepare<[number, number], QueuedUrl>(
        'SELECT seq, url, depth, chain FROM crawl_urls WHERE retry = 1 AND seq > ? ORDER BY seq LIMIT ?',
      ),
      queuedUrl: this.db.prepare<[string], QueuedUrl>(
        'SELECT seq, url, depth, chain FROM crawl_urls WHERE url = ? AND outcome IS NULL',
      ),
      queuedCount: this.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM crawl_urls WHERE outcome IS NULL'),
      fetchedCount: this.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM crawl_urls WHERE fetched = 1'),
      outcomeCounts: this.db.prepare<[], { outcome: string; n: number }>(
        'SELECT outcome, count(*) AS n FROM crawl_urls WHERE outcome IS NOT NULL GROUP BY outcome',
      ),
      examples: this.db.prepare<[string, number], OutcomeExample>(
        'SELECT url, detail FROM crawl_urls WHERE outcome = ? ORDER BY seq LIMIT ?',
      ),
      // SQLite takes the bare column `url` from the row of min(seq): the first URL met in each group.
      detailGroups: this.db.prepare<[string, number], { detail: string; count: number; example: string }>(
        `SELECT detail, count(*) AS count, url AS example, min(seq) AS first FROM crawl_urls
         WHERE outcome = ? GROUP BY detail ORDER BY first LIMIT ?`,
      ),
      notes: this.db.prepare<[string, number], { url: string; detail: string }>(
        'SELECT url, detail FROM crawl_urls WHERE outcome = ? AND detail IS NOT NULL ORDER BY seq LIMIT ?',
      ),
      noteCount: this.db.prepare<[string], { n: number }>(
        'SELECT count(*) AS n FROM crawl_urls WHERE outcome = ? AND detail IS NOT NULL',
      ),
      outcomeOf: this.db.prepare<[string], { outcome: string | null; detail: string | null }>(
        'SELECT outcome, detail FROM crawl_urls WHERE url = ?',
      ),
      all: this.db.prepare<[], { url: string; outcome: string | null; detail: string | null }>(
        'SELECT url, outcome, detail FROM crawl_urls ORDER BY seq',
      ),
      rows: this.db.prepare<[], { url: string; outcome: string | null; detail: string | null; fetched: number }>(
        'SELECT url, outcome, detail, fetched FROM crawl_urls ORDER BY seq',
      ),
      listed: this.db.prepare<[], { entry: string }>(
        "SELECT entry FROM crawl_urls WHERE outcome = 'listed' ORDER BY url",
      ),
      leftOut: this.db.prepare<[], LeftOutUrl>(
        `SELECT u.url, u.outcome, u.detail, p.url AS foundOn FROM crawl_urls u LEFT JOIN crawl_urls p ON p.seq = u.found_on
         WHERE u.outcome IS NOT NULL AND u.outcome != 'listed' ORDER BY u.seq`,
      ),
      queryVariants: this.db.prepare<[], { path: string; n: number }>(
        `SELECT substr(url, 1, instr(url, '?') - 1) AS path, count(*) AS n FROM crawl_urls
         WHERE fetched = 1 AND instr(url, '?') > 0 GROUP BY path`,
      ),
      settleQueued: this.db.prepare('UPDATE crawl_urls SET outcome = ?, detail = ? WHERE outcome IS NULL'),
      settleBeyondDepth: this.db.prepare(
        'INSERT OR IGNORE INTO crawl_urls (url, depth, found_on, outcome, detail) SELECT url, depth, found_on, ?, ? FROM crawl_beyond_depth ORDER BY rowid',
      ),
      strip: this.db.prepare('INSERT OR IGNORE INTO crawl_stripped (url, name, kept) VALUES (?, ?, ?)'),
      restore: this.db.prepare(
        'INSERT OR IGNORE INTO crawl_urls (seq, url, depth, found_on, outcome, detail, fetched, entry) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      strippedRows: this.db.prepare<[], { from: string; to: string; name: string }>(
        'SELECT url AS "from", kept AS "to", name FROM crawl_stripped ORDER BY rowid',
      ),
    };
    this.enqueueTransaction = this.db.transaction((urls: readonly FoundUrl[]) => this.addFound(urls));
    this.finishTransaction = this.db.transaction((finished: FinishedUrl, found: readonly FoundUrl[]) => {
      this.statements.finish.run(...columns(finished), finished.url);
      return this.addFound(found);
    });
    this.stripTransaction = this.db.transaction((stripped: StrippedParams) => {
      for (const name of stripped.names) this.statements.strip.run(stripped.from, name, stripped.to);
    });
    this.restoreTransaction = this.db.transaction((urls: readonly RestoredUrl[]) => {
      for (const url of urls)
        this.statements.restore.run(
          url.seq,
          url.url,
          url.depth,
          url.foundOn ?? null,
          url.outcome,
          url.detail ?? null,
          url.fetched ? 1 : 0,
          url.entry === undefined ? null : JSON.stringify(url.entry),
        );
    });
    this.settleTransaction = this.db.transaction(
      (queued: { outcome: string; detail: string }, tooDeep: { outcome: string; detail: string }) => {
        this.statements.settleQueued.run(queued.outcome, queued.detail);
        this.statements.settleBeyondDepth.run(tooDeep.outcome, tooDeep.detail);
      },
    );
  }

  /** A value the crawl recorded about itself (its start URL, its options), or undefined. */
  getMeta(key: string): string | undefined {
    return this.statements.getMeta.get(key)?.value;
  }

  /** Records a value about the crawl, kept for a resume. */
  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }

  /** Queues URLs (seeds) in one transaction; returns how many were new. */
  enqueue(urls: readonly FoundUrl[]): number {
    return this.enqueueTransaction(urls);
  }

  /**
   * Records the outcome of `finished` and the URLs it led to, atomically: after a crash either
   * both are stored or neither. Returns how many URLs were newly queued.
   */
  finish(finished: FinishedUrl, found: readonly FoundUrl[] = []): number {
    return this.finishTransaction(finished, found);
  }

  private addFound(urls: readonly FoundUrl[]): number {
    let queued = 0;
    for (const found of urls) {
      // Too-deep URLs stay out of `known`: a shallower path may still queue them.
      const foundOn = found.foundOn ?? null;
      if (found.outcome === undefined && found.beyondDepth)
        this.statements.beyondDepth.run(found.url, found.depth, foundOn);
      else if (!this.known.add(found.url)) continue;
      else if (found.outcome !== undefined)
        this.statements.settle.run(found.url, found.depth, found.chain ?? 0, foundOn, ...columns(found));
      else queued += this.statements.queue.run(found.url, found.depth, found.chain ?? 0, foundOn).changes;
    }
    return queued;
  }

  /** Up to `limit` queued URLs after `afterSeq`, oldest first (breadth-first order). */
  nextQueued(afterSeq: number, limit: number): QueuedUrl[] {
    return this.statements.nextQueued.all(afterSeq, limit);
  }

  /** Up to `limit` URLs marked to try again (FinishedUrl.retry) after `afterSeq`, oldest first. */
  nextRetry(afterSeq: number, limit: number): QueuedUrl[] {
    return this.statements.nextRetry.all(afterSeq, limit);
  }

  /** A URL while it is queued, undefined once settled (or never met). */
  queuedUrl(url: string): QueuedUrl | undefined {
    return this.statements.queuedUrl.get(url);
  }

  /** URLs waiting to be fetched. */
  queuedCount(): number {
    return this.statements.queuedCount.get()!.n;
  }

  /** URLs fetched so far. */
  fetchedCount(): number {
    return this.statements.fetchedCount.get()!.n;
  }

  /** How many URLs ended with each outcome. */
  outcomeCounts(): Map<string, number> {
    return new Map(this.statements.outcomeCounts.all().map((row) => [row.outcome, row.n]));
  }

  /** The first `limit` URLs left out as `outcome` (-1: all), with their details. */
  examples(outcome: string, limit: number): OutcomeExample[] {
    return this.statements.examples.all(outcome, limit);
  }

  /**
   * The URLs with `outcome` grouped by their detail (which names a trap's URL space), in the order
   * met: how many each, and the first met.
   */
  detailGroups(outcome: string, limit: number): { detail: string; count: number; example: string }[] {
    return this.statements.detailGroups
      .all(outcome, limit)
      .map(({ detail, count, example }) => ({ detail, count, example }));
  }

  /** URLs with `outcome` that carry a detail all the same (a listed page with a warning), and how many. */
  notes(outcome: string, limit: number): { count: number; examples: { url: string; detail: string }[] } {
    return { count: this.statements.noteCount.get(outcome)!.n, examples: this.statements.notes.all(outcome, limit) };
  }

  /** The outcome of one URL: undefined when never met, null outcome while still queued. */
  outcomeOf(url: string): { outcome: string | null; detail: string | null } | undefined {
    return this.statements.outcomeOf.get(url);
  }

  /** Settles the crawl's leftovers: queued URLs as `queuedOutcome`, URLs met only too deep as `depthOutcome`. */
  settleRemaining(
    queuedOutcome: { outcome: string; detail: string },
    depthOutcome: { outcome: string; detail: string },
  ): void {
    this.settleTransaction(queuedOutcome, depthOutcome);
  }

  /** Every URL met, in the order met, with its outcome (null while queued). */
  *outcomes(): IterableIterator<{ url: string; outcome: string | null; detail: string | null }> {
    yield* this.statements.all.iterate();
  }

  /** Every URL left out, in the order met, read lazily (constant memory). */
  leftOut(): IterableIterator<LeftOutUrl> {
    return this.statements.leftOut.iterate();
  }

  /** How many URLs with a query were fetched, by the URL before its "?": what a resumed crawl has done. */
  queryVariantCounts(): Map<string, number> {
    return new Map(this.statements.queryVariants.all().map((row) => [row.path, row.n]));
  }

  /**
   * Writes URLs as another store holds them (a run's, shared by workers), in one transaction:
   * the report and the sitemaps of the run are then read from here as from a crawl of one process.
   */
  restore(urls: readonly RestoredUrl[]): void {
    this.restoreTransaction(urls);
  }

  /** Records the parameters removed from a URL met, once per URL. */
  recordStripped(stripped: StrippedParams): void {
    if (this.strippedKnown.add(stripped.from)) this.stripTransaction(stripped);
  }

  /** Every URL met, in the order met, with its outcome and whether it was requested: what a summary reads. */
  *rows(): IterableIterator<{ url: string; outcome: string | null; detail: string | null; fetched: boolean }> {
    for (const row of this.statements.rows.iterate()) yield { ...row, fetched: row.fetched === 1 };
  }

  /** The parameters removed from the URLs met, one row per URL and name, in the order recorded. */
  stripped(): IterableIterator<{ from: string; to: string; name: string }> {
    return this.statements.strippedRows.iterate();
  }

  /**
   * The listed entries in URL order, read lazily (constant memory), without the images that stand
   * on most pages (a logo, icons: core/common-images.ts), which takes two more reads of the rows.
   */
  listedEntries(): IterableIterator<UrlEntry> {
    return withoutCommonImages(() => this.listedRows());
  }

  private *listedRows(): IterableIterator<UrlEntry> {
    for (const row of this.statements.listed.iterate()) yield JSON.parse(row.entry) as UrlEntry;
  }

  /** Closes the database; call it when the crawl is done. */
  close(): void {
    this.db.close();
  }
}

/** outcome, detail, fetched, retry, entry: the columns a finished URL fills. */
function columns(finished: FinishedUrl): [string, string | null, number, number, string | null] {
  return [
    finished.outcome,
    finished.detail ?? null,
    finished.fetched ? 1 : 0,
    finished.retry ? 1 : 0,
    finished.entry === undefined ? null : JSON.stringify(finished.entry),
  ];
}
