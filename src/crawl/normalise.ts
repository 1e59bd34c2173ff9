/**
 * One page, one URL (RFC 3986 §6): before a URL is queued or listed it is
 * resolved, its fragment dropped, scheme and host lower-cased, default port removed,
 * percent-encoding normalised, and its tracking parameters removed (see tracking-params.ts).
 */
import { normaliseUrl } from '../core/url.js';
import type { ParamFilter } from './tracking-params.js';

/** A URL that lost query parameters to normalisation: as met (resolved), as kept, and the names removed. */
export interface StrippedUrl {
  from: string;
  to: string;
  names: string[];
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `%7e` → `~`, `%2f` → `%2F`: unreserved characters decoded, hex digits upper-cased. */
export function normalisePercentEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

/** The query without the parameters `strip` names ('' when nothing is left), and the names removed. */
function stripParams(search: string, strip: ParamFilter): { search: string; removed: string[] } {
  const removed: string[] = [];
  if (search === '' || search === '?') return { search: '', removed };
  const kept = search
    .slice(1)
    .split('&')
    .filter((pair) => {
      if (pair === '') return false;
      const rawName = pair.split('=', 1)[0]!;
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // a malformed escape: match the name as written
      }
      if (!strip(name)) return true;
      removed.push(name);
      return false;
    });
  return { search: kept.length === 0 ? '' : `?${kept.join('&')}`, removed };
}

/**
 * The canonical form of `input` (resolved against `base`), or undefined when it is not an
 * http(s) URL worth crawling (mailto:, javascript:, malformed, too long).
 * @param strip which query parameters to remove (none by default)
 * @param onStripped told of every URL that lost parameters
 */
export function normaliseCrawlUrl(
  input: string,
  base?: string,
  strip: ParamFilter = () => false,
  onStripped?: (stripped: StrippedUrl) => void,
): string | undefined {
  const resolved = normaliseUrl(input, base);
  if (!resolved.ok) return undefined;
  // WHATWG URL already lower-cased scheme and host, dropped default ports, encoded non-ASCII and
  // resolved dot segments (%2E too): what is left is done on the text of its href, as the URL
  // setters and a third parse were three quarters of normalising a link (a crawl of rustdoc pages).
  const { origin, pathname, search } = hrefParts(resolved.value);
  const path = pathname.includes('%') ? normalisePercentEncoding(pathname) : pathname;
  const query = stripParams(search, strip);
  const kept = query.search.includes('%') ? normalisePercentEncoding(query.search) : query.search;
  const href = withoutEmptyQuery(`${origin}${path}${kept}`);
  if (query.removed.length > 0)
    onStripped?.({ from: withoutEmptyQuery(`${origin}${path}${search}`), to: href, names: query.removed });
  return href;
}

/**
 * The parts of an http(s) URL as WHATWG URL writes it (`href`): no `#` but the fragment's, no `?`
 * before the query, the path starting at the first `/` after the host. The fragment is dropped.
 */
function hrefParts(href: string): { origin: string; pathname: string; search: string } {
  const hashAt = href.indexOf('#');
  const url = hashAt === -1 ? href : href.slice(0, hashAt);
  const pathAt = url.indexOf('/', url.indexOf('//') + 2);
  const queryAt = url.indexOf('?', pathAt);
  return {
    origin: url.slice(0, pathAt),
    pathname: queryAt === -1 ? url.slice(pathAt) : url.slice(pathAt, queryAt),
    search: queryAt === -1 ? '' : url.slice(queryAt),
  };
}

/** An empty query given as "?" is no query: dropped. */
function withoutEmptyQuery(href: string): string {
  return href.endsWith('?') ? href.slice(0, -1) : href;
}

/** The index files a static server answers a folder's URL with. */
const INDEX_FILE = /\/index\.html?$/;

/**
 * `https://e.com/docs/index.html` → `https://e.com/docs/`: a static server answers the folder's
 * URL with its index file, and a site's one URL for the page is the folder's (generate lists it
 * so). A URL with a query is left as it is. When the folder's URL does not answer, the crawler
 * falls back to the index file (see judge.ts).
 */
export function folderUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart !== -1) return url;
  const match = INDEX_FILE.exec(url);
  return match === null ? url : url.slice(0, match.index + 1);
}
