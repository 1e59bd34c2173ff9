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
  // WHATWG URL already lower-cases scheme and host, drops default ports and encodes non-ASCII.
  const url = new URL(resolved.value);
  url.hash = '';
  url.pathname = normalisePercentEncoding(url.pathname);
  const query = stripParams(url.search, strip);
  const from = query.removed.length > 0 ? withoutEmptyQuery(url.href) : undefined;
  url.search = normalisePercentEncoding(query.search);
  const href = withoutEmptyQuery(url.href);
  if (from !== undefined) onStripped?.({ from, to: href, names: query.removed });
  return href;
}

/** `url.search = ''` leaves no "?", but an empty query given as "?" would survive: drop it. */
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
