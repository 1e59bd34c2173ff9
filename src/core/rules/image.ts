/** The image extension (docs/rules.md): the image's location (IMG-001), how many (IMG-002), deprecated tags (IMG-003). */
import type { Image } from '../entry.js';
import { LIMITS } from '../limits.js';
import { at, problem, type RuleProblem } from './problem.js';

/** The code of an image whose `image:loc` is missing or no absolute URL. */
export const IMAGE_LOC_CODE = 'IMG-001';

/** IMG-002: more images than Google reads for one page. */
export function imageCountProblem(count: number): RuleProblem | undefined {
  if (count <= LIMITS.maxImagesPerUrl) return undefined;
  return problem(
    'IMG-002',
    `the URL lists ${count} images; Google reads at most ${LIMITS.maxImagesPerUrl} per page: keep the ${LIMITS.maxImagesPerUrl} that matter most`,
  );
}

/** Image fields Google deprecated in August 2022, with their tags. */
const DEPRECATED_IMAGE_FIELDS: readonly (readonly [keyof Image, string])[] = [
  ['caption', 'image:caption'],
  ['geoLocation', 'image:geo_location'],
  ['title', 'image:title'],
  ['license', 'image:license'],
];

/** IMG-003, for each deprecated field the image has (paths relative to the image). */
export function deprecatedImageProblems(image: Image): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const [field, tag] of DEPRECATED_IMAGE_FIELDS) {
    if (image[field] !== undefined)
      problems.push(
        at(field, problem('IMG-003', `<${tag}> was deprecated by Google in August 2022 and is ignored: remove it`)),
      );
  }
  return problems;
}
