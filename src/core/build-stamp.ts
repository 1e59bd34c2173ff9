/**
 * A build stamp: the modification time a build gives every file it writes. A generator rewrites
 * every page on each build, so its files' times say when the site was built, not when each page
 * changed; a sitemap dated by them tells search engines that every page changed at once (and
 * sitemapkit's own validate warns DATE-006). Such times are never a page's lastmod.
 *
 * Two shapes are recognised: most files written within a few seconds of each other (one build),
 * and nearly all of them on one day (a slow build, or a copy that reset the times), which is what
 * DATE-006 looks for in a sitemap. `generate DIR` looks for it in its files' times, the crawl in
 * its pages' dates (a static server's Last-Modified is its file's time).
 */
import { w3cToEpochMillis } from './datetime.js';

/** Files written within this many milliseconds of the first of a run of them are one build. */
const BUILD_WINDOW_MS = 10_000;
/** A build stamp holds at least this share of the files (and at least MIN_FILES of them). */
const STAMP_SHARE = 0.5;
/** The share of one day at which DATE-006 calls the dates a build time (validate/dates.ts). */
const ONE_DAY_SHARE = 0.9;
const MIN_FILES = 3;
const DAY_MS = 86_400_000;

/** What the modification times of a folder's pages say. */
export interface BuildStamp {
  /** Whether the time `mtimeMs` is the build's, not the page's. */
  covers(mtimeMs: number): boolean;
  /** How many of the pages it covers, and the time it starts at (for a note). */
  files: number;
  from: Date;
  to: Date;
}

/** The build stamp among `mtimes` (milliseconds since the epoch), or undefined when there is none. */
export function findBuildStamp(mtimes: readonly number[]): BuildStamp | undefined {
  if (mtimes.length < MIN_FILES) return undefined;
  const sorted = Float64Array.from(mtimes).sort();
  // The densest window of BUILD_WINDOW_MS, by two pointers over the sorted times.
  let best = { start: 0, count: 0 };
  for (let start = 0, end = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! - sorted[start]! <= BUILD_WINDOW_MS) end++;
    if (end - start > best.count) best = { start, count: end - start };
  }
  if (best.count >= Math.max(MIN_FILES, sorted.length * STAMP_SHARE)) {
    const from = sorted[best.start]!;
    const to = sorted[best.start + best.count - 1]!;
    return {
      covers: (mtime) => mtime >= from && mtime <= to,
      files: best.count,
      from: new Date(from),
      to: new Date(to),
    };
  }
  const days = new Map<number, number>();
  for (const mtime of sorted) {
    const day = Math.floor(mtime / DAY_MS);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  for (const [day, count] of days) {
    if (count < sorted.length * ONE_DAY_SHARE) continue;
    const covers = (mtime: number) => Math.floor(mtime / DAY_MS) === day;
    return { covers, files: count, from: new Date(day * DAY_MS), to: new Date((day + 1) * DAY_MS - 1) };
  }
  return undefined;
}

/**
 * The build stamp among the lastmods of `entries` (read in one pass), or undefined when there is
 * none: the crawl of a static server dates its pages by Last-Modified, the time the build wrote
 * each file.
 */
export async function findLastmodStamp(entries: AsyncIterable<{ lastmod?: string }>): Promise<BuildStamp | undefined> {
  const times: number[] = [];
  for await (const { lastmod } of entries) {
    const millis = lastmod === undefined ? undefined : w3cToEpochMillis(lastmod);
    if (millis !== undefined) times.push(millis);
  }
  return findBuildStamp(times);
}

/** The entries, each without a lastmod that `stamp` covers. */
export async function* withoutStampedLastmods<T extends { lastmod?: string }>(
  entries: AsyncIterable<T>,
  stamp: BuildStamp | undefined,
): AsyncGenerator<T> {
  for await (const entry of entries) {
    const millis = entry.lastmod === undefined ? undefined : w3cToEpochMillis(entry.lastmod);
    if (stamp === undefined || millis === undefined || !stamp.covers(millis)) yield entry;
    else {
      const { lastmod: _stamped, ...undated } = entry;
      yield undated as T;
    }
  }
}
