/**
 * Video extension rules on kept values (docs/rules.md), by the video rules of core: lengths
 * (VID-002), locations (VID-003, VID-004), numbers (VID-005), the countries of a restriction
 * (VID-007), tags and uploader (VID-009), dates (VID-010). Required tags (VID-001), yes/no values,
 * restriction and platform attributes (VID-006..008) and deprecated tags (VID-011) are the
 * parser's. VID-012 and VID-013 need the live web and belong to the audit.
 */
import type { UrlEntry } from '../core/entry.js';
import { readCountries, videoProblems } from '../core/rules/video.js';
import type { LocatedEntry } from '../parse/types.js';
import type { Reporter } from './reporter.js';

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

export function checkVideos(located: LocatedUrl, report: Reporter): void {
  located.entry.videos?.forEach((video, i) => {
    // The field's own position first, then the <video:video> element, then the entry.
    const path = `videos.${i}`;
    report.rules(videoProblems(video, located.entry.loc), located, path, [path]);
    if (video.restriction !== undefined)
      report.rules(readCountries(video.restriction.countries).problems, located, `${path}.restriction`, [path]);
  });
}
