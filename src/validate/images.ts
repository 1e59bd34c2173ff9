/** Image extension rules on kept values (RULES.md §6); IMG-001 (missing image:loc) is the parser's. */
import type { Image, UrlEntry } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import type { LocatedEntry } from '../parse/types.js';
import type { Reporter } from './reporter.js';

const DEPRECATED_IMAGE_TAGS: readonly [keyof Image, string][] = [
  ['caption', 'image:caption'],
  ['title', 'image:title'],
  ['geoLocation', 'image:geo_location'],
  ['license', 'image:license'],
];

export class ImageRules {
  /** IMG-004 is advice: say it once per document, at the first image on another host. */
  private crossHostNoted = false;

  check(located: LocatedEntry & { entry: UrlEntry }, report: Reporter): void {
    const images = located.entry.images;
    if (!images) return;
    if (images.length > LIMITS.maxImagesPerUrl) {
      report.field(
        'IMG-002',
        `the URL lists ${images.length} images; Google reads at most ${LIMITS.maxImagesPerUrl} per page: keep the ${LIMITS.maxImagesPerUrl} that matter most`,
        located,
        [`images.${LIMITS.maxImagesPerUrl}`, `images.${LIMITS.maxImagesPerUrl}.loc`],
      );
    }
    images.forEach((image, i) => {
      for (const [field, tag] of DEPRECATED_IMAGE_TAGS) {
        if (image[field] !== undefined) {
          report.field(
            'IMG-003',
            `<${tag}> was deprecated by Google in August 2022 and is ignored: remove it`,
            located,
            [`images.${i}.${field}`, `images.${i}`, `images.${i}.loc`],
          );
        }
      }
      if (!this.crossHostNoted && hostOf(image.loc) !== hostOf(located.entry.loc)) {
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
