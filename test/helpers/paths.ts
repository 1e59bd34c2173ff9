import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// `../../` of this file: the repository from test/helpers/, dist/ from dist/test/helpers/.
const TWO_UP = new URL('../../', import.meta.url);

/**
 * The repository's root. Tests run from their source (`test/…`, through tsx) or compiled
 * (`dist/test/…`, as `npm test` runs them), so a path relative to a test's own file differs
 * between the two: name files of the repository from here instead.
 */
export const REPO_DIR = fileURLToPath(import.meta.url.endsWith('.ts') ? TWO_UP : new URL('../', TWO_UP));

/** The conformance corpus, vendored byte for byte in the repository (see test/conformance/NOTICE.md). */
export const CONFORMANCE_DIR = join(REPO_DIR, 'test/conformance/corpus/');
/** The official sitemap schemas that came with the corpus (their sources: corpus/xsd/SOURCES.md). */
export const XSD_DIR = join(REPO_DIR, 'test/conformance/corpus/xsd/');
