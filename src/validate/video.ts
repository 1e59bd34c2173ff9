/**
 * Video extension rules on kept values (RULES.md §7). Required tags (VID-001), yes/no values,
 * restriction and platform attributes (VID-006..008) and deprecated tags (VID-011) are the
 * parser's; the country codes of a kept restriction (VID-007) are checked here.
 * VID-012 and VID-013 need the live web and belong to the audit.
 */
import { parseW3cDate } from '../core/datetime.js';
import type { UrlEntry, Video } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import type { LocatedEntry } from '../parse/types.js';
import { COUNTRY_CODES } from './codes.js';
import { quote, type Reporter } from './reporter.js';

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

/** Extensions of pages and plug-ins, not of media files (VID-004). */
const PLAY_PAGE_EXTENSION = /\.(?:html?|xhtml|php\d?|aspx?|jsp|cfm|swf)$/i;

export function checkVideos(located: LocatedUrl, report: Reporter): void {
  located.entry.videos?.forEach((video, i) => checkVideo(located, video, `videos.${i}`, report));
}

function checkVideo(located: LocatedUrl, video: Video, path: string, report: Reporter): void {
  // The field's own position first, then the <video:video> element, then (by the reporter) the entry.
  const at = (...fields: string[]) => [...fields.map((field) => `${path}.${field}`), path];
  const pageUrl = located.entry.loc;

  if (video.description.length > LIMITS.videoMaxDescription) {
    report.field(
      'VID-002',
      `the video description is ${video.description.length} characters long; at most ${LIMITS.videoMaxDescription} are allowed: shorten it`,
      located,
      at('description'),
    );
  }
  if (video.title.length > LIMITS.videoMaxTitle) {
    report.field(
      'VID-002',
      `the video title is ${video.title.length} characters long; the video schema allows at most ${LIMITS.videoMaxTitle}: shorten it`,
      located,
      at('title'),
    );
  }
  for (const [field, tag] of [
    ['contentLoc', 'content_loc'],
    ['playerLoc', 'player_loc'],
  ] as const) {
    if (video[field] === pageUrl) {
      report.field(
        'VID-003',
        `<video:${tag}> is the page's own URL; point it at the video file (content_loc) or the embeddable player (player_loc)`,
        located,
        at(field),
      );
    }
  }
  if (video.contentLoc !== undefined && PLAY_PAGE_EXTENSION.test(pathOf(video.contentLoc))) {
    report.field(
      'VID-004',
      `<video:content_loc> ${quote(video.contentLoc)} looks like a web page or a Flash file, not a media file; link the video file itself, or move this URL to <video:player_loc>`,
      located,
      at('contentLoc'),
    );
  }
  const unknownCountries = video.restriction?.countries.filter((code) => !COUNTRY_CODES.has(code.toLowerCase())) ?? [];
  if (unknownCountries.length > 0) {
    report.field(
      'VID-007',
      `<video:restriction> lists ${unknownCountries.map((code) => `"${code}"`).join(', ')}, which ${unknownCountries.length === 1 ? 'is not an ISO 3166-1 country code' : 'are not ISO 3166-1 country codes'}; use two-letter codes such as "GB" or "US"`,
      located,
      at('restriction'),
    );
  }
  checkNumbers(located, video, at, report);
  checkUploaderAndTags(located, video, at, report);
  for (const [field, tag] of [
    ['publicationDate', 'publication_date'],
    ['expirationDate', 'expiration_date'],
  ] as const) {
    const value = video[field];
    if (value === undefined) continue;
    const parsed = parseW3cDate(value.trim());
    if (!parsed.ok) {
      report.field('VID-010', `<video:${tag}>: ${parsed.problem.message}`, located, at(field));
    }
  }
}

type FieldPaths = (...fields: string[]) => string[];

function checkNumbers(located: LocatedUrl, video: Video, at: FieldPaths, report: Reporter): void {
  const { duration, rating, viewCount } = video;
  if (
    duration !== undefined &&
    (!Number.isInteger(duration) || duration < LIMITS.videoMinDuration || duration > LIMITS.videoMaxDuration)
  ) {
    report.field(
      'VID-005',
      `<video:duration> ${duration} is not a whole number of seconds between ${LIMITS.videoMinDuration} and ${LIMITS.videoMaxDuration} (8 hours): write the length in seconds`,
      located,
      at('duration'),
    );
  }
  if (rating !== undefined && !(rating >= 0 && rating <= LIMITS.videoMaxRating)) {
    report.field(
      'VID-005',
      `<video:rating> ${rating} is outside 0.0 to ${LIMITS.videoMaxRating.toFixed(1)}: rescale it to that range`,
      located,
      at('rating'),
    );
  }
  if (viewCount !== undefined && !(Number.isInteger(viewCount) && viewCount >= 0)) {
    report.field(
      'VID-005',
      `<video:view_count> ${viewCount} is not a whole number of views of at least 0`,
      located,
      at('viewCount'),
      'warning',
    );
  }
}

function checkUploaderAndTags(located: LocatedUrl, video: Video, at: FieldPaths, report: Reporter): void {
  if (video.tags !== undefined && video.tags.length > LIMITS.videoMaxTags) {
    report.field(
      'VID-009',
      `the video has ${video.tags.length} <video:tag> elements; at most ${LIMITS.videoMaxTags} are allowed: keep the most relevant`,
      located,
      at(`tags.${LIMITS.videoMaxTags}`, 'tags'),
    );
  }
  const uploader = video.uploader;
  if (uploader === undefined) return;
  if (uploader.name.length > LIMITS.videoMaxUploader) {
    report.field(
      'VID-009',
      `<video:uploader> is ${uploader.name.length} characters long; at most ${LIMITS.videoMaxUploader} are allowed: shorten it`,
      located,
      at('uploader'),
    );
  }
  if (uploader.info !== undefined && !sameSite(uploader.info, located.entry.loc)) {
    report.field(
      'VID-009',
      `the uploader's info URL ${quote(uploader.info)} is not on the page's domain; Google requires the uploader page on the same domain as <loc>`,
      located,
      at('uploader.info', 'uploader'),
    );
  }
}

function pathOf(url: string): string {
  return url.replace(/[?#].*$/s, '');
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
