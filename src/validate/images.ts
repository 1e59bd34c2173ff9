/**
 * Image extension rules on kept values (docs/rules.md), by the image rules of core: how many
 * (IMG-002), deprecated tags (IMG-003); and, once per document, images on another host (IMG-004).
 * A missing or unreadable image:loc (IMG-001) is the parser's.
 */
import type { UrlEntry } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import { deprecatedImageProblems, imageCountProblem } from '../core/rules/image.js';
import { authorityEnd, looksAbsoluteHttp } from '../core/url.js';
import type { LocatedEntry } from '../parse/types.js';
import type { Reporter } from './reporter.js';

export class ImageRules {
  /** IMG-004 is advice: say it once per document, at the first image on another host. */
  private crossHostNoted = false;

  check(located: LocatedEntry & { entry: UrlEntry }, report: Reporter): void {
    const images = located.entry.images;
    if (!images) return;
    const count = imageCountProblem(images.length);
    if (count) {
      report.rules([count], located, `images.${LIMITS.maxImagesPerUrl}`, [`images.${LIMITS.maxImagesPerUrl}.loc`]);
    }
    for (let i = 0; i < images.length; i++) {
      const image = images[i]!;
      const deprecated = deprecatedImageProblems(image);
      if (deprecated.length > 0) report.rules(deprecated, located, `images.${i}`, [`images.${i}`, `images.${i}.loc`]);
      if (!this.crossHostNoted && looksAbsoluteHttp(image.loc) && !sameHost(image.loc, located.entry.loc)) {
        this.crossHostNoted = true;
        report.field(
          'IMG-004',
          `image ${image.loc} is on another host than its page; that is allowed (a CDN is fine when both hosts are verified) and the location rule does not apply to images, but make sure robots.txt lets crawlers fetch it`,
          located,
          [`images.${i}.loc`, `images.${i}`],
        );
      }
    }
  }
}

/** Whether two URLs name the same host (the authority, compared without case), without slicing either. */
function sameHost(a: string, b: string): boolean {
  const aStart = a.indexOf('://') + 3;
  const bStart = b.indexOf('://') + 3;
  const length = authorityEnd(a, aStart) - aStart;
  if (length !== authorityEnd(b, bStart) - bStart) return false;
  for (let i = 0; i < length; i++) {
    if (asciiLower(a.charCodeAt(aStart + i)) !== asciiLower(b.charCodeAt(bStart + i))) return false;
  }
  return true;
}

function asciiLower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}
