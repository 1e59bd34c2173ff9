/**
 * What a site generator changes on every build although the page did not change: asset names
 * that carry a content hash (`main.3f2a9c1b.js`, `index-D_bEq4Xs.css`, `/_next/static/<build id>/`),
 * cache-busting queries (`?v=1714550400`) and visible build timestamps ("Built Wed, 01 May 2024
 * 10:23:45 GMT"). Taking them out of a page before its content is digested keeps the digest of an
 * unchanged page the same from build to build.
 *
 * These are heuristics, chosen to miss little of the page itself:
 * - only URLs of assets are touched (their last segment has an extension that is not a page's), so
 *   links between pages are digested as they are;
 * - a hash is a run of 8 or more of [A-Za-z0-9_-] with a digit or a capital letter in it (hex and
 *   base64url hashes; a lower-case word such as `photograph` is a name, not a hash);
 * - a timestamp is a date followed by a time of day to the second: build times are written to the
 *   second, times meant for readers ("May 1, 2024 at 9:00 AM") almost never are.
 */

/** Extensions of pages: a URL ending in one of them (or in none) is a link to a page, not an asset. */
const PAGE_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'cgi']);

const HASH = /^[A-Za-z0-9_-]{8,}$/;
const HASH_SIGN = /[0-9A-Z]/;
/** A folder named by a build id (Next.js's `_next/static/<id>/`): long, with capitals, small letters and digits. */
const BUILD_ID = /^(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9_-]{16,}$/;

function isHash(part: string): boolean {
  return HASH.test(part) && HASH_SIGN.test(part);
}

/**
 * An asset URL (absolute, root-relative or relative) with its hashed name parts replaced by `#`
 * and its query left out; any other URL (a page, `data:`, `mailto:`) as it is.
 */
export function withoutHashedNames(url: string): string {
  const trimmed = url.trim();
  const match = /^([^?#]*)[?#]?/.exec(trimmed);
  const path = match?.[1] ?? trimmed;
  if (/^[a-z][a-z0-9+.-]*:(?!\/\/)/i.test(path)) return trimmed; // data:, mailto:, javascript:
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || PAGE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())) return trimmed;
  const folders = folder
    .split('/')
    .map((segment) => (BUILD_ID.test(segment) ? '#' : segment))
    .join('/');
  return folders + hashlessName(name);
}

/**
 * `main.3f2a9c1b.js` → `main.#.js` (a dot-separated part), `index-D_bEq4Xs.css` → `index-#.css`
 * (the end of the first part, after a hyphen: Vite, Gatsby and Next.js write `name-hash`; a Vite
 * hash may itself hold a hyphen, hence the 8-character form).
 */
function hashlessName(name: string): string {
  const [first = '', ...rest] = name.split('.');
  const afterHyphen = /^(.+?)-([^-]+)$/.exec(first);
  const lastEight = /^(.+)-([A-Za-z0-9_-]{8})$/.exec(first);
  let stem = first;
  if (afterHyphen && isHash(afterHyphen[2]!)) stem = `${afterHyphen[1]}-#`;
  else if (lastEight && isHash(lastEight[2]!)) stem = `${lastEight[1]}-#`;
  return [stem, ...rest.map((part, i) => (i < rest.length - 1 && isHash(part) ? '#' : part))].join('.');
}

/** A `srcset` value: each candidate's URL without hashed names, descriptors kept. */
export function srcsetWithoutHashedNames(srcset: string): string {
  return srcset
    .split(',')
    .map((candidate) => {
      const [url = '', ...descriptors] = candidate.trim().split(/\s+/);
      return [withoutHashedNames(url), ...descriptors].join(' ');
    })
    .join(', ');
}

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?';
const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?';
const DATE = [
  '\\d{4}-\\d{2}-\\d{2}', // 2024-05-01 (ISO 8601)
  '\\d{4}/\\d{1,2}/\\d{1,2}', // 2024/05/01
  '\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}', // 05/01/2024, 01.05.2024
  `\\d{1,2} ${MONTH},? \\d{4}`, // 01 May 2024 (toUTCString)
  `${MONTH} \\d{1,2},? \\d{4}`, // May 01 2024 (toString), May 1, 2024
].join('|');
const TIME = '\\d{1,2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?: ?[AaPp]\\.?[Mm]\\.?)?';
const ZONE =
  '(?: ?(?:Z|GMT[+-]\\d{2}:?\\d{2}|UTC[+-]\\d{2}:?\\d{2}|[+-]\\d{2}:?\\d{2}|GMT|UTC|[A-Z]{3,5})(?: \\([^()]*\\))?)?';
const TIMESTAMP = new RegExp(`(?:${WEEKDAY} )?(?:${DATE})(?:T|,? |,? at )${TIME}${ZONE}`, 'g');

/** `text` without date-times written to the second: the build timestamps a page may show. */
export function withoutTimestamps(text: string): string {
  // Every timestamp has a time with colons: most text has none, and skips the expression.
  return text.includes(':') ? text.replace(TIMESTAMP, '') : text;
}
