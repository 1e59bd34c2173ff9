/**
 * The listed URLs of an audit as its discovery meets them: the first listing of each URL kept (its
 * later listings, and its http/https or www twins', as repeats), and the deterministic sample that
 * --max-urls narrows them to. The audit's run is made from it (run/audit-checks.ts), each listing
 * an item of the run's queue; nothing here outlives the making of the run.
 *
 * An audit may list millions of URLs: they wait in a scratch SQLite file (store/scratch-file.ts),
 * not in the JavaScript heap, which would hold a few hundred bytes for each.
 */
import type { Statement } from 'better-sqlite3';
import type { Alternate } from '../core/entry.js';
import { ScratchFile } from '../store/scratch-file.js';
import type { Listing } from './check.js';

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

/** Another listing of a URL met before: where, and what the validator said of it. */
export interface Repeat {
  sitemap: string;
  line: number | null;
  detail: string;
}

/** A check's outcome, as an item of the audit's run keeps it. */
export interface StoredCheck {
  /** The row's facts, as JSON text. */
  result: string;
  /** One bit per finding. */
  findings: number;
  /** The page's own hreflang links as JSON text, when it has any (for return-link checks). */
  liveHreflang?: string | undefined;
}

/** Where the discovery puts what the sitemaps list. */
export interface ListingSink {
  /** Records listings; a URL already listed is kept as first met. Returns how many were new. */
  addListings(listings: readonly NewListing[]): number;
  /** Records another listing of `url` (a duplicate or a twin), once per place. */
  addRepeat(url: string, repeat: Repeat): void;
}

/** Every URL listed, in the order first met, with its repeats: in a scratch file, deleted on close. */
export class ListingBook implements ListingSink {
  private readonly file: ScratchFile;
  private readonly insertListing: Statement;
  private readonly insertRepeat: Statement;
  private readonly repeatsOf: Statement;
  private listed = 0;
  private sampled: number | undefined;
  /** Few URLs are listed twice: until one is, no listing looks its repeats up. */
  private anyRepeats = false;
  /** Whether a sitemap names hreflang alternates of a URL (else no return link needs looking up). */
  hasAlternates = false;

  /** @param scratchDirectory where its scratch folder is made (default: the system's temporary folder) */
  constructor(scratchDirectory?: string) {
    this.file = new ScratchFile('listings', scratchDirectory);
    const { db } = this.file;
    // `met` is the order first met; `line` is -1 for none, so that a repeat without one is kept once.
    db.exec(`
      CREATE TABLE listings (met INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, sitemap TEXT NOT NULL,
        line INTEGER, lastmod TEXT, alternates TEXT, sample_key REAL NOT NULL, sampled INTEGER NOT NULL DEFAULT 1);
      CREATE TABLE repeats (url TEXT NOT NULL, sitemap TEXT NOT NULL, line INTEGER NOT NULL, detail TEXT NOT NULL,
        UNIQUE (url, sitemap, line));`);
    this.insertListing = db.prepare(
      `INSERT INTO listings (url, sitemap, line, lastmod, alternates, sample_key)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (url) DO NOTHING`,
    );
    this.insertRepeat = db.prepare(
      'INSERT INTO repeats (url, sitemap, line, detail) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.repeatsOf = db.prepare('SELECT sitemap, line, detail FROM repeats WHERE url = ? ORDER BY rowid');
  }

  addListings(listings: readonly NewListing[]): number {
    const added = this.file.db.transaction(() => {
      let count = 0;
      for (const { url, sitemap, line, lastmod, alternates, sampleKey } of listings) {
        const { changes } = this.insertListing.run(
          url,
          sitemap,
          line ?? null,
          lastmod ?? null,
          alternates ?? null,
          sampleKey,
        );
        if (changes === 0) continue;
        count += 1;
        if (alternates !== undefined) this.hasAlternates = true;
      }
      return count;
    })();
    this.listed += added;
    return added;
  }

  addRepeat(url: string, repeat: Repeat): void {
    this.insertRepeat.run(url, repeat.sitemap, repeat.line ?? -1, repeat.detail);
    this.anyRepeats = true;
  }

  /** URLs listed (each once). */
  get listedCount(): number {
    return this.listed;
  }

  /** URLs in the sample: all of them unless {@link chooseSample} narrowed it. */
  get sampledCount(): number {
    return this.sampled ?? this.listed;
  }

  /** Narrows the sample to the `size` listings of smallest sample key (ties: first met). */
  chooseSample(size: number): void {
    this.file.db
      .prepare(
        `UPDATE listings SET sampled = 0
         WHERE met NOT IN (SELECT met FROM listings ORDER BY sample_key, met LIMIT ?)`,
      )
      .run(size);
    this.sampled = Math.min(size, this.listed);
  }

  /** The sampled listings in the order met, as the check reads them. */
  *sample(): Generator<Listing> {
    const rows = this.file.db
      .prepare('SELECT url, sitemap, line, lastmod, alternates FROM listings WHERE sampled = 1 ORDER BY met')
      .iterate() as IterableIterator<ListingRow>;
    for (const row of rows) yield this.listingOf(row);
  }

  /** The listed URLs outside the sample, in the order met. */
  *unsampled(): Generator<string> {
    const rows = this.file.db
      .prepare('SELECT url FROM listings WHERE sampled = 0 ORDER BY met')
      .pluck()
      .iterate() as IterableIterator<string>;
    yield* rows;
  }

  /** Deletes the scratch file; safe to call twice. */
  close(): void {
    this.file.close();
  }

  private listingOf(row: ListingRow): Listing {
    const repeats = this.anyRepeats
      ? (this.repeatsOf.all(row.url) as RepeatRow[]).map((r) => ({ ...r, line: r.line === -1 ? null : r.line }))
      : [];
    return {
      url: row.url,
      sitemap: row.sitemap,
      ...(row.line === null ? {} : { line: row.line }),
      ...(row.lastmod === null ? {} : { lastmod: row.lastmod }),
      ...(row.alternates === null ? {} : { alternates: JSON.parse(row.alternates) as Alternate[] }),
      ...(repeats.length === 0 ? {} : { repeats }),
    };
  }
}

interface ListingRow {
  url: string;
  sitemap: string;
  line: number | null;
  lastmod: string | null;
  alternates: string | null;
}

interface RepeatRow {
  sitemap: string;
  line: number;
  detail: string;
}
