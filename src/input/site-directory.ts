/**
 * A site's build output → entries: every .html file becomes a URL under the base URL
 * (`index.html` → its directory, with a trailing slash), lastmod from the file's modification
 * time, or from its last commit when asked (commit-times.ts). On request each listed page also
 * carries the digest of its content (content-digest.ts), by which a ledger of earlier runs can date
 * it by its last change rather than by the last build. Hidden files and folders (names starting with a dot) are passed by. A page is left out,
 * with its reason, when:
 * - its path matches an --exclude glob (relative to the directory; a leading "/" anchors it there
 *   too, as in `crawl --exclude`);
 * - it is an error page: named after an HTTP error status (`404.html`, `500.html`, `404/index.html`);
 * - its head says noindex (`<meta name="robots">`, or one addressed to Googlebot or Bingbot, read
 *   as the crawler reads them: src/html/);
 * - its canonical names another page. A canonical that names the page itself in another form
 *   (`/about` for about.html, `/blog` for blog/index.html) is the URL it is listed under.
 *
 * readSiteDirectory names the file each entry comes from, so that a problem with a page (a
 * duplicate URL, one too long) points at the file to fix, not at the whole directory.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { formatUtcDateTime, joinUrl, type UrlEntry } from '../core/index.js';
import { readPageHead } from '../html/page-head.js';
import type { CommitTimes } from './commit-times.js';
import { pageContentDigest } from './content-digest.js';
import type { ReadEntry } from './types.js';

/** What becomes of the trailing slash of a folder page's URL (`blog/index.html`): `/blog/`, `/blog`, or as the links write it. */
export type TrailingSlash = 'always' | 'never' | 'keep';

/** Why a page of a build directory is not listed. */
export type LeftOutPageReason = 'excluded' | 'error-page' | 'noindex' | 'canonicalised';

/** A page of the directory that is not listed, and why. */
export interface LeftOutPage {
  /** The file, as readSiteDirectory names its entries' sources. */
  path: string;
  reason: LeftOutPageReason;
  /** What decided it: the --exclude glob, the canonical URL… */
  detail: string;
}

/**
 * How a build directory is read: its base URL, globs to leave out, and what to compute for each
 * page.
 */
export interface WalkSiteOptions {
  /** Public URL of the directory's root. */
  baseUrl: string;
  /** Globs of paths to leave out, relative to the directory, `/`-separated (e.g. `drafts/**`, `/drafts/**`, `**\/*.amp.html`). */
  exclude?: readonly string[];
  /** Told of every HTML file left out, and why. */
  onLeftOut?: (page: LeftOutPage) => void;
  /** Told once the walk is over of the exclude globs that matched no file (a typo, or a path that moved). */
  onUnusedExclude?: (patterns: string[]) => void;
  /** Give each entry the digest of its page's content (`contentDigest`). */
  contentDigests?: boolean;
  /** Date each page by its last commit, when git has one for it, instead of by its file time. */
  commitTimes?: CommitTimes;
}

/** How far into a page its first `<h1>` is looked for, when it has no `<title>`. */
const TITLE_SEARCH_CHARS = 16 * 1024;

const HTML_FILE = /\.html?$/i;
/** `404.html`, `500.htm`, or `404/index.html` (as Gatsby writes it): pages served for HTTP errors. */
const ERROR_PAGE = /(?:^|\/)[45]\d\d(?:\.html?|\/index\.html?)$/i;

/** The entries of the pages, without where they come from. */
export async function* walkSiteDirectory(dir: string, options: WalkSiteOptions): AsyncGenerator<UrlEntry> {
  for await (const { entry } of readSiteDirectory(dir, options)) yield entry;
}

/**
 * The entries of the pages, each with its file as the source: the directory as given, joined
 * with the page's path below it (`public` → `public/blog/index.html`). A page is a whole file: it
 * has no line.
 */
export async function* readSiteDirectory(dir: string, options: WalkSiteOptions): AsyncGenerator<ReadEntry> {
  const excludes = (options.exclude ?? []).map((pattern) => ({ pattern, used: false, test: excludeMatcher(pattern) }));
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const leaveOut = (path: string, reason: LeftOutPageReason, detail: string): void =>
    options.onLeftOut?.({ path, reason, detail });
  for await (const relative of htmlFiles(dir, '')) {
    const path = join(dir, relative);
    const excluded = excludes.find((exclude) => exclude.test(relative));
    if (excluded) {
      excluded.used = true;
      leaveOut(path, 'excluded', `matches --exclude ${excluded.pattern}`);
      continue;
    }
    if (ERROR_PAGE.test(relative)) {
      leaveOut(path, 'error-page', 'named after an HTTP error status: served for errors, not a page to index');
      continue;
    }
    const url = joinUrl(base, pageUrlPath(relative));
    const head = await readPageHead(createReadStream(path), url, { bodyChars: TITLE_SEARCH_CHARS });
    if (head.directives.noindex) {
      leaveOut(path, 'noindex', 'noindex in a robots <meta> tag');
      continue;
    }
    let loc = url;
    // One canonical decides; several that disagree say nothing (as the crawler reads them).
    const [canonical, ...others] = head.canonicals;
    if (canonical !== undefined && others.length === 0 && canonical !== url) {
      if (!namesFile(canonical, base, relative)) {
        leaveOut(path, 'canonicalised', `canonical is ${canonical}`);
        continue;
      }
      loc = canonical;
    }
    const lastmod = (await options.commitTimes?.timeOf(relative)) ?? formatUtcDateTime((await stat(path)).mtime);
    const entry: UrlEntry = { kind: 'url', loc, lastmod };
    const title = head.title ?? head.heading;
    yield {
      entry,
      source: path,
      ...(options.contentDigests ? { contentDigest: await pageContentDigest(createReadStream(path)) } : {}),
      ...(title === undefined ? {} : { title }),
    };
  }
  const unused = excludes.filter((exclude) => !exclude.used).map((exclude) => exclude.pattern);
  if (unused.length > 0) options.onUnusedExclude?.(unused);
}

/** Matches paths relative to the directory; "/drafts/**" is anchored at its root, as "drafts/**" is. */
function excludeMatcher(pattern: string): (relative: string) => boolean {
  return picomatch(pattern.replace(/^\.?\/+/, ''), { dot: true });
}

/** Relative paths of the HTML files below `dir`, in a stable (sorted) order. */
async function* htmlFiles(root: string, relative: string): AsyncGenerator<string> {
  const entries = (await readdir(join(root, relative), { withFileTypes: true }))
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) yield* htmlFiles(root, path);
    else if (entry.isFile() && HTML_FILE.test(entry.name)) yield path;
  }
}

/** `blog/index.html` → `blog/`; `about.html` → `about.html`; each segment percent-encoded. */
export function pageUrlPath(relative: string): string {
  const segments = relative.split('/');
  if (/^index\.html?$/i.test(segments[segments.length - 1]!)) segments[segments.length - 1] = '';
  return segments.map((segment) => encodeURIComponent(segment)).join('/');
}

/**
 * True when `url` is one of the forms under which a static host serves the file at `relative`:
 * `/about.html` or `/about` for about.html; `/blog/`, `/blog` or `/blog/index.html` for
 * blog/index.html.
 */
function namesFile(url: string, base: string, relative: string): boolean {
  const { origin, pathname, search } = new URL(url);
  const root = new URL(base);
  if (origin !== root.origin || search !== '' || !pathname.startsWith(root.pathname)) return false;
  let path: string;
  try {
    path = decodeURIComponent(pathname.slice(root.pathname.length));
  } catch {
    return false;
  }
  const folder = path === '' || path.endsWith('/') ? path : `${path}/`;
  return [path, `${path}.html`, `${path}.htm`, `${folder}index.html`, `${folder}index.htm`].includes(relative);
}
