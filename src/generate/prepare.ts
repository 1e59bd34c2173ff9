/**
 * Checks one entry against the protocol's rules (core/rules) and puts it in the form the writer
 * serialises: URLs absolute and percent-encoded, dates in `YYYY-MM-DD` or full date-time form,
 * codes in the case the schemas want. Entries come from files and programs alike, so nothing
 * about their types is assumed. Problems are returned, not thrown: the caller decides to skip or
 * to stop.
 *
 * What is written always passes `validate` without errors, so a field that breaks a rule is left
 * out (the URL is still written) and only a bad `loc` drops the whole entry:
 * - an error leaves the field out; for a video or news block, a bad required field (or a bad
 *   restriction, whose loss would widen where a video is shown) leaves out the whole block;
 * - a warning is reported and the field written (NEWS-003 an old article, URL-007 a session ID …),
 *   except where the value is wrong on its face: a lastmod in the future (DATE-005) and a view
 *   count that is no whole number are left out, and a fragment (URL-008) is cut from the URL;
 * - what the input may write loosely (relative URLs, `Daily`, a date without seconds) is
 *   repaired without a word: the input is not a sitemap, the output is.
 */
import {
  LIMITS,
  RULES,
  alternatesProblems,
  checkScope,
  deprecatedImageProblems,
  formatSitemapDate,
  fragmentStart,
  futureDateProblem,
  imageCountProblem,
  missingNewsProblem,
  missingVideoProblem,
  newsProblems,
  pageUrlProblems,
  readChangefreq,
  readCompleteDate,
  readCountries,
  readHreflang,
  readLegacyNewsList,
  readNewsDate,
  readNewsLanguage,
  readPlatforms,
  readPriority,
  readRelationship,
  readUrl,
  readVideoNumber,
  readW3cDate,
  readYesNo,
  toEpochMillis,
  videoProblems,
  IMAGE_LOC_CODE,
  type Alternate,
  type Checked,
  type Image,
  type News,
  type RuleProblem,
  type Severity,
  type UrlEntry,
  type Video,
  type W3cDate,
} from '../core/index.js';

/** A problem with one entry found by {@link prepareEntry}: its rule code and what to do. */
export interface EntryProblem {
  code: string;
  message: string;
  /** Set when it is not the catalog's severity for the code. */
  severity?: Severity;
}

/**
 * An entry ready to write (with the fields left out and the warnings as `problems`), or why it
 * cannot be written.
 */
export type PreparedEntry =
  | {
      ok: true;
      entry: UrlEntry;
      /** Fields left out and warnings, each with its rule (empty for a clean entry). */
      problems: readonly EntryProblem[];
      /** The instant of lastmod, to find a file's newest. */
      lastmodMillis?: number;
    }
  | { ok: false; problem: EntryProblem };

/**
 * What {@link prepareEntry} checks an entry against: the base URL, whether other hosts are allowed,
 * the clock.
 */
export interface PrepareContext {
  /** Directory URL the sitemaps are published at, ending in '/'. */
  baseUrl: string;
  allowOtherHosts: boolean;
  /**
   * The present, in epoch milliseconds, for the rules that compare with it: a lastmod in the
   * future (DATE-005) and a news article older than two days (NEWS-003). Left out, they are not
   * checked (writeSitemaps always gives it).
   */
  now?: number;
}

const NONE: readonly EntryProblem[] = Object.freeze([]);

/**
 * Checks one entry against every rule of the catalog a single entry can break, as the generator
 * does: resolves and normalises URLs, formats dates, leaves out bad fields. What it returns passes
 * `validate` without errors.
 */
export function prepareEntry(raw: unknown, context: PrepareContext): PreparedEntry {
  if (!isObject(raw)) return refusedEntry('INPUT-001', 'an entry must be an object with at least "loc"');
  if (raw.kind !== undefined && raw.kind !== 'url') {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any JSON value; an object kind reads [object Object], still refused
    return refusedEntry('INPUT-001', `only url entries can be written to a urlset, not kind "${String(raw.kind)}"`);
  }
  const fields = new Fields();
  const loc = pageLoc(raw.loc, context, fields);
  if (typeof loc !== 'string') return { ok: false, problem: loc };
  const entry: UrlEntry = { kind: 'url', loc };
  const lastmod = present(raw.lastmod) ? prepareLastmod(raw.lastmod, context, fields) : undefined;
  if (lastmod !== undefined) entry.lastmod = lastmod.text;
  if (present(raw.changefreq)) {
    const changefreq = fields.keep('changefreq', textOf(raw.changefreq, 'FREQ-001', readChangefreq));
    if (changefreq !== undefined) entry.changefreq = changefreq;
  }
  if (present(raw.priority)) {
    const priority = fields.keep(
      'priority',
      typeof raw.priority === 'number' || typeof raw.priority === 'string'
        ? readPriority(raw.priority)
        : notA<number>('PRIO-001', 'a decimal from 0.0 to 1.0', raw.priority),
    );
    if (priority !== undefined) entry.priority = priority;
  }
  const images = raw.images === undefined ? undefined : prepareImages(raw.images, context, fields);
  if (images !== undefined) entry.images = images;
  const videos = raw.videos === undefined ? undefined : prepareVideos(raw.videos, loc, context, fields);
  if (videos !== undefined) entry.videos = videos;
  const news = raw.news === undefined ? undefined : prepareNews(raw.news, context, fields);
  if (news !== undefined) entry.news = news;
  const alternates = raw.alternates === undefined ? undefined : prepareAlternates(raw.alternates, loc, context, fields);
  if (alternates !== undefined) entry.alternates = alternates;
  const problems = fields.problems ?? NONE;
  return lastmod === undefined
    ? { ok: true, entry, problems }
    : { ok: true, entry, problems, lastmodMillis: lastmod.millis };
}

function refusedEntry(code: string, message: string): PreparedEntry {
  return { ok: false, problem: { code, message } };
}

/** The problems of one entry's fields, each named by its field path and what was left out. */
class Fields {
  problems: EntryProblem[] | undefined;

  /** Reports a problem of the field at `path`; `leftOut` names what is not written because of it. */
  report(path: string, found: RuleProblem, leftOut?: string): void {
    const message = `${path}: ${found.message}${leftOut === undefined ? '' : `; ${leftOut} is left out`}`;
    (this.problems ??= []).push(
      found.severity === undefined
        ? { code: found.code, message }
        : { code: found.code, message, severity: found.severity },
    );
  }

  /** The checked value, or undefined with its problem reported (problems that come with a value were repaired). */
  keep<T>(path: string, checked: Checked<T>): T | undefined {
    if (checked.value === undefined) checked.problems.forEach((found) => this.report(path, found, path));
    return checked.value;
  }

  /** Reports judgements on a written field: errors leave out what they are about (true), the rest are only reported. */
  judge(prefix: string, problems: readonly RuleProblem[]): boolean {
    let leftOut = false;
    for (const found of problems) {
      const path = found.path === undefined ? prefix : prefix === '' ? found.path : `${prefix}.${found.path}`;
      const error = isError(found);
      this.report(path, found, error ? path : undefined);
      leftOut ||= error;
    }
    return leftOut;
  }
}

function isError(found: RuleProblem): boolean {
  return (found.severity ?? RULES[found.code]?.severity) === 'error';
}

// ---- loc ----------------------------------------------------------------------------------

/** The page URL, or the problem that keeps the entry from being written. */
function pageLoc(value: unknown, context: PrepareContext, fields: Fields): string | EntryProblem {
  if (typeof value !== 'string' || value.trim() === '') return { code: 'URL-001', message: 'the entry has no "loc"' };
  const read = readUrl(value, { mode: 'normalise', field: 'page', base: context.baseUrl });
  if (read.value === undefined) return read.problems[0]!;
  // What normalising changed and must say: a user name or password removed (URL-024).
  for (const found of read.problems) fields.report('loc', found);
  let loc = read.value;
  const hash = fragmentStart(loc);
  if (hash >= 0) {
    fields.report('loc', {
      code: 'URL-008',
      message: `the fragment "${loc.slice(hash)}" is never sent to the server, so it was cut from the URL`,
    });
    loc = loc.slice(0, hash);
  }
  // A canonical URL that starts with the base URL (which ends in '/') is in scope.
  if (!context.allowOtherHosts && !loc.startsWith(context.baseUrl)) {
    const scope = checkScope(loc, context.baseUrl);
    if (scope === 'other-host') {
      return {
        code: 'URL-004',
        message: `${loc} is on another host than the base URL ${context.baseUrl}; a sitemap may only list its own host's URLs (use --allow-other-hosts when the other host's robots.txt lists this sitemap)`,
      };
    }
    if (scope === 'outside-directory') {
      return {
        code: 'URL-005',
        message: `${loc} is outside the base URL's directory ${context.baseUrl}; a sitemap may only list URLs at or below its own directory`,
      };
    }
  }
  const judged = pageUrlProblems(loc);
  const refusal = judged.find(isError);
  if (refusal) return { code: refusal.code, message: refusal.message };
  for (const found of judged) fields.report('loc', found);
  return loc;
}

// ---- lastmod ------------------------------------------------------------------------------

interface ReadDate {
  text: string;
  millis: number;
  date: W3cDate;
}

/**
 * Dates repeat a lot in real sitemaps (whole sections share a day), so read dates are kept in a
 * small memo; it is emptied when full, which bounds its memory.
 */
const DATE_MEMO = new Map<string, ReadDate | RuleProblem>();
const DATE_MEMO_SIZE = 4096;

function prepareLastmod(value: unknown, context: PrepareContext, fields: Fields): ReadDate | undefined {
  if (typeof value !== 'string') return fields.keep('lastmod', notA('DATE-001', 'a W3C datetime string', value));
  let read = DATE_MEMO.get(value);
  if (read === undefined) {
    const checked = readW3cDate(value);
    read =
      checked.value === undefined
        ? checked.problems[0]!
        : { text: formatSitemapDate(checked.value), millis: toEpochMillis(checked.value), date: checked.value };
    if (DATE_MEMO.size >= DATE_MEMO_SIZE) DATE_MEMO.clear();
    DATE_MEMO.set(value, read);
  }
  if ('code' in read) return fields.keep('lastmod', { value: undefined, problems: [read] });
  // The written form is never one the schema rejects (DATE-004) nor over Yandex's size (XML-013):
  // only the future is left to judge, and a date in the future is wrong on its face.
  const future = context.now === undefined ? undefined : futureDateProblem(value, read.millis, context.now);
  return future ? fields.keep('lastmod', { value: undefined, problems: [future] }) : read;
}

// ---- images -------------------------------------------------------------------------------

function prepareImages(raw: unknown, context: PrepareContext, fields: Fields): Image[] | undefined {
  const list = listOf(raw, 'images', 'IMG-001', fields);
  if (list === undefined) return undefined;
  const count = imageCountProblem(list.length);
  if (count) fields.report('images', count, `every image past the first ${LIMITS.maxImagesPerUrl}`);
  const images: Image[] = [];
  list.slice(0, LIMITS.maxImagesPerUrl).forEach((item, i) => {
    const path = `images.${i}`;
    if (!isObject(item)) {
      fields.report(path, { code: IMAGE_LOC_CODE, message: 'each image must be an object with "loc"' }, path);
      return;
    }
    const loc = fields.keep(`${path}.loc`, extensionUrl(item.loc, context, IMAGE_LOC_CODE));
    if (loc === undefined) return;
    const image: Image = { loc };
    for (const key of ['caption', 'geoLocation', 'title'] as const) {
      if (item[key] === undefined) continue;
      const text = fields.keep(`${path}.${key}`, nonEmptyText(item[key], 'IMG-001'));
      if (text !== undefined) image[key] = text;
    }
    if (item.license !== undefined) {
      const license = fields.keep(`${path}.license`, extensionUrl(item.license, context, 'URL-001'));
      if (license !== undefined) image.license = license;
    }
    fields.judge(path, deprecatedImageProblems(image));
    images.push(image);
  });
  return images.length > 0 ? images : undefined;
}

// ---- videos -------------------------------------------------------------------------------

function prepareVideos(
  raw: unknown,
  pageLocation: string,
  context: PrepareContext,
  fields: Fields,
): Video[] | undefined {
  const list = listOf(raw, 'videos', 'VID-001', fields);
  if (list === undefined) return undefined;
  const videos = list
    .map((item, i) => prepareVideo(item, `videos.${i}`, pageLocation, context, fields))
    .filter((video): video is Video => video !== undefined);
  return videos.length > 0 ? videos : undefined;
}

/** Thrown inside prepareVideo and prepareNews when a block cannot be written: the problem is reported already. */
class BlockLeftOut extends Error {}

function prepareVideo(
  raw: unknown,
  path: string,
  pageLocation: string,
  context: PrepareContext,
  fields: Fields,
): Video | undefined {
  if (!isObject(raw)) {
    fields.report(path, { code: 'VID-001', message: 'each video must be an object' }, path);
    return undefined;
  }
  // A bad required value leaves the whole video out, reported at that value.
  const required = <T>(key: string, checked: Checked<T>): T | undefined => {
    if (raw[key] === undefined) return undefined;
    if (checked.value === undefined) {
      fields.report(`${path}.${key}`, checked.problems[0]!, path);
      throw new BlockLeftOut();
    }
    return checked.value;
  };
  const optional = <T>(key: string, checked: Checked<T>): T | undefined =>
    raw[key] === undefined ? undefined : fields.keep(`${path}.${key}`, checked);
  try {
    const video: Video = {};
    const assign = <K extends keyof Video>(key: K, value: Video[K] | undefined) => {
      if (value !== undefined) video[key] = value;
    };
    assign('thumbnailLoc', required('thumbnailLoc', extensionUrl(raw.thumbnailLoc, context, 'URL-001')));
    assign('title', required('title', nonEmptyText(raw.title, 'VID-001')));
    assign('description', required('description', nonEmptyText(raw.description, 'VID-001')));
    assign('contentLoc', required('contentLoc', extensionUrl(raw.contentLoc, context, 'URL-001')));
    assign('playerLoc', required('playerLoc', extensionUrl(raw.playerLoc, context, 'URL-001')));
    assign('duration', optional('duration', videoNumber(raw.duration)));
    assign('expirationDate', optional('expirationDate', completeDate(raw.expirationDate, 'expiration_date')));
    assign('rating', optional('rating', videoNumber(raw.rating)));
    assign('viewCount', optional('viewCount', videoNumber(raw.viewCount)));
    assign('publicationDate', optional('publicationDate', completeDate(raw.publicationDate, 'publication_date')));
    for (const key of ['familyFriendly', 'requiresSubscription', 'live'] as const) {
      assign(key, optional(key, yesNo(raw[key])));
    }
    // A restriction or platform that cannot be written leaves out the video: without it, the
    // video would be offered where its owner said not to.
    if (raw.restriction !== undefined) {
      const relationship = required('restriction', relationshipOf(raw.restriction, 'VID-007'));
      const countries = required('restriction', readCountries(wordsOf(raw.restriction, 'countries')));
      video.restriction = { relationship: relationship!, countries: countries! };
    }
    if (raw.platform !== undefined) {
      const relationship = required('platform', relationshipOf(raw.platform, 'VID-008'));
      const platforms = required('platform', readPlatforms(wordsOf(raw.platform, 'platforms')));
      video.platform = { relationship: relationship!, platforms: platforms! };
    }
    assign('uploader', optional('uploader', uploaderOf(raw.uploader, context)));
    assign('tags', optional('tags', textList(raw.tags, 'VID-009')));
    const missing = missingVideoProblem(video);
    if (missing) {
      fields.report(path, missing, path);
      return undefined;
    }
    for (const found of videoProblems(video, pageLocation)) dropVideoField(video, found, path, fields);
    return orderVideo(video);
  } catch (error) {
    if (error instanceof BlockLeftOut) return undefined;
    throw error;
  }
}

/** Applies one judgement to a video: a warning is reported; an error leaves out its field, or the video when the field is required. */
function dropVideoField(video: Video, found: RuleProblem, path: string, fields: Fields): void {
  const fieldPath = `${path}.${found.path}`;
  const field = (found.path ?? '').split('.')[0] as keyof Video;
  const required = field === 'title' || field === 'description' || field === 'contentLoc' || field === 'playerLoc';
  // A view count is a whole number in the schema: any other is left out, whatever its severity.
  if (!isError(found) && field !== 'viewCount') return fields.report(fieldPath, found);
  if (required) {
    fields.report(fieldPath, found, path);
    throw new BlockLeftOut();
  }
  if (found.path === 'uploader.info') {
    fields.report(fieldPath, found, fieldPath);
    delete video.uploader!.info;
  } else {
    fields.report(fieldPath, found, `${path}.${field}`);
    delete video[field];
  }
}

/** The entry model's key order, so that output reads the same whatever the input's order. */
function orderVideo(video: Video): Video {
  const { thumbnailLoc, title, description, ...rest } = video;
  return { thumbnailLoc, title, description, ...rest } as Video;
}

function relationshipOf(raw: unknown, code: string): Checked<'allow' | 'deny'> {
  return readRelationship(isObject(raw) && typeof raw.relationship === 'string' ? raw.relationship : undefined, code);
}

/** A list given as an array of strings or as one space-separated string. */
function wordsOf(raw: unknown, key: string): string[] {
  const value = isObject(raw) ? raw[key] : undefined;
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return Array.isArray(value) ? (value as unknown[]).map(String) : [];
}

function uploaderOf(raw: unknown, context: PrepareContext): Checked<NonNullable<Video['uploader']>> {
  if (!isObject(raw)) return notA('VID-009', 'an object with "name"', raw);
  const name = nonEmptyText(raw.name, 'VID-009');
  if (name.value === undefined) return { value: undefined, problems: name.problems };
  if (raw.info === undefined) return { value: { name: name.value }, problems: [] };
  const info = extensionUrl(raw.info, context, 'VID-009');
  return info.value === undefined
    ? { value: undefined, problems: info.problems }
    : { value: { name: name.value, info: info.value }, problems: [] };
}

// ---- news ---------------------------------------------------------------------------------

function prepareNews(raw: unknown, context: PrepareContext, fields: Fields): News | undefined {
  const path = 'news';
  if (!isObject(raw)) {
    fields.report(path, { code: 'NEWS-001', message: 'news must be an object' }, path);
    return undefined;
  }
  const publication = isObject(raw.publication) ? raw.publication : {};
  const required = <T>(key: string, value: unknown, read: (value: unknown) => Checked<T>): T | undefined => {
    if (value === undefined || value === '') return undefined;
    const checked = read(value);
    if (checked.value === undefined) {
      fields.report(`${path}.${key}`, checked.problems[0]!, path);
      throw new BlockLeftOut();
    }
    return checked.value;
  };
  try {
    const name = required('publication.name', publication.name, (value) => nonEmptyText(value, 'NEWS-001'));
    const language = required('publication.language', publication.language, (value) =>
      textOf(value, 'NEWS-005', readNewsLanguage),
    );
    const date = required('publicationDate', raw.publicationDate, (value) => textOf(value, 'NEWS-004', readNewsDate));
    const title = required('title', raw.title, (value) => nonEmptyText(value, 'NEWS-001'));
    const news: News = {};
    if (name !== undefined || language !== undefined) {
      news.publication = {};
      if (name !== undefined) news.publication.name = name;
      if (language !== undefined) news.publication.language = language;
    }
    if (date !== undefined) news.publicationDate = formatSitemapDate(date);
    if (title !== undefined) news.title = title;
    const missing = missingNewsProblem(news);
    if (missing) {
      fields.report(path, missing, path);
      return undefined;
    }
    for (const key of ['keywords', 'genres', 'stockTickers'] as const) {
      if (raw[key] === undefined) continue;
      const list = textList(raw[key], 'NEWS-007');
      const items = fields.keep(
        `${path}.${key}`,
        list.value === undefined ? list : readLegacyNewsList(key, list.value),
      );
      if (items !== undefined) news[key] = items;
    }
    // What is left to judge are warnings: an old article, a title with a date or the name, legacy tags.
    fields.judge(path, newsProblems(news, context.now));
    return news;
  } catch (error) {
    if (error instanceof BlockLeftOut) return undefined;
    throw error;
  }
}

// ---- alternates ---------------------------------------------------------------------------

function prepareAlternates(
  raw: unknown,
  pageLocation: string,
  context: PrepareContext,
  fields: Fields,
): Alternate[] | undefined {
  const list = listOf(raw, 'alternates', 'HREF-001', fields);
  if (list === undefined) return undefined;
  const alternates: Alternate[] = [];
  list.forEach((item, i) => {
    const path = `alternates.${i}`;
    if (!isObject(item)) {
      fields.report(
        path,
        { code: 'HREF-001', message: 'each alternate must be an object with "hreflang" and "href"' },
        path,
      );
      return;
    }
    const hreflang = fields.keep(`${path}.hreflang`, textOf(item.hreflang, 'HREF-001', readHreflang));
    const href = fields.keep(`${path}.href`, extensionUrl(item.href, context, 'HREF-001'));
    if (hreflang !== undefined && href !== undefined) alternates.push({ hreflang, href });
  });
  if (alternates.length === 0) return undefined;
  // Without the URL itself among them (HREF-003) the cluster is refused; two URLs for one
  // language (HREF-005) are only ignored by Google.
  return fields.judge('', alternatesProblems(pageLocation, alternates)) ? undefined : alternates;
}

// ---- readers of loosely typed input ---------------------------------------------------------

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== '';
}

function describe(value: unknown): string {
  return value === undefined
    ? 'nothing'
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : typeof value === 'object'
          ? 'an object'
          : JSON.stringify(value);
}

function notA<T>(code: string, what: string, value: unknown): Checked<T> {
  return { value: undefined, problems: [{ code, message: `must be ${what}, not ${describe(value)}` }] };
}

/** A string field read by a core checker; any other type is refused with `code`. */
function textOf<T>(value: unknown, code: string, read: (text: string) => Checked<T>): Checked<T> {
  return typeof value === 'string' ? read(value) : notA(code, 'a string', value);
}

function nonEmptyText(value: unknown, code: string): Checked<string> {
  if (typeof value !== 'string' || value.trim() === '') return notA(code, 'a non-empty string', value);
  return { value, problems: [] };
}

/** A URL inside an extension: absolute, or a path from the base URL; free text is refused. */
function extensionUrl(value: unknown, context: PrepareContext, code: string): Checked<string> {
  return textOf(value, code, (text) =>
    readUrl(text, { mode: 'normalise', field: 'extension', base: context.baseUrl, code }),
  );
}

function listOf(value: unknown, path: string, code: string, fields: Fields): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  return fields.keep(path, notA(code, 'a list', value));
}

/** A list of non-empty strings; an empty list is no value (nothing to write, nothing wrong). */
function textList(value: unknown, code: string): Checked<string[]> {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === ''))
    return notA(code, 'a list of non-empty strings', value);
  return { value: value.length === 0 ? undefined : (value as string[]), problems: [] };
}

/** A video number, given as one or as numeric text ("120"). */
function videoNumber(value: unknown): Checked<number> {
  return typeof value === 'number' || typeof value === 'string'
    ? readVideoNumber(value)
    : notA('VID-005', 'a number', value);
}

function completeDate(value: unknown, tag: string): Checked<string> {
  const date = textOf(value, 'VID-010', (text) => readCompleteDate(text, `<video:${tag}>`, 'VID-010'));
  return date.value === undefined
    ? { value: undefined, problems: date.problems }
    : { value: formatSitemapDate(date.value), problems: [] };
}

function yesNo(value: unknown): Checked<boolean> {
  if (typeof value === 'boolean') return { value, problems: [] };
  return textOf(value, 'VID-006', readYesNo);
}
