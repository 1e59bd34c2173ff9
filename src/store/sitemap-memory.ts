/**
 * What `tree --state DIR` remembers of each sitemap it read whole, in embedded SQLite
 * (better-sqlite3, WAL), `<state dir>/tree.sqlite`: its validators (ETag, Last-Modified), the
 * digest of its body, and what a walk needs of it without reading it again (kind, counts, lastmod
 * range, an index's children).
 *
 *   tree_sitemaps(url PRIMARY KEY, etag, last_modified, digest, kind, urls, sitemaps, children (JSON),
 *                 newest_lastmod, oldest_lastmod, read_at, problems (JSON: examples and counts by code))
 *
 * A walk's records are written in one transaction at its end, once its output is out: a run
 * killed before that leaves every sitemap as the last finished run knew it, so nothing a reader
 * did not get is taken for unchanged.
 */
import type { StoreSchema } from './migrations.js';
import { openStateFile } from './state-file.js';
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import type { RememberedSitemap, SitemapRecall } from '../discover/conditional.js';

/**
 * The memory's migrations (see migrations.ts): add one at the end, never edit one that shipped. A
 * memory written before problems were remembered (version 1) gets the column; its rows, without
 * their problems, are read again once (a sitemap must not come back unchanged with its errors
 * forgotten).
 */
export const SITEMAP_MEMORY_SCHEMA: StoreSchema = {
  title: "the tree's memory of sitemaps",
  otherwise: 'delete it (the next walk reads every sitemap whole again)',
  migrations: [
    {
      version: 1,
      name: 'sitemaps read whole',
      sql: () => `
CREATE TABLE tree_sitemaps (
  url TEXT PRIMARY KEY,
  etag TEXT,
  last_modified TEXT,
  digest TEXT NOT NULL,
  kind TEXT NOT NULL,
  urls INTEGER NOT NULL,
  sitemaps INTEGER NOT NULL,
  children TEXT NOT NULL,
  newest_lastmod TEXT,
  oldest_lastmod TEXT,
  read_at TEXT NOT NULL
) WITHOUT ROWID;
`,
    },
    { version: 2, name: "a sitemap's problems", sql: () => 'ALTER TABLE tree_sitemaps ADD COLUMN problems TEXT;' },
  ],
};

const BUSY_TIMEOUT_MS = 60_000;

export function sitemapMemoryPath(stateDir: string): string {
  return join(stateDir, 'tree.sqlite');
}

export class SitemapMemory implements SitemapRecall {
  private readonly db: Database.Database;
  private readonly recallStatement;

  constructor(readonly file: string) {
    this.db = openStateFile(file, {
      schema: SITEMAP_MEMORY_SCHEMA,
      durability: 'NORMAL',
      busyTimeoutMs: BUSY_TIMEOUT_MS,
    });
    this.recallStatement = this.db.prepare<
      [string],
      {
        url: string;
        etag: string | null;
        last_modified: string | null;
        digest: string;
        kind: string;
        urls: number;
        sitemaps: number;
        children: string;
        newest_lastmod: string | null;
        oldest_lastmod: string | null;
        problems: string | null;
      }
    >('SELECT * FROM tree_sitemaps WHERE url = ?');
  }

  recall(url: string): RememberedSitemap | undefined {
    const row = this.recallStatement.get(url);
    if (row === undefined || row.problems === null) return undefined;
    return {
      url: row.url,
      ...(row.etag === null ? {} : { etag: row.etag }),
      ...(row.last_modified === null ? {} : { lastModified: row.last_modified }),
      digest: row.digest,
      kind: row.kind,
      urls: row.urls,
      sitemaps: row.sitemaps,
      children: JSON.parse(row.children) as string[],
      ...(row.newest_lastmod === null ? {} : { newestLastmod: row.newest_lastmod }),
      ...(row.oldest_lastmod === null ? {} : { oldestLastmod: row.oldest_lastmod }),
      problems: JSON.parse(row.problems) as RememberedSitemap['problems'],
    };
  }

  /** Records the sitemaps of a walk, in one transaction. */
  remember(sitemaps: readonly RememberedSitemap[], at: Date): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO tree_sitemaps
         (url, etag, last_modified, digest, kind, urls, sitemaps, children, newest_lastmod, oldest_lastmod, read_at, problems)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const when = at.toISOString();
    this.db.transaction(() => {
      for (const s of sitemaps)
        insert.run(
          s.url,
          s.etag ?? null,
          s.lastModified ?? null,
          s.digest,
          s.kind,
          s.urls,
          s.sitemaps,
          JSON.stringify(s.children),
          s.newestLastmod ?? null,
          s.oldestLastmod ?? null,
          when,
          JSON.stringify(s.problems),
        );
    })();
  }

  close(): void {
    this.db.close();
  }
}
