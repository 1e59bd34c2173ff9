/**
 * Expectations of the real-build tests that are right but wait for work on other branches; each
 * such test is marked `todo` with one of these, so that it runs and reports without failing the
 * suite, and the mark comes off when the branch is merged.
 */
export const WAITS_FOR_BUILD_DIR =
  "waits for generate's --clean-urls and --trailing-slash flags (branch build-dir; the library has them)";
