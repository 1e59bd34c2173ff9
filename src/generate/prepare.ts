/**
 * Checks one entry against the protocol and its extensions and puts it in the form the writer
 * serialises: URLs absolute and percent-encoded, dates in `YYYY-MM-DD` or full date-time form,
 * numbers in range. Entries come from files and programs alike, so nothing about their types
 * is assumed. Problems are returned, not thrown: the caller decides to skip or to stop.
 */
import {
  CHANGEFREQS,
  LIMITS,
  checkScope,
  findUrlSyntaxProblem,
  formatSitemapDate,
  normaliseUrl,
  parseW3cDate,
  toEpochMillis,
  type Alternate,
  type Changefreq,
  type Image,
  type News,
  type UrlEntry,
  type Video,
} from '../core/index.js';

export interface EntryProblem {
  code: string;
  message: string;
}

export type PreparedEntry =
  | { ok: true; entry: UrlEntry; /** the instant of lastmod, to find a file's newest */ lastmodMillis?: number }
  | { ok: false; problem: EntryProblem };

export interface PrepareContext {
  /** Directory URL the sitemaps are published at, ending in '/'. */
  baseUrl: string;
  allowOtherHosts: boolean;
}

/** Thrown inside the checks and caught once in prepareEntry: the first problem ends the check. */
class Invalid extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function prepareEntry(raw: unknown, context: PrepareContext): PreparedEntry {
  try {
    return prepareOrThrow(raw, context);
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, problem: { code: error.code, message: error.message } };
    throw error;
  }
}

function prepareOrThrow(raw: unknown, context: PrepareContext): PreparedEntry {
  if (!isObject(raw)) throw new Invalid('INPUT-001', 'an entry must be an object with at least "loc"');
  if (raw.kind !== undefined && raw.kind !== 'url') {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any JSON value; an object kind reads [object Object], still refused
    throw new Invalid('INPUT-001', `only url entries can be written to a urlset, not kind "${String(raw.kind)}"`);
  }
  const entry: UrlEntry = { kind: 'url', loc: pageLoc(raw.loc, context) };
  let lastmodMillis: number | undefined;
  if (raw.lastmod !== undefined && raw.lastmod !== '') {
    const date = parseDate(raw.lastmod, 'lastmod');
    entry.lastmod = date.text;
    lastmodMillis = date.millis;
  }
  if (raw.changefreq !== undefined && raw.changefreq !== '') entry.changefreq = changefreq(raw.changefreq);
  if (raw.priority !== undefined && raw.priority !== '') entry.priority = priority(raw.priority);
  if (raw.images !== undefined)
    entry.images = list(raw.images, 'images', LIMITS.maxImagesPerUrl, 'IMG-002').map((image) =>
      prepareImage(image, context),
    );
  if (raw.videos !== undefined)
    entry.videos = list(raw.videos, 'videos', Infinity, 'VID-001').map((video) =>
      prepareVideo(video, entry.loc, context),
    );
  if (raw.news !== undefined) entry.news = prepareNews(raw.news);
  if (raw.alternates !== undefined)
    entry.alternates = list(raw.alternates, 'alternates', Infinity, 'HREF-001').map((alternate) =>
      prepareAlternate(alternate, context),
    );
  return lastmodMillis === undefined ? { ok: true, entry } : { ok: true, entry, lastmodMillis };
}

// ---- loc ----------------------------------------------------------------------------------

/**
 * An http(s) URL that URL parsing would give back unchanged: a lower-case host name whose last
 * label starts with a letter (so no IPv4 shorthand), no port, and a path and query made only of
 * characters that serialisation keeps as they are.
 */
const CANONICAL_URL =
  /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*\/(?:[A-Za-z0-9\-._~!$&()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;
/** Dot segments (`/./`, `/../`, also written `%2e`) that URL parsing would remove. */
const DOT_SEGMENT = /\/\.|%2e/i;
/** Characters RFC 3986 forbids that WHATWG URL serialisation leaves raw. */
const LEFTOVER = /[|^`{}"<>\\ ]/g;

function pageLoc(value: unknown, context: PrepareContext): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Invalid('URL-001', 'the entry has no "loc"');
  const loc = absoluteUrl(value, context.baseUrl, 'URL');
  // A canonical URL that starts with the base URL (which ends in '/') is in scope.
  if (context.allowOtherHosts || loc.startsWith(context.baseUrl)) return loc;
  const scope = checkScope(loc, context.baseUrl);
  if (scope === 'other-host') {
    throw new Invalid(
      'URL-004',
      `${loc} is on another host than the base URL ${context.baseUrl}; a sitemap may only list its own host's URLs (use --allow-other-hosts when the other host's robots.txt lists this sitemap)`,
    );
  }
  if (scope === 'outside-directory') {
    throw new Invalid(
      'URL-005',
      `${loc} is outside the base URL's directory ${context.baseUrl}; a sitemap may only list URLs at or below its own directory`,
    );
  }
  return loc;
}

function checkLength(loc: string): string {
  if (loc.length >= LIMITS.maxUrlLength) {
    throw new Invalid(
      'URL-002',
      `the URL is ${loc.length} characters long; the protocol allows fewer than ${LIMITS.maxUrlLength}`,
    );
  }
  return loc;
}

/** An absolute, percent-encoded URL (resolved against the base when relative), or Invalid. */
function absoluteUrl(value: unknown, base: string, what: string): string {
  if (typeof value !== 'string') throw new Invalid('URL-001', `${what} must be a string, not ${describe(value)}`);
  // Fast path: most URLs in a sitemap are canonical already, and parsing them again (the
  // costliest step per entry) would give the same text back.
  if (CANONICAL_URL.test(value) && !DOT_SEGMENT.test(value)) return checkLength(value);
  const result = normaliseUrl(value, base);
  if (!result.ok) throw new Invalid(result.problem.code, result.problem.message);
  const encoded = result.value.replace(LEFTOVER, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  const syntax = findUrlSyntaxProblem(encoded);
  if (syntax) throw new Invalid(syntax.code, `${value}: ${syntax.message}`);
  return checkLength(encoded);
}

// ---- core fields --------------------------------------------------------------------------

/**
 * Dates repeat a lot in real sitemaps (whole sections share a day), so parsed dates are kept
 * in a small memo; it is emptied when full, which bounds its memory.
 */
const DATE_MEMO = new Map<string, { text: string; millis: number }>();
const DATE_MEMO_SIZE = 4096;

function parseDate(value: unknown, field: string): { text: string; millis: number } {
  if (typeof value === 'string') {
    const known = DATE_MEMO.get(value);
    if (known !== undefined) return known;
  }
  const date = parseDateUncached(value, field);
  if (DATE_MEMO.size >= DATE_MEMO_SIZE) DATE_MEMO.clear();
  DATE_MEMO.set(value as string, date);
  return date;
}

function parseDateUncached(value: unknown, field: string): { text: string; millis: number } {
  if (typeof value !== 'string')
    throw new Invalid('DATE-001', `${field} must be a W3C datetime string, not ${describe(value)}`);
  const parsed = parseW3cDate(value.trim());
  if (!parsed.ok) throw new Invalid(parsed.problem.code, `${field}: ${parsed.problem.message}`);
  return { text: formatSitemapDate(parsed.value), millis: toEpochMillis(parsed.value) };
}

function changefreq(value: unknown): Changefreq {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const found = CHANGEFREQS.find((name) => name === text);
  if (found === undefined)
    throw new Invalid('FREQ-001', `changefreq ${JSON.stringify(value)} is not one of ${CHANGEFREQS.join(', ')}`);
  return found;
}

function priority(value: unknown): number {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d*\.?\d+\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (!(number >= 0 && number <= 1))
    throw new Invalid('PRIO-001', `priority ${JSON.stringify(value)} is not a decimal between 0.0 and 1.0`);
  return number;
}

// ---- extensions ---------------------------------------------------------------------------

function prepareImage(raw: unknown, context: PrepareContext): Image {
  if (!isObject(raw)) throw new Invalid('IMG-001', 'each image must be an object with "loc"');
  const image: Image = { loc: absoluteUrl(raw.loc ?? '', context.baseUrl, 'image loc') };
  copyText(raw, image, 'caption', 'IMG-001');
  copyText(raw, image, 'title', 'IMG-001');
  copyText(raw, image, 'geoLocation', 'IMG-001');
  if (raw.license !== undefined) image.license = absoluteUrl(raw.license, context.baseUrl, 'image license');
  return image;
}

function prepareVideo(raw: unknown, pageLocation: string, context: PrepareContext): Video {
  if (!isObject(raw)) throw new Invalid('VID-001', 'each video must be an object');
  const video: Video = {
    thumbnailLoc: absoluteUrl(required(raw, 'thumbnailLoc', 'VID-001'), context.baseUrl, 'video thumbnailLoc'),
    title: limitedText(required(raw, 'title', 'VID-001'), 'video title', LIMITS.videoMaxTitle, 'VID-001'),
    description: limitedText(
      required(raw, 'description', 'VID-001'),
      'video description',
      LIMITS.videoMaxDescription,
      'VID-002',
    ),
  };
  if (raw.contentLoc === undefined && raw.playerLoc === undefined) {
    throw new Invalid('VID-001', 'a video needs "contentLoc" or "playerLoc" (or both)');
  }
  for (const key of ['contentLoc', 'playerLoc'] as const) {
    if (raw[key] === undefined) continue;
    const loc = absoluteUrl(raw[key], context.baseUrl, `video ${key}`);
    if (loc === pageLocation)
      throw new Invalid('VID-003', `video ${key} must differ from the page URL ${pageLocation}`);
    video[key] = loc;
  }
  if (raw.duration !== undefined)
    video.duration = integer(
      raw.duration,
      'video duration',
      LIMITS.videoMinDuration,
      LIMITS.videoMaxDuration,
      'VID-005',
    );
  if (raw.expirationDate !== undefined)
    video.expirationDate = fullDate(raw.expirationDate, 'video expirationDate', 'VID-010');
  if (raw.rating !== undefined) video.rating = decimal(raw.rating, 'video rating', 0, LIMITS.videoMaxRating, 'VID-005');
  if (raw.viewCount !== undefined)
    video.viewCount = integer(raw.viewCount, 'video viewCount', 0, Number.MAX_SAFE_INTEGER, 'VID-005');
  if (raw.publicationDate !== undefined)
    video.publicationDate = fullDate(raw.publicationDate, 'video publicationDate', 'VID-010');
  for (const key of ['familyFriendly', 'requiresSubscription', 'live'] as const) {
    if (raw[key] !== undefined) video[key] = boolean(raw[key], `video ${key}`, 'VID-006');
  }
  if (raw.restriction !== undefined) {
    const { relationship, values } = relationshipList(raw.restriction, 'countries', 'VID-007');
    const countries = values.map((code) => code.toUpperCase());
    const bad = countries.find((code) => !/^[A-Z]{2}$/.test(code));
    if (bad !== undefined)
      throw new Invalid('VID-007', `video restriction country "${bad}" is not an ISO 3166-1 alpha-2 code`);
    video.restriction = { relationship, countries };
  }
  if (raw.platform !== undefined) {
    const { relationship, values } = relationshipList(raw.platform, 'platforms', 'VID-008');
    const bad = values.find((name) => name !== 'web' && name !== 'mobile' && name !== 'tv');
    if (bad !== undefined) throw new Invalid('VID-008', `video platform "${bad}" is not one of web, mobile, tv`);
    video.platform = { relationship, platforms: values as ('web' | 'mobile' | 'tv')[] };
  }
  if (raw.uploader !== undefined) {
    if (!isObject(raw.uploader)) throw new Invalid('VID-009', 'video uploader must be an object with "name"');
    const name = limitedText(raw.uploader.name, 'video uploader name', LIMITS.videoMaxUploader, 'VID-009');
    video.uploader =
      raw.uploader.info === undefined
        ? { name }
        : { name, info: absoluteUrl(raw.uploader.info, context.baseUrl, 'video uploader info') };
  }
  if (raw.tags !== undefined)
    video.tags = list(raw.tags, 'video tags', LIMITS.videoMaxTags, 'VID-009').map((tag) =>
      limitedText(tag, 'video tag', Infinity, 'VID-009'),
    );
  return video;
}

const NEWS_LANGUAGE = /^(?:zh-cn|zh-tw|[a-z]{2,3})$/;
const NEWS_GENRES = ['PressRelease', 'Satire', 'Blog', 'OpEd', 'Opinion', 'UserGenerated'];
const STOCK_TICKER = /^\w+:\w+$/;

function prepareNews(raw: unknown): News {
  if (!isObject(raw) || !isObject(raw.publication))
    throw new Invalid('NEWS-001', 'news needs "publication" with "name" and "language"');
  const language = typeof raw.publication.language === 'string' ? raw.publication.language.trim().toLowerCase() : '';
  if (!NEWS_LANGUAGE.test(language)) {
    throw new Invalid(
      'NEWS-005',
      `news language ${JSON.stringify(raw.publication.language)} is not an ISO 639 code (2 or 3 letters, or zh-cn / zh-tw)`,
    );
  }
  const news: News = {
    publication: { name: limitedText(raw.publication.name, 'news publication name', Infinity, 'NEWS-001'), language },
    publicationDate: fullDate(required(raw, 'publicationDate', 'NEWS-001'), 'news publicationDate', 'NEWS-004'),
    title: limitedText(required(raw, 'title', 'NEWS-001'), 'news title', Infinity, 'NEWS-001'),
  };
  if (raw.keywords !== undefined)
    news.keywords = list(raw.keywords, 'news keywords', Infinity, 'NEWS-001').map((k) =>
      limitedText(k, 'news keyword', Infinity, 'NEWS-001'),
    );
  if (raw.genres !== undefined) {
    news.genres = list(raw.genres, 'news genres', Infinity, 'NEWS-001').map((genre) => {
      if (typeof genre !== 'string' || !NEWS_GENRES.includes(genre))
        throw new Invalid('NEWS-001', `news genre ${JSON.stringify(genre)} is not one of ${NEWS_GENRES.join(', ')}`);
      return genre;
    });
  }
  if (raw.stockTickers !== undefined) {
    news.stockTickers = list(raw.stockTickers, 'news stockTickers', 5, 'NEWS-001').map((ticker) => {
      if (typeof ticker !== 'string' || !STOCK_TICKER.test(ticker))
        throw new Invalid('NEWS-001', `news stock ticker ${JSON.stringify(ticker)} is not EXCHANGE:SYMBOL`);
      return ticker;
    });
  }
  return news;
}

/** x-default, or a language with optional script and region (case-insensitive), e.g. en, en-GB, zh-Hant-TW. */
const HREFLANG = /^(?:x-default|[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?)$/i;

function prepareAlternate(raw: unknown, context: PrepareContext): Alternate {
  if (!isObject(raw)) throw new Invalid('HREF-001', 'each alternate must be an object with "hreflang" and "href"');
  const hreflang = typeof raw.hreflang === 'string' ? raw.hreflang.trim() : '';
  if (!HREFLANG.test(hreflang)) {
    throw new Invalid(
      'HREF-002',
      `hreflang ${JSON.stringify(raw.hreflang)} is not x-default or a language code with optional script and region (en, en-GB, zh-Hant)`,
    );
  }
  return { hreflang, href: absoluteUrl(raw.href ?? '', context.baseUrl, 'alternate href') };
}

// ---- small readers ------------------------------------------------------------------------

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'an object'
        : JSON.stringify(value);
}

function required(raw: Record<string, unknown>, key: string, code: string): unknown {
  if (raw[key] === undefined || raw[key] === '') throw new Invalid(code, `"${key}" is required`);
  return raw[key];
}

function list(value: unknown, what: string, max: number, code: string): unknown[] {
  if (!Array.isArray(value)) throw new Invalid(code, `${what} must be a list, not ${describe(value)}`);
  if (value.length > max) throw new Invalid(code, `${what}: ${value.length} given, at most ${max} allowed`);
  return value;
}

function limitedText(value: unknown, what: string, max: number, code: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Invalid(code, `${what} must be a non-empty string`);
  if (value.length > max) throw new Invalid(code, `${what} is ${value.length} characters long; at most ${max} allowed`);
  return value;
}

function copyText<T extends object>(
  raw: Record<string, unknown>,
  target: T,
  key: keyof T & string,
  code: string,
): void {
  if (raw[key] === undefined) return;
  (target as Record<string, unknown>)[key] = limitedText(raw[key], key, Infinity, code);
}

/** A date for news and video tags: YYYY-MM-DD or a full date-time (a year or month alone is refused). */
function fullDate(value: unknown, what: string, code: string): string {
  const { text } = parseDate(value, what);
  if (!/^\s*\d{4}-\d{2}-\d{2}/.test(value as string)) {
    throw new Invalid(
      code,
      `${what} must be a full date (YYYY-MM-DD) or date-time with a time zone, not ${JSON.stringify(value)}`,
    );
  }
  return text;
}

function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
}

function integer(value: unknown, what: string, min: number, max: number, code: string): number {
  const number = numberOf(value);
  if (!Number.isInteger(number) || number < min || number > max)
    throw new Invalid(code, `${what} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return number;
}

function decimal(value: unknown, what: string, min: number, max: number, code: string): number {
  const number = numberOf(value);
  if (!(number >= min && number <= max))
    throw new Invalid(code, `${what} must be a number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return number;
}

function boolean(value: unknown, what: string, code: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'yes' || value === 'no') return value === 'yes';
  throw new Invalid(code, `${what} must be true or false, not ${JSON.stringify(value)}`);
}

function relationshipList(
  raw: unknown,
  key: string,
  code: string,
): { relationship: 'allow' | 'deny'; values: string[] } {
  if (!isObject(raw) || (raw.relationship !== 'allow' && raw.relationship !== 'deny')) {
    throw new Invalid(
      code,
      `${key === 'countries' ? 'restriction' : 'platform'} needs "relationship": "allow" or "deny"`,
    );
  }
  const values =
    typeof raw[key] === 'string'
      ? raw[key].split(/\s+/).filter(Boolean)
      : list(raw[key], key, Infinity, code).map(String);
  return { relationship: raw.relationship, values };
}
