/**
 * The video extension (docs/rules.md). A video needs a thumbnail, a title, a description and a
 * content or player location (VID-001); each other field has its own rule. Problems carry the
 * path of their field relative to the video ('duration', 'uploader.info').
 */
import type { Relationship, Video, VideoPlatform } from '../entry.js';
import { LIMITS } from '../limits.js';
import { looksAbsoluteHttp } from '../url.js';
import { readCompleteDate } from './dates.js';
import { isCountryCode } from './iso-codes.js';
import { accepted, at, problem, refused, shown, type Checked, type RuleProblem } from './problem.js';

/** The fields a video must have, by their tags. */
const REQUIRED: readonly (readonly [keyof Video, string])[] = [
  ['thumbnailLoc', 'thumbnail_loc'],
  ['title', 'title'],
  ['description', 'description'],
];

/** VID-001: the required tags a video lacks, or undefined when it is complete. */
export function missingVideoProblem(video: Video): RuleProblem | undefined {
  const missing: string[] = REQUIRED.filter(([field]) => video[field] === undefined).map(([, tag]) => `video:${tag}`);
  if (video.contentLoc === undefined && video.playerLoc === undefined)
    missing.push('video:content_loc or video:player_loc');
  if (missing.length === 0) return undefined;
  return problem('VID-001', `the video lacks ${missing.join(', ')}, which Google requires`);
}

const VIDEO_PLATFORMS: readonly VideoPlatform[] = ['web', 'mobile', 'tv'];

/** A decimal as the video schema writes numbers: no exponent ("1e3" and "3.8e-222" are refused). */
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A video number (duration, rating, view count), given as text or as a number (VID-005). */
export function readVideoNumber(value: string | number): Checked<number> {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (PLAIN_DECIMAL.test(text)) return accepted(Number(text));
  return refused(problem('VID-005', `${shown(text)} is not a number written as a decimal`));
}

/** yes/no (VID-006): any case reads, lower case is what to write. */
export function readYesNo(text: string): Checked<boolean> {
  const value = text.trim();
  const lower = value.toLowerCase();
  if (lower !== 'yes' && lower !== 'no') return refused(problem('VID-006', `must be yes or no, not ${shown(value)}`));
  const yes = lower === 'yes';
  return lower === value
    ? accepted(yes)
    : accepted(yes, [problem('VID-006', `must be lower-case "${lower}"`, 'warning')]);
}

/** The relationship attribute of a restriction (VID-007) or a platform (VID-008). */
export function readRelationship(text: string | undefined, code: string): Checked<Relationship> {
  const value = text?.trim();
  if (value === 'allow' || value === 'deny') return accepted(value);
  return refused(
    problem(
      code,
      value === undefined
        ? 'needs relationship="allow" or "deny"'
        : `relationship must be allow or deny, not ${shown(value)}`,
    ),
  );
}

/** Platform names (VID-008): at least one of web, mobile, tv. */
export function readPlatforms(names: readonly string[]): Checked<VideoPlatform[]> {
  if (names.length === 0) return refused(problem('VID-008', 'lists no platform; name web, mobile or tv'));
  const unknown = names.filter((name) => !(VIDEO_PLATFORMS as readonly string[]).includes(name));
  if (unknown.length > 0)
    return refused(problem('VID-008', `allows only web, mobile and tv, not ${shown(unknown.join(' '))}`));
  return accepted(names as VideoPlatform[]);
}

/**
 * Countries of a restriction (VID-007): at least one ISO 3166-1 alpha-2 code, written in upper
 * case as the schema requires. An unknown code refuses the whole restriction: dropping one code
 * of a "deny" list would show the video where its owner said not to.
 */
export function readCountries(codes: readonly string[]): Checked<string[]> {
  if (codes.length === 0)
    return refused(problem('VID-007', '<video:restriction> lists no country; name two-letter codes such as "GB"'));
  const unknown = codes.filter((code) => !/^[A-Za-z]{2}$/.test(code) || !isCountryCode(code));
  if (unknown.length > 0) {
    return refused(
      problem(
        'VID-007',
        `<video:restriction> lists ${unknown.map((code) => shown(code)).join(', ')}, which ${unknown.length === 1 ? 'is not an ISO 3166-1 country code' : 'are not ISO 3166-1 country codes'}; use two-letter codes such as "GB" or "US"`,
      ),
    );
  }
  const upper = codes.map((code) => code.toUpperCase());
  const lowered = codes.filter((code, i) => code !== upper[i]);
  return lowered.length === 0
    ? accepted(upper)
    : accepted(upper, [
        problem(
          'VID-007',
          `<video:restriction> country codes are upper case: ${lowered.map((code) => shown(code)).join(', ')}`,
          'warning',
        ),
      ]);
}

/** Extensions of pages and plug-ins, not of media files (VID-004). */
const PLAY_PAGE_EXTENSION = /\.(?:html?|xhtml|php\d?|aspx?|jsp|cfm|swf)$/i;

/** Every judgement on the values of a video that belongs to the page at `pageLoc`. */
export function videoProblems(video: Video, pageLoc: string): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const add = (path: string, found: RuleProblem | undefined) => {
    if (found) problems.push(at(path, found));
  };
  add('title', textLengthProblem(video.title, 'title', LIMITS.videoMaxTitle, 'VID-002'));
  add('description', textLengthProblem(video.description, 'description', LIMITS.videoMaxDescription, 'VID-002'));
  for (const [field, tag] of [
    ['contentLoc', 'content_loc'],
    ['playerLoc', 'player_loc'],
  ] as const) {
    if (video[field] === pageLoc)
      add(
        field,
        problem(
          'VID-003',
          `<video:${tag}> is the page's own URL; point it at the video file (content_loc) or the embeddable player (player_loc)`,
        ),
      );
  }
  if (video.contentLoc !== undefined && PLAY_PAGE_EXTENSION.test(video.contentLoc.replace(/[?#].*$/s, ''))) {
    add(
      'contentLoc',
      problem(
        'VID-004',
        `<video:content_loc> ${shown(video.contentLoc, 120)} looks like a web page or a Flash file, not a media file; link the video file itself, or move this URL to <video:player_loc>`,
      ),
    );
  }
  for (const [field, tag] of [
    ['publicationDate', 'publication_date'],
    ['expirationDate', 'expiration_date'],
  ] as const) {
    const date = video[field];
    if (date !== undefined) add(field, readCompleteDate(date, `<video:${tag}>`, 'VID-010').problems[0]);
  }
  add('duration', durationProblem(video.duration));
  add('rating', ratingProblem(video.rating));
  add('viewCount', viewCountProblem(video.viewCount));
  if (video.tags !== undefined && video.tags.length > LIMITS.videoMaxTags) {
    add(
      `tags.${LIMITS.videoMaxTags}`,
      problem(
        'VID-009',
        `the video has ${video.tags.length} <video:tag> elements; at most ${LIMITS.videoMaxTags} are allowed: keep the most relevant`,
      ),
    );
  }
  if (video.uploader !== undefined) {
    add('uploader', textLengthProblem(video.uploader.name, 'uploader', LIMITS.videoMaxUploader, 'VID-009'));
    add('uploader.info', uploaderInfoProblem(video.uploader.info, pageLoc));
  }
  return problems;
}

function textLengthProblem(text: string | undefined, tag: string, max: number, code: string): RuleProblem | undefined {
  if (text === undefined || text.length <= max) return undefined;
  return problem(code, `the video ${tag} is ${text.length} characters long; at most ${max} are allowed: shorten it`);
}

/** VID-005: a whole number of seconds from 1 to 28,800. */
function durationProblem(duration: number | undefined): RuleProblem | undefined {
  if (
    duration === undefined ||
    (Number.isInteger(duration) && duration >= LIMITS.videoMinDuration && duration <= LIMITS.videoMaxDuration)
  )
    return undefined;
  return problem(
    'VID-005',
    `<video:duration> ${duration} is not a whole number of seconds between ${LIMITS.videoMinDuration} and ${LIMITS.videoMaxDuration} (8 hours): write the length in seconds`,
  );
}

/** VID-005: a rating from 0.0 to 5.0. */
function ratingProblem(rating: number | undefined): RuleProblem | undefined {
  if (rating === undefined || (rating >= 0 && rating <= LIMITS.videoMaxRating)) return undefined;
  return problem(
    'VID-005',
    `<video:rating> ${rating} is outside 0.0 to ${LIMITS.videoMaxRating.toFixed(1)}: rescale it to that range`,
  );
}

/** VID-005 (a warning): a view count is a whole number of at least 0. */
function viewCountProblem(viewCount: number | undefined): RuleProblem | undefined {
  if (viewCount === undefined || (Number.isInteger(viewCount) && viewCount >= 0)) return undefined;
  return problem('VID-005', `<video:view_count> ${viewCount} is not a whole number of views of at least 0`, 'warning');
}

/** VID-009: the uploader's page must be on the page's domain. */
function uploaderInfoProblem(info: string | undefined, pageLoc: string): RuleProblem | undefined {
  // Text that is no URL at all is the URL rule's to report (URL-001), not this one's.
  if (info === undefined || !looksAbsoluteHttp(info) || sameSite(info, pageLoc)) return undefined;
  return problem(
    'VID-009',
    `the uploader's info URL ${shown(info, 120)} is not on the page's domain; Google requires the uploader page on the same domain as <loc>`,
  );
}

function siteHost(url: string): string | undefined {
  const match = /^https?:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(url);
  return match ? match[1]!.toLowerCase().replace(/^www\./, '') : undefined;
}

/** One host is the other or a subdomain of it (www. ignored). */
function sameSite(a: string, b: string): boolean {
  const hostA = siteHost(a);
  const hostB = siteHost(b);
  if (hostA === undefined || hostB === undefined) return false;
  return hostA === hostB || hostA.endsWith(`.${hostB}`) || hostB.endsWith(`.${hostA}`);
}
