/**
 * A site's build output → entries, as a search engine would see the site served from it: every
 * .html file is a page under the base URL (`index.html` → its folder URL), in the URL form the
 * host serves (`cleanUrls`, `trailingSlash`). A page is left out, with its reason, when:
 * - its path matches an --exclude glob (relative to the directory; a leading "/" anchors it there
 *   too, as in `crawl --exclude`);
 * - it is the site's error page: a conventional name (`404.html`, `404/index.html`,
 *   `not-found.html`, `_404.html`, `500.html`…), the one the host config names (`_redirects` 404
 *   rule, `.htaccess` ErrorDocument), `notFound`, or a page whose title and first heading say
 *   "not found" (warned);
 * - it only sends the browser elsewhere: a meta refresh of at most a few seconds, or a body that
 *   is only a script setting `location` (html/client-redirect.ts), or a redirect of the host's
 *   rule files (`_redirects`, vercel.json);
 * - its head says noindex (`<meta name="robots">`, or one addressed to Googlebot or Bingbot, read
 *   as the crawler reads them: src/html/), or the host serves it with `X-Robots-Tag: noindex`
 *   (`_headers`, vercel.json);
 * - the folder's robots.txt disallows it (unless `keepDisallowed`, which keeps it with a warning);
 * - its canonical names another page. A canonical that names the page itself in another form
 *   (`/about` for about.html, `/blog` for blog/index.html) is the URL it is listed under.
 *
 * lastmod is honest, never the build time: the page's own date (`article:modified_time`, JSON-LD
 * `dateModified`, or a microdata one in its body), else the git commit time of the file, else its
 * modification time unless that is the build's stamp (core/build-stamp.ts); otherwise none, and
 * the run says once why. With a ledger (`contentDigests`) an undated page is dated by when its
 * content last changed.
 *
 * Each page's head is parsed (a bounded prefix of the body for stubs and titles; the whole body
 * only when its bytes name a `dateModified` the head does not give), one file open at a time.
 * readSiteDirectory names the file each entry comes from, so that a problem with a page (a
 * duplicate URL, one too long) points at the file to fix, not at the whole directory.
 */
import { saysNotFound } from '../html/not-found-words.js';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { formatUtcDateTime, joinUrl, pageLastmod, type UrlEntry } from '../core/index.js';
import { MAX_STUB_REFRESH_SECONDS, mayNavigate } from '../html/client-redirect.js';
import { loadReferenceDecoder, ReferenceDecoderNotLoaded, scanPageHead } from '../html/head-scanner.js';
import { readPageHead, type PageHead } from '../html/page-head.js';
import { findBuildStamp } from '../core/build-stamp.js';
import type { CommitTimes } from './commit-times.js';
import { HostRules } from './host-rules.js';
import {
  FIRST_READ_BYTES,
  WHOLE_READ_BYTES,
  chunksOf,
  fileChunks,
  fileHolds,
  listPageFiles,
  readPageBytes,
  type PageFile,
} from './page-files.js';
import type { ReadEntry } from './types.js';

/** What becomes of the trailing slash of a folder page's URL (`blog/index.html`): `/blog/`, `/blog`, or as the links write it. */
export type TrailingSlash = 'always' | 'never' | 'keep';

/** Why a page of a build directory is not listed. */
export type LeftOutPageReason = 'excluded' | 'error-page' | 'redirect' | 'noindex' | 'disallowed' | 'canonicalised';

/** A page of the directory that is not listed, and why. */
export interface LeftOutPage {
  /** The file, as readSiteDirectory names its entries' sources. */
  path: string;
  reason: LeftOutPageReason;
  /** What decided it: the --exclude glob, `redirect → TARGET`, the robots.txt line, the canonical URL… */
  detail: string;
}

/** Something the walk says once about the whole directory (why lastmod is left out, a robots.txt). */
export interface DirectoryNote {
  level: 'warning' | 'note';
  message: string;
}

/**
 * How a build directory is read: its base URL, globs to leave out, the URL forms, and what to
 * compute for each page.
 */
export interface WalkSiteOptions {
  /** Public URL of the directory's root. */
  baseUrl: string;
  /** Globs of paths to leave out, relative to the directory, `/`-separated (e.g. `drafts/**`, `/drafts/**`, `**\/*.amp.html`). */
  exclude?: readonly string[];
  /** The site's 404 page, relative to the directory, when no convention or host config names it. */
  notFound?: string | undefined;
  /** Keep the pages the folder's robots.txt disallows (each is warned of). */
  keepDisallowed?: boolean | undefined;
  /** Drop `.html` from page URLs; default: vercel.json's `cleanUrls`, else false. */
  cleanUrls?: boolean | undefined;
  /** Trailing slash of folder URLs (and of clean URLs with `always`); default: vercel.json's `trailingSlash`, else `keep`. */
  trailingSlash?: TrailingSlash | undefined;
  /** Told of every HTML file left out, and why. */
  onLeftOut?: (page: LeftOutPage) => void;
  /** Told once the walk is over of the exclude globs that matched no file (a typo, or a path that moved). */
  onUnusedExclude?: (patterns: string[]) => void;
  /** Told of what the walk says once: why lastmod is left out, robots.txt facts, pages taken for 404 pages. */
  onNote?: (note: DirectoryNote) => void;
  /** Give each entry the digest of its page's content (`contentDigest`); a ledger dates the page by it. */
  contentDigests?: boolean;
  /** Date each page by its last commit (or its sources' with `--git-dir`), when git has one for it. */
  commitTimes?: Pick<CommitTimes, 'timeOf'>;
  /**
   * Give each listed page the images it shows (`<img src>`, `srcset`), read from its whole
   * document; which stand on most pages (a logo) is for the caller to drop (core/common-images.ts).
   */
  images?: boolean | undefined;
}

/** Conventional names of error pages: a status (`404.html`, `500.htm`, `404/index.html`), or "not found". */
const ERROR_PAGE = /(?:^|\/)(?:_?[45]\d\d|not[-_]?found|_not-found)(?:\.html?|\/index\.html?)$/i;
/** How far into a page its first heading is looked for, when the head does not settle its title. */
const BODY_SEARCH_CHARS = 16 * 1024;

/** The entries of the pages, without where they come from. */
export async function* walkSiteDirectory(dir: string, options: WalkSiteOptions): AsyncGenerator<UrlEntry> {
  for await (const { entry } of readSiteDirectory(dir, options)) yield entry;
}

/** A page whose head is to be read: its file, and its URL as the host serves it. */
interface ToRead {
  file: PageFile;
  path: string;
  url: string;
}

/** A page its path leaves out, and why. */
interface LeftOutByPath {
  path: string;
  leftOut: [LeftOutPageReason, string];
}

/**
 * The entries of the pages, each with its file as the source: the directory as given, joined
 * with the page's path below it (`public` → `public/blog/index.html`). A page is a whole file: it
 * has no line.
 */
export async function* readSiteDirectory(dir: string, options: WalkSiteOptions): AsyncGenerator<ReadEntry> {
  const excludes = (options.exclude ?? []).map((pattern) => ({ pattern, used: false, test: excludeMatcher(pattern) }));
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const urlOf = pageUrlMaker(base);
  const leaveOut = (path: string, reason: LeftOutPageReason, detail: string): void =>
    options.onLeftOut?.({ path, reason, detail });
  const note = (level: DirectoryNote['level'], message: string): void => options.onNote?.({ level, message });
  const host = await HostRules.read(dir, base);
  for (const problem of host.problems) note('warning', `${join(dir, 'vercel.json')}: ${problem}`);
  const forms: UrlForms = {
    cleanUrls: options.cleanUrls ?? host.urlForms.cleanUrls ?? false,
    trailingSlash:
      options.trailingSlash ??
      (host.urlForms.trailingSlash === undefined ? 'keep' : host.urlForms.trailingSlash ? 'always' : 'never'),
  };
  const notFound = new Map(host.notFoundPages);
  if (options.notFound !== undefined) notFound.set(options.notFound.replace(/^\.?\/+/, ''), '--not-found');

  // Loaded only for what was asked: each pulls in htmlparser2, whose loading costs a run's startup.
  const { readPageImages } = options.images ? await import('../html/page-images.js') : {};
  const { pageContentDigest } = options.contentDigests ? await import('./content-digest.js') : {};
  const files = listPageFiles(dir);
  const stamp = findBuildStamp(files.map((file) => file.mtimeMs));
  const undated = { count: 0, stamped: 0 };
  let titledNotFound = 0;

  function judgeByPath(file: PageFile): ToRead | LeftOutByPath {
    const { relative } = file;
    const path = join(dir, relative);
    const excluded = excludes.find((exclude) => exclude.test(relative));
    if (excluded) {
      excluded.used = true;
      return { path, leftOut: ['excluded', `matches --exclude ${excluded.pattern}`] };
    }
    const namedNotFound = notFound.get(relative);
    if (namedNotFound !== undefined)
      return { path, leftOut: ['error-page', `the site's 404 page, as ${namedNotFound} names it`] };
    if (ERROR_PAGE.test(relative))
      return {
        path,
        leftOut: ['error-page', 'named after an HTTP error status: served for errors, not a page to index'],
      };
    const url = urlOf(pageUrlPath(relative, forms));
    const urlPath = host.hasPathRules ? safeDecode(new URL(url).pathname) : undefined;
    const hostRedirect = urlPath === undefined ? undefined : host.redirectOf(urlPath);
    if (hostRedirect) return { path, leftOut: ['redirect', `redirect → ${hostRedirect.to} (${hostRedirect.where})`] };
    const headerNoindex = urlPath === undefined ? undefined : host.noindexHeaderOf(urlPath);
    if (headerNoindex !== undefined) return { path, leftOut: ['noindex', `X-Robots-Tag: noindex (${headerNoindex})`] };
    return { file, path, url };
  }

  // What the path alone decides (excluded, an error page, redirected by the host), then the head.
  for (const file of files) {
    const judged = judgeByPath(file);
    if ('leftOut' in judged) {
      leaveOut(judged.path, ...judged.leftOut);
      continue;
    }
    const { path, url } = judged;
    const read = readHead(judged);
    // Most heads are read synchronously (the scanner): awaiting only a promise saves a turn of the loop per page.
    const head = read instanceof Promise ? await read : read;
    const redirect = head.clientRedirect;
    if (
      redirect !== undefined &&
      redirect.href !== url &&
      (redirect.kind === 'meta-refresh'
        ? redirect.delaySeconds <= MAX_STUB_REFRESH_SECONDS
        : head.showsNothing === true)
    ) {
      const how = redirect.kind === 'meta-refresh' ? 'meta refresh' : `${redirect.how} in a script`;
      leaveOut(path, 'redirect', `redirect → ${redirect.href} (${how})`);
      continue;
    }
    // The audit's soft-404 rule: the title and first heading, or the one the page has, say "not found".
    const notFound = saysNotFound(head);
    if (notFound !== undefined) {
      titledNotFound++;
      leaveOut(path, 'error-page', notFound);
      continue;
    }
    if (head.directives.noindex) {
      leaveOut(path, 'noindex', 'noindex in a robots <meta> tag');
      continue;
    }
    let loc = url;
    // One canonical decides; several that disagree say nothing (as the crawler reads them).
    const [canonical, ...others] = head.canonicals;
    if (canonical !== undefined && others.length === 0 && canonical !== url) {
      if (!namesFile(canonical, base, file.relative)) {
        leaveOut(path, 'canonicalised', `canonical is ${canonical}`);
        continue;
      }
      loc = canonical;
    }
    const disallowing = host.disallowingLine(loc);
    if (disallowing !== undefined) {
      if (!options.keepDisallowed) {
        leaveOut(path, 'disallowed', disallowing);
        continue;
      }
      note('warning', `${path}: listed although ${disallowing} (--keep-disallowed)`);
    }
    const entry: UrlEntry = { kind: 'url', loc };
    const ownDate = pageLastmod(head.modified);
    const lastmod =
      ownDate ?? (options.commitTimes === undefined ? undefined : await options.commitTimes.timeOf(file.relative));
    if (lastmod !== undefined) entry.lastmod = lastmod;
    else if (stamp?.covers(file.mtimeMs)) undated.stamped++;
    else entry.lastmod = formatUtcDateTime(new Date(file.mtimeMs));
    if (entry.lastmod === undefined) undated.count++;
    const alternates = withSelf(head, loc);
    if (alternates.length > 0) entry.alternates = alternates;
    const images = readPageImages === undefined ? [] : readPageImages(fileChunks(path), url);
    if (images.length > 0) entry.images = images.map((image) => ({ loc: image }));
    const title = head.title ?? head.heading;
    yield {
      entry,
      source: path,
      // A page that gives its own date is dated by it; the ledger dates the others by their content.
      ...(pageContentDigest !== undefined && ownDate === undefined
        ? { contentDigest: await pageContentDigest(createReadStream(path)) }
        : {}),
      ...(title === undefined ? {} : { title }),
    };
  }
  if (undated.stamped > 0 && stamp !== undefined)
    note(
      'note',
      `lastmod is left out of ${undated.stamped} page${undated.stamped === 1 ? '' : 's'} of ${dir}: ${stamp.files} of ${files.length} files were written by one build (${formatUtcDateTime(stamp.from)} to ${formatUtcDateTime(stamp.to)}), and a build time is not when a page changed. Pages are dated by their own <meta property="article:modified_time">, JSON-LD or microdata dateModified, by git when the folder is committed${options.contentDigests ? '' : ', or by --state DIR (from the next run, when their content changes)'}`,
    );
  if (titledNotFound > 0)
    note(
      'warning',
      `${titledNotFound} page${titledNotFound === 1 ? '' : 's'} of ${dir} left out as "not found" pages by their title and first heading; if one is a real page, change its title (or name the 404 page with --not-found PATH)`,
    );
  const unused = excludes.filter((exclude) => !exclude.used).map((exclude) => exclude.pattern);
  if (unused.length > 0) options.onUnusedExclude?.(unused);
}

/**
 * A page's head, read from its first bytes by the fast head scanner (html/head-scanner.ts). The
 * full parser reads the body too, where the body may matter: a short page that may be a redirect
 * stub by its script (bodyMayRedirect), and a page whose title is missing or says "not found" (up
 * to its first heading).
 */
function readHead(page: { path: string; url: string; file: PageFile }): PageHead | Promise<PageHead> {
  try {
    return readHeadOnce(page);
  } catch (error) {
    // The first head with a character reference in what is read of it: load the decoder, read again.
    if (!(error instanceof ReferenceDecoderNotLoaded)) throw error;
    return loadReferenceDecoder().then(() => readHeadOnce(page));
  }
}

function readHeadOnce({
  path,
  url,
  file,
}: {
  path: string;
  url: string;
  file: PageFile;
}): PageHead | Promise<PageHead> {
  if (file.size > WHOLE_READ_BYTES) return readLargePage(path, url);
  // The bytes stay valid while this page is read: the next page is read once this one's head has come.
  const bytes = readPageBytes(path, file.size);
  const head = headOf(bytes, url);
  return head instanceof Promise ? head.then((read) => withBodyDate(read, bytes, url)) : withBodyDate(head, bytes, url);
}

/** The head of a page from its bytes: the scanner's, or the parser's where the body may matter. */
function headOf(bytes: Buffer, url: string): PageHead | Promise<PageHead> {
  if (bytes.length <= FIRST_READ_BYTES) {
    const head = scanPageHead([bytes], url);
    if (titleSettles(head) && !bodyMayRedirect(head, bytes)) return head;
    return readPageHead([bytes], url, { bodyChars: FIRST_READ_BYTES });
  }
  const head = scanPageHead(chunksOf(bytes), url);
  if (titleSettles(head)) return head;
  return readPageHead(chunksOf(bytes), url, { bodyChars: BODY_SEARCH_CHARS });
}

/** A page too large to read in one piece, read a chunk at a time: its head, and a date in its body. */
async function readLargePage(path: string, url: string): Promise<PageHead> {
  const scanned = scanPageHead(fileChunks(path), url);
  const head = titleSettles(scanned)
    ? scanned
    : await readPageHead(fileChunks(path), url, { bodyChars: BODY_SEARCH_CHARS });
  // A large page is parsed whole for a date in its body only when it names one (rustdoc writes
  // pages of several megabytes).
  if (head.modified !== undefined || !fileHolds(path, BODY_DATE)) return head;
  const { modified } = await readPageHead(fileChunks(path), url, { wholeDocument: true });
  return modified === undefined ? head : { ...head, modified };
}

/** The name of a date given in the body (microdata, or JSON-LD past the head): a page without it gives none. */
const BODY_DATE = Buffer.from('dateModified');
/**
 * Its tail, searched first: searching 40 KB pages for "dateModified" cost 0.3 s of CPU on 20,000
 * pages, a sixth of generate's time on undated ones, and for "Modified" (a rarer first byte than
 * "d") a sixth of that (bench/build-dir.bench.ts).
 */
const BODY_DATE_TAIL = Buffer.from('Modified');

/** True when the bytes name `dateModified`. */
function namesBodyDate(bytes: Buffer): boolean {
  return bytes.includes(BODY_DATE_TAIL) && bytes.includes(BODY_DATE);
}

/**
 * The head, with the date the page gives in its body when its head gives none (read by
 * html/page-head.ts: Docusaurus writes its "Last updated on" as microdata at the end of the
 * page). A page whose bytes do not name `dateModified` is only searched, never parsed.
 */
function withBodyDate(head: PageHead, bytes: Buffer, url: string): PageHead | Promise<PageHead> {
  if (head.modified !== undefined || !namesBodyDate(bytes)) return head;
  return readPageHead(chunksOf(bytes), url, { wholeDocument: true }).then(({ modified }) =>
    modified === undefined ? head : { ...head, modified },
  );
}

/** The word every script redirect names (html/client-redirect.ts): a page without it makes none. */
const LOCATION = Buffer.from('location');

/**
 * True when a script of a short page may make it a redirect stub, which only the full parser can
 * tell (the body must show nothing else): never where the head's meta refresh decided first, nor
 * where no script sets `location` (every rustdoc page has one that only reads it).
 */
function bodyMayRedirect(head: PageHead, bytes: Buffer): boolean {
  if (head.clientRedirect?.kind === 'meta-refresh' || !bytes.includes(LOCATION)) return false;
  return mayNavigate(bytes.toString('latin1'));
}

/** True when the page's title is there and does not say "not found": its first heading is not needed. */
function titleSettles(head: PageHead): boolean {
  return head.title !== undefined && saysNotFound({ title: head.title }) === undefined;
}

/**
 * The page's hreflang alternates, with its own: a page of a cluster must list itself. When its
 * alternates name it under no language, it is added under its `<html lang>`.
 */
function withSelf(head: PageHead, loc: string): { hreflang: string; href: string }[] {
  const alternates = head.alternates;
  if (alternates.length === 0 || alternates.some((alternate) => alternate.href === loc)) return alternates;
  return head.lang === undefined ? alternates : [...alternates, { hreflang: head.lang, href: loc }];
}

function safeDecode(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Page URLs below `base`: the base and the page's URL path (percent-encoded segments, never a dot
 * segment) joined as strings when the URL parser writes the base as it is given (no query, no
 * fragment); a URL object per page cost more than reading its head.
 */
function pageUrlMaker(base: string): (path: string) => string {
  let plain = false;
  try {
    const parsed = new URL(base);
    plain = parsed.href === base && parsed.search === '' && parsed.hash === '';
  } catch {
    // not a URL: joinUrl says so
  }
  return plain ? (path) => base + path : (path) => joinUrl(base, path);
}

/** Matches paths relative to the directory; "/drafts/**" is anchored at its root, as "drafts/**" is. */
function excludeMatcher(pattern: string): (relative: string) => boolean {
  return picomatch(pattern.replace(/^\.?\/+/, ''), { dot: true });
}

/** The URL form the host serves pages under. */
export interface UrlForms {
  cleanUrls: boolean;
  trailingSlash: TrailingSlash;
}

/**
 * A page's URL path below the base: `blog/index.html` → `blog/` (`blog` with trailingSlash
 * `never`); `about.html` → `about.html` (`about` with cleanUrls, `about/` with both cleanUrls and
 * trailingSlash `always`); each segment percent-encoded.
 */
export function pageUrlPath(relative: string, forms: UrlForms = { cleanUrls: false, trailingSlash: 'keep' }): string {
  const segments = relative.split('/');
  const last = segments.length - 1;
  let folder = false;
  if (/^index\.html?$/i.test(segments[last]!)) {
    segments.pop();
    folder = true;
  } else if (forms.cleanUrls) {
    segments[last] = segments[last]!.replace(/\.html?$/i, '');
    folder = forms.trailingSlash === 'always';
  }
  const path = segments.map((segment) => encodeURIComponent(segment)).join('/');
  if (path === '') return '';
  return folder && forms.trailingSlash !== 'never' ? `${path}/` : path;
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
