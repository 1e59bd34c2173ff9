/**
 * The ledger of `submit`, in embedded SQLite (better-sqlite3, WAL), `<state dir>/submit.sqlite`:
 * what each URL looked like when it was last submitted and accepted, what it looks like now, and
 * every request sent with its batch and its answer.
 *
 *   submit_hosts(host, first_seen_at)            hosts the ledger has recorded (a first run records, not sends)
 *   submit_urls(host, loc, seen_digest, seen_run, digest, submitted_at, outcome)
 *       seen_digest: the URL's state in the last source read (its entry's digest, or 'removed');
 *       digest: the state last accepted (or recorded as the first run's baseline), NULL when none;
 *       a URL is due when the two differ
 *   submit_runs(run, at, source, endpoint, dry_run)
 *   submit_requests(request, run, host, endpoint, urls (JSON [[loc, digest]…]), count, sent_at,
 *       status, outcome, answered_at)      status NULL: sent, no answer recorded (the run died)
 *   submit_marks(base_url, last_run)        the generate ledger's runs already read (--from-state)
 *
 * A run is safe to kill at any moment: a request is recorded before it is sent, and its URLs are
 * marked submitted only in the transaction that records its acceptance.
 */
import type { StoreSchema } from './migrations.js';
import { openStateFile } from './state-file.js';
import { WriteBatches } from './write-batches.js';
import type Database from 'better-sqlite3';
import { join } from 'node:path';

/** The store's migrations (see migrations.ts): add one at the end, never edit one that shipped. */
export const SUBMISSION_LEDGER_SCHEMA: StoreSchema = {
  title: 'the submission ledger',
  otherwise: 'move it away to start a new ledger (every URL is then new to it)',
  migrations: [
    {
      version: 1,
      name: 'hosts, URLs, runs, requests and marks',
      sql: () => `
CREATE TABLE submit_hosts (host TEXT PRIMARY KEY, first_seen_at TEXT NOT NULL);
CREATE TABLE submit_urls (
  host TEXT NOT NULL,
  loc TEXT NOT NULL,
  seen_digest TEXT NOT NULL,
  seen_run INTEGER NOT NULL,
  digest TEXT,
  submitted_at TEXT,
  outcome TEXT,
  PRIMARY KEY (host, loc)
) WITHOUT ROWID;
CREATE TABLE submit_runs (run INTEGER PRIMARY KEY, at TEXT NOT NULL, source TEXT, endpoint TEXT, dry_run INTEGER);
CREATE TABLE submit_requests (
  request INTEGER PRIMARY KEY,
  run INTEGER NOT NULL,
  host TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  urls TEXT NOT NULL,
  count INTEGER NOT NULL,
  sent_at TEXT NOT NULL,
  status INTEGER,
  outcome TEXT,
  answered_at TEXT
);
CREATE INDEX submit_requests_by_time ON submit_requests (sent_at);
CREATE TABLE submit_marks (base_url TEXT PRIMARY KEY, last_run INTEGER NOT NULL);
`,
    },
  ],
};

/** The state of a URL that is gone from its source. */
export const REMOVED = 'removed';

/** Observations written per transaction. */
const BATCH = 10_000;
/** How long a run waits for another run's transaction. */
const BUSY_TIMEOUT_MS = 60_000;

export function submissionLedgerPath(stateDir: string): string {
  return join(stateDir, 'submit.sqlite');
}

/** A URL to submit: its host, and the state that will be recorded as submitted once accepted. */
export interface DueUrl {
  loc: string;
  state: string;
}

export interface SentRequest {
  request: number;
  host: string;
  urls: readonly DueUrl[];
}

export class SubmissionLedger {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly observations: WriteBatches;
  /** In a rehearsal (--dry-run) everything is one transaction, rolled back at its end. */
  private rehearsing = false;
  private readonly statements;

  constructor(file: string) {
    this.file = file;
    // What was accepted must survive a power cut once its transaction returned: FULL.
    this.db = openStateFile(file, {
      schema: SUBMISSION_LEDGER_SCHEMA,
      durability: 'FULL',
      busyTimeoutMs: BUSY_TIMEOUT_MS,
    });
    this.statements = {
      observe: this.db.prepare(
        `INSERT INTO submit_urls (host, loc, seen_digest, seen_run) VALUES (?, ?, ?, ?)
         ON CONFLICT (host, loc) DO UPDATE SET seen_digest = excluded.seen_digest, seen_run = excluded.seen_run`,
      ),
      knowsHost: this.db.prepare<[string], { one: number }>('SELECT 1 AS one FROM submit_hosts WHERE host = ?'),
    };
    this.observations = new WriteBatches(this.db, BATCH);
  }

  /** Starts a run: its number. */
  beginRun(at: Date, source: string, endpoint: string, dryRun: boolean): number {
    return Number(
      this.db
        .prepare('INSERT INTO submit_runs (at, source, endpoint, dry_run) VALUES (?, ?, ?, ?)')
        .run(at.toISOString(), source, endpoint, dryRun ? 1 : 0).lastInsertRowid,
    );
  }

  knowsHost(host: string): boolean {
    return this.statements.knowsHost.get(host) !== undefined;
  }

  /** Records what a URL looks like now (`state`: its digest, or REMOVED), as seen by `run`. */
  observe(run: number, host: string, loc: string, state: string): void {
    if (!this.rehearsing) this.observations.next();
    this.statements.observe.run(host, loc, state, run);
  }

  /** Ends the observations of a run (their last batch is committed). */
  endObserving(): void {
    if (!this.rehearsing) this.observations.end();
  }

  /**
   * The URLs of `hosts` that `run` did not see, and that were not gone already, are gone now
   * (for a source that holds the whole site, read whole). Returns how many.
   */
  markUnseenRemoved(run: number, hosts: readonly string[]): number {
    const mark = this.db.prepare(
      `UPDATE submit_urls SET seen_digest = '${REMOVED}', seen_run = ? WHERE host = ? AND seen_run < ? AND seen_digest != '${REMOVED}'`,
    );
    return this.db.transaction(() => hosts.reduce((n, host) => n + mark.run(run, host, run).changes, 0))();
  }

  /**
   * A host's first run: its URLs' current states become the baseline (recorded as if accepted,
   * never sent), and the host is known from now on. Returns how many URLs `run` saw on the host:
   * rows an earlier run left unrecorded (one stopped before this step, reading another source)
   * become history too, but are not this source's to count.
   */
  recordBaseline(host: string, at: Date, run: number): number {
    return this.db.transaction(() => {
      const { seen } = this.db
        .prepare<[string, number], { seen: number }>(
          `SELECT COUNT(*) AS seen FROM submit_urls WHERE host = ? AND seen_run = ? AND seen_digest != '${REMOVED}'`,
        )
        .get(host, run)!;
      this.db
        .prepare('INSERT OR IGNORE INTO submit_hosts (host, first_seen_at) VALUES (?, ?)')
        .run(host, at.toISOString());
      this.db
        .prepare(`DELETE FROM submit_urls WHERE host = ? AND seen_digest = '${REMOVED}' AND digest IS NULL`)
        .run(host);
      this.db.prepare(`UPDATE submit_urls SET digest = seen_digest, outcome = 'baseline' WHERE host = ?`).run(host);
      return seen;
    })();
  }

  /** Makes a host known without a baseline (its first run sends everything: --all). */
  recordHost(host: string, at: Date): void {
    this.db
      .prepare('INSERT OR IGNORE INTO submit_hosts (host, first_seen_at) VALUES (?, ?)')
      .run(host, at.toISOString());
  }

  /** Hosts with URLs due (in `run`: or every URL seen, with `all`). */
  hostsDue(run: number, all: boolean): string[] {
    return this.db
      .prepare<[number], { host: string }>(`SELECT DISTINCT host FROM submit_urls WHERE ${DUE} ORDER BY host`)
      .all(all ? run : -1)
      .map((row) => row.host);
  }

  /**
   * The next URLs of `host` due, after `after` (by URL), `limit` at most; with `all`, every URL
   * `run` saw too. URLs accepted after `acceptedBefore`, or `unanswered` (in a request sent since
   * then whose answer is unknown: unansweredSince), wait (never the same URL twice within the
   * window). `last` is where the next page starts.
   */
  due(
    host: string,
    options: {
      run: number;
      all: boolean;
      after: string;
      limit: number;
      acceptedBefore: string;
      unanswered: ReadonlySet<string>;
    },
  ): { urls: DueUrl[]; waiting: string[]; last: string | undefined } {
    const rows = this.db
      .prepare<[string, number, string, number], { loc: string; seen_digest: string; submitted_at: string | null }>(
        `SELECT loc, seen_digest, submitted_at FROM submit_urls
         WHERE host = ? AND ${DUE} AND loc > ? ORDER BY loc LIMIT ?`,
      )
      .all(host, options.all ? options.run : -1, options.after, options.limit);
    const urls: DueUrl[] = [];
    const waiting: string[] = [];
    for (const row of rows) {
      const recent =
        (row.submitted_at !== null && row.submitted_at > options.acceptedBefore) ||
        options.unanswered.has(`${host} ${row.loc}`);
      if (recent) waiting.push(row.loc);
      else urls.push({ loc: row.loc, state: row.seen_digest });
    }
    return { urls, waiting, last: rows.at(-1)?.loc };
  }

  /** Records a request before it is sent; its URLs are not marked submitted until it is accepted. */
  recordSending(run: number, host: string, endpoint: string, urls: readonly DueUrl[], at: Date): SentRequest {
    const request = Number(
      this.db
        .prepare('INSERT INTO submit_requests (run, host, endpoint, urls, count, sent_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(run, host, endpoint, JSON.stringify(urls.map((u) => [u.loc, u.state])), urls.length, at.toISOString())
        .lastInsertRowid,
    );
    return { request, host, urls };
  }

  /**
   * Records the answer to a request, and, when it was accepted, marks its URLs submitted in their
   * state as sent; otherwise notes the outcome on them (they stay due). One transaction.
   */
  recordAnswer(
    sent: SentRequest,
    answer: { status: number | undefined; accepted: boolean; outcome: string },
    at: Date,
  ): void {
    const when = at.toISOString();
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE submit_requests SET status = ?, outcome = ?, answered_at = ? WHERE request = ?')
        .run(answer.status ?? null, answer.outcome, when, sent.request);
      const update = answer.accepted
        ? this.db.prepare('UPDATE submit_urls SET digest = ?, submitted_at = ?, outcome = ? WHERE host = ? AND loc = ?')
        : this.db.prepare('UPDATE submit_urls SET outcome = ? WHERE host = ? AND loc = ?');
      for (const url of sent.urls) {
        if (answer.accepted) update.run(url.state, when, answer.outcome, sent.host, url.loc);
        else update.run(answer.outcome, sent.host, url.loc);
      }
    })();
  }

  /** The last run of the generate ledger already read for the site at `baseUrl` (--from-state). */
  mark(baseUrl: string): number | undefined {
    return this.db
      .prepare<[string], { last_run: number }>('SELECT last_run FROM submit_marks WHERE base_url = ?')
      .get(baseUrl)?.last_run;
  }

  setMark(baseUrl: string, lastRun: number): void {
    this.db
      .prepare(
        'INSERT INTO submit_marks (base_url, last_run) VALUES (?, ?) ON CONFLICT (base_url) DO UPDATE SET last_run = excluded.last_run',
      )
      .run(baseUrl, lastRun);
  }

  /**
   * Runs `work` so that nothing it writes stays (--dry-run): a transaction rolled back at the end.
   * Reads inside see the writes.
   */
  async rehearse<T>(work: () => Promise<T>): Promise<T> {
    this.db.exec('SAVEPOINT rehearsal');
    this.rehearsing = true;
    try {
      return await work();
    } finally {
      this.rehearsing = false;
      this.db.exec('ROLLBACK TO rehearsal; RELEASE rehearsal');
    }
  }

  close(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.db.close();
  }

  /** "host loc" of every URL in a request sent since `since` whose answer is unknown (its run died). */
  unansweredSince(since: string): Set<string> {
    const unknown = new Set<string>();
    const rows = this.db
      .prepare<[string], { host: string; urls: string }>(
        'SELECT host, urls FROM submit_requests WHERE status IS NULL AND outcome IS NULL AND sent_at > ?',
      )
      .all(since);
    for (const row of rows)
      for (const [loc] of JSON.parse(row.urls) as [string, string][]) unknown.add(`${row.host} ${loc}`);
    return unknown;
  }
}

/**
 * Due: the state seen differs from the state last accepted (a URL gone that was never accepted is
 * not news); or, with --all (the parameter is the run, else -1), seen in this run and not gone.
 */
const DUE = `((digest IS NULL AND seen_digest != '${REMOVED}') OR (digest IS NOT NULL AND seen_digest != digest)
  OR (seen_run = ? AND seen_digest != '${REMOVED}'))`;
