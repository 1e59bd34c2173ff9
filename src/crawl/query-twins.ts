/**
 * A URL with a query that answers the very bytes its URL without the query answers is that page
 * again: a static host ignores queries, so a search box's link (`/std/index.html?search=Vec`) or a
 * highlight (`?highlight=…`) serves the same file. A search engine sees a duplicate; a folder read
 * by `generate` has one file. Such a URL is left out as `duplicate`, its twin listed instead.
 * Only byte-identical answers count: a page that shows the query in any way is a page of its own.
 */
import { folderUrl } from './normalise.js';
import type { ListedEntry } from './types.js';

/**
 * The URLs a (normalised, fragment-free) URL with a query may be the twin of: itself without the
 * query, and for an index file its folder's URL, which the crawl lists instead (`/std/index.html?search=x`:
 * `/std/`, or `/std/index.html` where the folder's URL does not answer). None without a query.
 */
export function queryTwinsOf(url: string): string[] {
  const query = url.indexOf('?');
  if (query === -1) return [];
  const plain = url.slice(0, query);
  const folder = folderUrl(plain);
  return folder === plain ? [plain] : [folder, plain];
}

/** Whether two listed pages answered the same bytes (pages read before digests were kept never do). */
export function sameBytes(one: ListedEntry | undefined, other: ListedEntry | undefined): boolean {
  return one?.bodyDigest !== undefined && one.bodyDigest === other?.bodyDigest;
}
