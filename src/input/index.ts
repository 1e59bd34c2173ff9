/** Input sources for the generator: URL lists (txt, jsonl, csv, stdin) and a site's build directory. */
export { readUrlList, STDIN_SOURCE, type ReadUrlListOptions } from './url-list.js';
export {
  walkSiteDirectory,
  readSiteDirectory,
  pageUrlPath,
  type LeftOutPage,
  type LeftOutPageReason,
  type DirectoryNote,
  type TrailingSlash,
  type UrlForms,
  type WalkSiteOptions,
} from './site-directory.js';
export { formatFromContent, formatFromPath } from './sniff.js';
export { readLines, type NumberedLine } from './lines.js';
export * from './types.js';
export { LeftOutPages, type LeftOutGroup } from './left-out.js';
export { pageContentDigest } from './content-digest.js';
export { CommitTimes, type CommitTimesOpening } from './commit-times.js';
export { GitSourceTimes, SOURCE_EXTENSIONS } from './git-sources.js';
