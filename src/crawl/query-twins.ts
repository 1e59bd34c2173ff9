/**
 * A URL with a query that answers the very bytes its URL without the query answers is that page
 * again: a static host ignores queries, so a search box's link (`/std/index.html?search=Vec`) or a
 * highlight (`?highlight=…`) serves the same file. A search engine sees a duplicate; a folder read
 * by `generate` has one file. Such a URL is left out as `duplicate`, its twin listed instead.
 * Only byte-identical answers count: a page that shows the query in any way is a page of its own.
 */
import type { ListedEntry } from './types.js';

/** The URL without its query, for a (normalised, fragment-free) URL that has one. */
export function queryTwinOf(url: string): string | undefined {
  const query = url.indexOf('?');
  return query === -1 ? undefined : url.slice(0, query);
}

/** Whether two listed pages answered the same bytes (pages read before digests were kept never do). */
export function sameBytes(one: ListedEntry | undefined, other: ListedEntry | undefined): boolean {
  return one?.bodyDigest !== undefined && one.bodyDigest === other?.bodyDigest;
}
