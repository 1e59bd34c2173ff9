/**
 * Expectations of the real-build tests that are right but wait for work on other branches; each
 * such test is marked `todo` with one of these, so that it runs and reports without failing the
 * suite, and the marks come off when the branch is merged.
 */
export const WAITS_FOR_BUILD_DIR =
  'waits for the build-directory reader (branch build-dir): client redirects, head dates, honest lastmod';
export const WAITS_FOR_CRAWL_AUDIT = 'waits for crawl and audit on real sites (branch crawl-audit)';
