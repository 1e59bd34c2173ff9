/**
 * One page, one URL (RULES.md CR-08, RFC 3986 §6): before a URL is queued or listed it is
 * resolved, its fragment dropped, scheme and host lower-cased, default port removed,
 * percent-encoding normalised, and the query parameters the user named removed.
 */
import picomatch from 'picomatch';
import { normaliseUrl } from '../core/url.js';

/** Decides whether a query parameter should be removed, from name globs such as `utm_*`. */
export type ParamFilter = (name: string) => boolean;

export function paramFilter(globs: readonly string[]): ParamFilter {
  if (globs.length === 0) return () => false;
  return picomatch([...globs], { nocase: true, dot: true });
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `%7e` → `~`, `%2f` → `%2F`: unreserved characters decoded, hex digits upper-cased. */
export function normalisePercentEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

/** The query without the parameters `strip` names; '' when nothing is left. */
function stripParams(search: string, strip: ParamFilter): string {
  if (search === '' || search === '?') return '';
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
      return !strip(name);
    });
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

/**
 * The canonical form of `input` (resolved against `base`), or undefined when it is not an
 * http(s) URL worth crawling (mailto:, javascript:, malformed, too long).
 */
export function normaliseCrawlUrl(input: string, base?: string, strip: ParamFilter = () => false): string | undefined {
  const resolved = normaliseUrl(input, base);
  if (!resolved.ok) return undefined;
  // WHATWG URL already lower-cases scheme and host, drops default ports and encodes non-ASCII.
  const url = new URL(resolved.value);
  url.hash = '';
  url.pathname = normalisePercentEncoding(url.pathname);
  url.search = normalisePercentEncoding(stripParams(url.search, strip));
  const href = url.href;
  // `url.search = ''` leaves no "?", but an empty query given as "?" would survive: drop it.
  return href.endsWith('?') ? href.slice(0, -1) : href;
}
