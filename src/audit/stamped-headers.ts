/**
 * Last-Modified headers that are a build's stamp. A static server (nginx, `serve`, S3) sends each
 * file's modification time as Last-Modified: for a site a generator built, the time the build
 * wrote every page, not when a page changed. lastmod-stale judged by such a header blames an
 * honest lastmod (one from git, or the page's own date) on every page that gives no date of its
 * own. The stamp is found per origin among the checked pages' headers, by the rule `generate DIR`
 * and the crawl apply (core/build-stamp.ts); it needs every answer, so it is applied as the rows
 * are read (./rows.ts), not as each URL is checked.
 */
import { findBuildStamp, type BuildStamp } from '../core/build-stamp.js';
import { formatUtcDateTime, w3cToEpochMillis } from '../core/datetime.js';
import { originOf } from '../core/url.js';
import { pageChange, type CheckedUrl } from './check.js';
import type { StoredCheck } from './listings.js';

/** An origin whose pages' Last-Modified is a build's stamp, as the report says it. */
export interface StampedLastModified {
  origin: string;
  /** The checked pages whose Last-Modified falls in the stamp, and its first and last time. */
  pages: number;
  from: string;
  to: string;
  /** lastmod-stale findings that only the stamp made, left out of the rows. */
  staleLeftOut: number;
}

/** The build stamps of an audit's origins, and the lastmod-stale findings they leave out. */
export class LastModifiedStamps {
  private readonly leftOut = new Map<string, number>();

  private constructor(private readonly stamps: ReadonlyMap<string, BuildStamp>) {}

  /** The stamps among the Last-Modified of the checked listings, read in one pass. */
  static async of(
    listings: AsyncIterable<{ url: string; check?: StoredCheck | undefined }>,
  ): Promise<LastModifiedStamps> {
    const times = new Map<string, number[]>();
    for await (const { url, check } of listings) {
      if (check === undefined) continue;
      const { lastModified } = JSON.parse(check.result) as Pick<CheckedUrl, 'lastModified'>;
      const millis = lastModified === undefined ? undefined : w3cToEpochMillis(lastModified);
      const origin = originOf(url);
      if (millis === undefined || origin === undefined) continue;
      const originTimes = times.get(origin);
      if (originTimes === undefined) times.set(origin, [millis]);
      else originTimes.push(millis);
    }
    const stamps = new Map<string, BuildStamp>();
    for (const [origin, originTimes] of times) {
      const stamp = findBuildStamp(originTimes);
      if (stamp !== undefined) stamps.set(origin, stamp);
    }
    return new LastModifiedStamps(stamps);
  }

  /**
   * Whether the lastmod-stale finding of the page at `url` was made by its Last-Modified alone,
   * and that is its origin's build stamp (counted for the report).
   */
  madeStale(url: string, checked: Pick<CheckedUrl, 'pageModified' | 'lastModified'>): boolean {
    const change = pageChange(checked);
    const origin = originOf(url);
    if (change?.by !== 'header' || origin === undefined || !this.stamps.get(origin)?.covers(change.millis))
      return false;
    this.leftOut.set(origin, (this.leftOut.get(origin) ?? 0) + 1);
    return true;
  }

  /** Each origin with a stamp, for the report. */
  report(): StampedLastModified[] {
    return [...this.stamps].map(([origin, stamp]) => ({
      origin,
      pages: stamp.files,
      from: formatUtcDateTime(stamp.from),
      to: formatUtcDateTime(stamp.to),
      staleLeftOut: this.leftOut.get(origin) ?? 0,
    }));
  }
}
