/**
 * Incremental regeneration over a ledger of earlier runs (ledger.ts): stable shards and honest
 * lastmod, built on the atomic publication of publication.ts.
 *
 * - A URL stays in the shard it was first written to, in the order it was first written; new URLs
 *   fill the last shard, then new ones; a removed URL leaves its shard smaller. A shard none of
 *   whose URLs changed is not written again: the file the last run published stays as it is
 *   (same bytes, same modification time), so adding or removing one URL rewrites one shard and
 *   the index. (A shard whose entries grew past a limit hands its last URLs on to the end.)
 * - A page of a build directory (an entry with a content digest) is dated by when its content
 *   last changed: its date in the ledger while the content stays the same, the run's time when it
 *   changes or appears; on the site's first run, the date the input gave it (its last commit, or
 *   its file time). Other entries keep their own lastmod.
 * - Each entry is digested (with its page's content): a new digest is a change, which the ledger
 *   records with the run once the sitemaps are published.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LIMITS, formatUtcDateTime, w3cToEpochMillis, type UrlEntry } from '../core/index.js';
import { entryTooLarge, tooManyFiles } from './errors.js';
import { isEntryPointItself, shardExtension, shardName } from './file-names.js';
import type { LedgerRun, RecordedShard, RunChanges, ShardTotals, SitemapLedger } from './ledger.js';
import type { Publication } from './publication.js';
import { ShardFile } from './shard-file.js';
import type { WrittenFile } from './types.js';
import type { ClosedShard, Settings } from './write-sitemaps.js';

/** Hex digits of an entry's digest: 128 bits tell versions of an entry apart. */
const DIGEST_CHARS = 32;

/** What a shard holds, to decide whether one more URL fits. */
type Fill = Omit<ShardTotals, 'shard'>;
interface Sized {
  bytes: number;
  news: boolean;
}

export class StableShards {
  private readonly run: LedgerRun;
  private readonly layout: string;
  /** Bytes of a document besides its entries: the opening and closing tags. */
  private readonly frame: number;
  private readonly nowText: string;
  private written = 0;

  constructor(
    ledger: SitemapLedger,
    private readonly settings: Settings,
    private readonly now: Date,
  ) {
    this.run = ledger.beginRun(settings.baseUrl);
    this.layout = layoutOf(settings);
    this.frame = Buffer.byteLength(settings.header) + Buffer.byteLength(settings.footer);
    this.nowText = formatUtcDateTime(now);
  }

  /** Shards written so far in this run. */
  get count(): number {
    return this.written;
  }

  /**
   * Takes one checked entry, dated as the ledger says when it is a page with a content digest.
   * Returns false when its URL was taken already (a duplicate).
   */
  take(entry: UrlEntry, lastmodMillis: number | undefined, contentDigest: string | undefined): boolean {
    const known = this.run.recall(entry.loc);
    let contentChangedAt: string | undefined;
    if (contentDigest !== undefined) {
      if (known?.contentDigest === contentDigest) {
        // Unchanged: the date its content last changed; a page never dated keeps the input's (or none).
        if (known.contentChangedAt !== undefined) entry.lastmod = known.contentChangedAt;
      } else if (known !== undefined || !this.run.firstRun) entry.lastmod = this.nowText;
      // else: the site's first run; the input's date stands
      contentChangedAt = entry.lastmod;
      lastmodMillis = entry.lastmod === undefined ? undefined : w3cToEpochMillis(entry.lastmod);
    }
    const digest = entryDigest(entry, contentDigest);
    const change = known === undefined ? 'added' : known.digest === digest ? 'same' : 'changed';
    const text = this.settings.serialize(entry);
    const bytes = Buffer.byteLength(text);
    if (this.frame + bytes > this.settings.maxBytes) throw entryTooLarge(this.settings.maxBytes, entry.loc);
    return this.run.stage({
      loc: entry.loc,
      shard: this.run.layout === this.layout ? known?.shard : undefined,
      seq: known?.seq,
      text,
      bytes,
      news: entry.news !== undefined,
      lastmod: entry.lastmod,
      lastmodMillis,
      digest,
      changedAt: change === 'same' ? known!.changedAt : this.nowText,
      contentDigest,
      contentChangedAt,
      change,
    });
  }

  /**
   * Plans the shards (every URL placed, none over a limit) and writes those that changed into the
   * publication's temporary folder (`onWritten` after each); the others are kept as the last run
   * published them.
   */
  async write(publication: Publication, onWritten: () => void): Promise<ClosedShard[]> {
    this.run.endStaging();
    const sameLayout = this.run.layout === this.layout;
    const recorded = new Map(sameLayout ? this.run.recordedShards().map((shard) => [shard.shard, shard]) : []);
    const touched = new Set(this.run.shardsWithChanges());
    const totals = this.placeNewUrls(this.handOnOverflow(touched), touched);
    if (totals.length > this.settings.maxFiles) throw tooManyFiles(this.settings.maxFiles);
    const extension = shardExtension(this.settings.text, this.settings.gzip);
    // The one shard that is the entry point itself is written anew: publication leaves the live
    // file as it is when the bytes are the same.
    const alone = isEntryPointItself(totals.length, extension, this.settings.gzipIndex);
    const closed: ClosedShard[] = [];
    for (const { shard } of totals) {
      const kept = recorded.get(shard);
      const keep =
        !alone &&
        kept !== undefined &&
        !touched.has(shard) &&
        kept.name === shardName(this.settings.baseName, shard, kept.digest, extension) &&
        (await this.isInPlace(kept));
      if (keep) {
        closed.push(keptShard(kept));
      } else {
        closed.push(await this.writeShard(shard, publication));
        onWritten();
      }
    }
    return closed;
  }

  /** After publication: records the run in the ledger and returns what changed. */
  record(closed: readonly ClosedShard[], files: readonly WrittenFile[]): RunChanges {
    const shards = closed.map((shard, i): RecordedShard => {
      const recorded: RecordedShard = {
        shard: shard.position,
        name: files[i]!.name,
        digest: shard.digest,
        urls: shard.urls,
        bytes: shard.bytes,
      };
      if (shard.gzipBytes !== undefined) recorded.gzipBytes = shard.gzipBytes;
      if (shard.newest !== undefined) recorded.lastmod = shard.newest;
      return recorded;
    });
    try {
      return this.run.record(this.layout, shards, this.now);
    } catch (error) {
      throw new Error(
        `the sitemaps were published, but the ledger could not record the run (${(error as Error).message}); the next run will report the same changes again`,
        { cause: error },
      );
    }
  }

  /** Ends the run without recording it. */
  discard(): void {
    this.run.discard();
  }

  /**
   * A shard whose entries grew past a limit keeps what fits; the rest is placed again at the end.
   * Returns the totals of the shards that hold URLs, by shard.
   */
  private handOnOverflow(touched: Set<number>): ShardTotals[] {
    const totals = this.run.shardTotals();
    const overflowing = totals.filter((shard) => !this.isWithinLimits(shard));
    for (const { shard } of overflowing) {
      const fill: Fill = { urls: 0, bytes: 0, news: 0 };
      const handedOn: number[] = [];
      for (const url of this.run.sizesOf(shard)) {
        if (this.hasRoom(fill, url)) add(fill, url);
        else handedOn.push(url.seq);
      }
      this.run.unplace(handedOn);
      touched.add(shard);
    }
    return overflowing.length === 0 ? totals : this.run.shardTotals();
  }

  /**
   * New URLs (and those handed on) fill the last shard, then new ones, in order. Returns the
   * totals of every shard that holds URLs, by shard.
   */
  private placeNewUrls(totals: ShardTotals[], touched: Set<number>): ShardTotals[] {
    // An entry too large for any shard was refused when it was taken: a new shard has room for any.
    let current: ShardTotals | undefined = totals.at(-1);
    const ranges: { shard: number; from: number; to: number }[] = [];
    for (const url of this.run.unplaced()) {
      if (current === undefined || !this.hasRoom(current, url)) {
        current = { shard: current === undefined ? 0 : current.shard + 1, urls: 0, bytes: 0, news: 0 };
        totals.push(current);
      }
      add(current, url);
      touched.add(current.shard);
      const range = ranges.at(-1);
      if (range?.shard === current.shard) range.to = url.seq;
      else ranges.push({ shard: current.shard, from: url.seq, to: url.seq });
    }
    for (const { shard, from, to } of ranges) this.run.place(shard, from, to);
    return totals;
  }

  private hasRoom(fill: Fill, url: Sized): boolean {
    return (
      fill.urls < this.settings.maxUrls &&
      this.frame + fill.bytes + url.bytes <= this.settings.maxBytes &&
      (!url.news || fill.news < LIMITS.maxNewsPerSitemap)
    );
  }

  private isWithinLimits(fill: Fill): boolean {
    return (
      fill.urls <= this.settings.maxUrls &&
      this.frame + fill.bytes <= this.settings.maxBytes &&
      fill.news <= LIMITS.maxNewsPerSitemap
    );
  }

  private async isInPlace(shard: RecordedShard): Promise<boolean> {
    const file = await stat(join(this.settings.outDir, shard.name)).catch(() => undefined);
    return file?.isFile() === true && file.size === (shard.gzipBytes ?? shard.bytes);
  }

  private async writeShard(shard: number, publication: Publication): Promise<ClosedShard> {
    const { settings } = this;
    const tempName = `shard-${shard}`;
    const file = new ShardFile(publication.tempPath(tempName), settings.gzip, settings.header, settings.footer);
    let newest: { millis: number; text: string } | undefined;
    try {
      for (const entry of this.run.entriesOf(shard)) {
        file.writer.appendEntry(entry.text);
        if (entry.lastmodMillis !== undefined && (newest === undefined || entry.lastmodMillis > newest.millis))
          newest = { millis: entry.lastmodMillis, text: entry.lastmod! };
        if (file.writer.needsDrain) await file.writer.drain();
      }
      const written = await file.close();
      this.written++;
      return { position: shard, tempName, urls: file.writer.urls, newest: newest?.text, ...written };
    } catch (error) {
      file.discard();
      throw error;
    }
  }
}

function add(fill: Fill, url: Sized): void {
  fill.urls++;
  fill.bytes += url.bytes;
  if (url.news) fill.news++;
}

function keptShard(shard: RecordedShard): ClosedShard {
  return {
    position: shard.shard,
    tempName: undefined,
    urls: shard.urls,
    bytes: shard.bytes,
    ...(shard.gzipBytes === undefined ? {} : { gzipBytes: shard.gzipBytes }),
    digest: shard.digest,
    newest: shard.lastmod,
  };
}

/** The digest of an entry as written, with its page's content when it has one. */
function entryDigest(entry: UrlEntry, contentDigest: string | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(entry))
    .update(`\n${contentDigest ?? ''}`)
    .digest('hex')
    .slice(0, DIGEST_CHARS);
}

/** The options that shape the files: when one changes, the last run's shards cannot be kept. */
function layoutOf(settings: Settings): string {
  const { baseName, text, gzip, gzipIndex, maxUrls, maxBytes, header } = settings;
  return JSON.stringify({ baseName, text, gzip, gzipIndex, maxUrls, maxBytes, header });
}
