/**
 * Image extension rules on kept values (docs/rules.md), by the image rules of core: how many
 * (IMG-002), deprecated tags (IMG-003); and, once per document, images on another host (IMG-004).
 * A missing or unreadable image:loc (IMG-001) is the parser's.
 */
import type { UrlEntry } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import { deprecatedImageProblems, imageCountProblem } from '../core/rules/image.js';
import { looksAbsoluteHttp } from '../core/url.js';
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
    images.forEach((image, i) => {
      report.rules(deprecatedImageProblems(image), located, `images.${i}`, [`images.${i}`, `images.${i}.loc`]);
      if (!this.crossHostNoted && looksAbsoluteHttp(image.loc) && hostOf(image.loc) !== hostOf(located.entry.loc)) {
        this.crossHostNoted = true;
        report.field(
          'IMG-004',
          `image ${image.loc} is on another host than its page; that is allowed (a CDN is fine when both hosts are verified) and the location rule does not apply to images, but make sure robots.txt lets crawlers fetch it`,
          located,
          [`images.${i}.loc`, `images.${i}`],
        );
      }
    });
  }
}

function hostOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  return match ? match[1]!.toLowerCase() : '';
}
