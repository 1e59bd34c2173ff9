/**
 * What writeSitemaps needs from a ledger of earlier runs to regenerate incrementally
 * (stable-shards.ts). The generator defines it and the store implements it
 * (store/generate-ledger.ts, SQLite), so the generator imports nothing of the store.
 *
 * A run stages every URL it writes, plans its shards from what it staged and what the last run
 * recorded, writes the shards that changed, publishes, and only then records the new state, in
 * one step: a run that fails or is killed before that leaves the ledger as it was, and the next
 * run finds the same changes again.
 */

export interface SitemapLedger {
  /** Starts a run for the site whose sitemaps are published at `site` (the base URL). */
  beginRun(site: string): LedgerRun;
}

export type UrlChange = 'added' | 'changed' | 'removed';

/** What the ledger knows of a URL from the last run that published it. */
export interface KnownUrl {
  /** The shard it is written in, and its place there (shards list their URLs by `seq`). */
  shard: number;
  seq: number;
  /** Digest of the entry as written (and of its page's content), and when it last changed. */
  digest: string;
  changedAt: string;
  /** For a page of a build directory: the digest of its content, and when that last changed. */
  contentDigest?: string;
  contentChangedAt?: string;
}

/** A URL of this run, as staged. */
export interface StagedUrl {
  loc: string;
  /** Its shard when it keeps its place; undefined when it is to be placed (a new URL, or a new layout). */
  shard: number | undefined;
  /** Its place in the order URLs were first written; undefined for a new URL (the ledger gives it the next). */
  seq: number | undefined;
  /** The entry serialised, its UTF-8 size, and whether it is a news entry (1,000 per sitemap at most). */
  text: string;
  bytes: number;
  news: boolean;
  lastmod: string | undefined;
  lastmodMillis: number | undefined;
  digest: string;
  changedAt: string;
  contentDigest: string | undefined;
  contentChangedAt: string | undefined;
  change: Exclude<UrlChange, 'removed'> | 'same';
}

/** One entry of a shard, to write it. */
export interface ShardEntry {
  text: string;
  lastmod: string | undefined;
  lastmodMillis: number | undefined;
}

/** What a shard holds in this run: URLs, bytes of their entries (without the document's opening and closing), news entries. */
export interface ShardTotals {
  shard: number;
  urls: number;
  bytes: number;
  news: number;
}

/** A shard as published. */
export interface RecordedShard {
  shard: number;
  name: string;
  /** SHA-256 of the uncompressed document (its name carries the start of it). */
  digest: string;
  urls: number;
  bytes: number;
  gzipBytes?: number;
  /** Newest lastmod of its URLs, as written in the index. */
  lastmod?: string;
}

/** What a run changed against the last one: URLs added, changed and removed. */
export interface RunChanges {
  /** The run's number in the ledger. */
  run: number;
  /** True for the site's first run: every URL is added. */
  firstRun: boolean;
  added: number;
  changed: number;
  removed: number;
}

/** What a run changed, as the ledger recorded it, with the first URLs of each kind of change. */
export interface RecordedChanges extends RunChanges {
  /** The ledger file. */
  ledger: string;
  examples: Record<UrlChange, string[]>;
}

export interface LedgerRun {
  /** True when the ledger knows nothing of the site yet: dates of first seen pages may come from elsewhere (git). */
  readonly firstRun: boolean;
  /**
   * The options that shape the files (format, gzip, limits…) as the last run wrote them, or
   * undefined. When they differ from this run's, the last run's shards cannot be kept.
   */
  readonly layout: string | undefined;
  recall(loc: string): KnownUrl | undefined;
  /** Stages a URL; false when it was staged already (a duplicate: the first one stays). */
  stage(url: StagedUrl): boolean;
  /** Ends the staging: URLs the last run recorded and this run did not stage are removed. */
  endStaging(): void;
  /** The shards the last run published. */
  recordedShards(): RecordedShard[];
  /** The shards that lost a URL or hold a changed one. */
  shardsWithChanges(): number[];
  /** The totals of each shard holding URLs, by shard. */
  shardTotals(): ShardTotals[];
  /** The URLs of `shard` in order, with their sizes, for the shards that outgrew a limit. */
  sizesOf(shard: number): Iterable<{ seq: number; bytes: number; news: boolean }>;
  /** Takes URLs out of their shard, to be placed again after every other (new places at the end). */
  unplace(seqs: readonly number[]): void;
  /** The URLs to place, in order, with their sizes. */
  unplaced(): Iterable<{ seq: number; bytes: number; news: boolean }>;
  /** Places the URLs to place from `fromSeq` to `toSeq` in `shard`. */
  place(shard: number, fromSeq: number, toSeq: number): void;
  /** The entries of `shard` in order (once every URL is placed). */
  entriesOf(shard: number): Iterable<ShardEntry>;
  /** After publication: records the new state, the run and its changes, in one transaction. */
  record(layout: string, shards: readonly RecordedShard[], at: Date): RunChanges;
  /** Ends the run without recording anything. */
  discard(): void;
}
