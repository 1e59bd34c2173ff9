/**
 * A build stamp: the modification time a build gives every file it writes. A generator rewrites
 * every page on each build, so its files' times say when the site was built, not when each page
 * changed; a sitemap dated by them tells search engines that every page changed at once (and
 * sitemapkit's own validate warns DATE-006). Such times are never a page's lastmod.
 *
 * Two shapes are recognised: most files written within a few seconds of each other (one build),
 * and nearly all of them on one day (a slow build, or a copy that reset the times), which is what
 * DATE-006 looks for in a sitemap. `generate DIR` looks for it in its files' times, the crawl in
 * its pages' Last-Modified (a static server's Last-Modified is its file's time).
 */
import { w3cToEpochMillis } from './datetime.js';
import type { UrlEntry } from './entry.js';

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

/**
 * The build stamp among `mtimes` (milliseconds since the epoch), or undefined when there is none.
 * @param among how many files the shares are of, when some gave no time (default: the times)
 */
export function findBuildStamp(mtimes: readonly number[], among = mtimes.length): BuildStamp | undefined {
  if (mtimes.length < MIN_FILES) return undefined;
  const sorted = Float64Array.from(mtimes).sort();
  // The densest window of BUILD_WINDOW_MS, by two pointers over the sorted times.
  let best = { start: 0, count: 0 };
  for (let start = 0, end = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! - sorted[start]! <= BUILD_WINDOW_MS) end++;
    if (end - start > best.count) best = { start, count: end - start };
  }
  if (best.count >= Math.max(MIN_FILES, among * STAMP_SHARE)) {
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
    if (count < among * ONE_DAY_SHARE) continue;
    const covers = (mtime: number) => Math.floor(mtime / DAY_MS) === day;
    return { covers, files: count, from: new Date(day * DAY_MS), to: new Date((day + 1) * DAY_MS - 1) };
  }
  return undefined;
}

/** Entries of crawled pages, each with the Last-Modified its server sent (a W3C datetime). */
type HeaderDated = { lastmod?: string; lastModified?: string };

/**
 * The build stamp among the Last-Modified of crawled pages (read in one pass), and how many of
 * their lastmods it takes away (those the header gave): a static server sends each file's time,
 * the time the build wrote it. Every page's header counts, dated by its own date or not, so that
 * a small site whose pages mostly date themselves still shows its stamp.
 */
export async function findLastModifiedStamp(
  entries: AsyncIterable<HeaderDated>,
): Promise<{ stamp: BuildStamp; lastmods: number } | undefined> {
  const times: number[] = [];
  const headerDated: number[] = [];
  let pages = 0;
  for await (const { lastmod, lastModified } of entries) {
    pages++;
    const millis = lastModified === undefined ? undefined : w3cToEpochMillis(lastModified);
    if (millis === undefined) continue;
    times.push(millis);
    if (lastmod === lastModified) headerDated.push(millis);
  }
  // Of all the pages: a few that share a Last-Modified among many that send none are no build.
  const stamp = findBuildStamp(times, pages);
  return stamp && { stamp, lastmods: headerDated.filter((millis) => stamp.covers(millis)).length };
}

/** The entries without their Last-Modified, and without a lastmod it gave that `stamp` covers. */
export async function* withoutStampedLastmods(
  entries: AsyncIterable<UrlEntry & HeaderDated>,
  stamp: BuildStamp | undefined,
): AsyncGenerator<UrlEntry> {
  for await (const { lastModified, ...entry } of entries) {
    // Only a lastmod the header gave can be the stamp's (an unreadable time, NaN, is covered by none).
    const stamped =
      stamp !== undefined &&
      lastModified !== undefined &&
      entry.lastmod === lastModified &&
      stamp.covers(w3cToEpochMillis(lastModified) ?? Number.NaN);
    if (!stamped) yield entry;
    else {
      const { lastmod: _stamped, ...undated } = entry;
      yield undated;
    }
  }
}
