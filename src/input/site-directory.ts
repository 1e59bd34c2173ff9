/**
 * A site's build output → entries: every .html file becomes a URL under the base URL
 * (`index.html` → its directory, with a trailing slash), lastmod from the file's modification
 * time. Pages whose `<meta name="robots">` says noindex (or none) are left out, as are paths
 * matching an --exclude glob and hidden files and folders (names starting with a dot).
 *
 * readSiteDirectory names the file each entry comes from, so that a problem with a page (a
 * duplicate URL, one too long) points at the file to fix, not at the whole directory.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import picomatch from 'picomatch';
import { formatUtcDateTime, joinUrl, type UrlEntry } from '../core/index.js';
import type { ReadEntry } from './types.js';

export interface WalkSiteOptions {
  /** Public URL of the directory's root. */
  baseUrl: string;
  /** Globs of paths to leave out, relative to the directory, `/`-separated (e.g. `drafts/**`, `**\/404.html`). */
  exclude?: readonly string[];
  /** Told of every HTML file left out, and why. */
  onSkip?: (path: string, reason: 'excluded' | 'noindex') => void;
}

const HTML_FILE = /\.html?$/i;

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
  const excluded = options.exclude?.length ? picomatch([...options.exclude], { dot: true }) : () => false;
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  for await (const relative of htmlFiles(dir, '')) {
    if (excluded(relative)) {
      options.onSkip?.(relative, 'excluded');
      continue;
    }
    const path = join(dir, relative);
    if (hasNoindex(await readFile(path, 'utf8'))) {
      options.onSkip?.(relative, 'noindex');
      continue;
    }
    const { mtime } = await stat(path);
    yield {
      entry: { kind: 'url', loc: joinUrl(base, pageUrlPath(relative)), lastmod: formatUtcDateTime(mtime) },
      source: path,
    };
  }
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
 * True when the page's `<meta name="robots">` holds noindex or none (case-insensitive, comma-
 * separated). Only the head matters, so parsing stops at `<body>`.
 */
export function hasNoindex(html: string): boolean {
  const bodyStart = html.search(/<body[\s>]/i);
  const head = bodyStart === -1 ? html : html.slice(0, bodyStart);
  let noindex = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name !== 'meta' || (attributes.name ?? '').trim().toLowerCase() !== 'robots') return;
        const directives = (attributes.content ?? '')
          .toLowerCase()
          .split(',')
          .map((d) => d.trim());
        if (directives.includes('noindex') || directives.includes('none')) noindex = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(head);
  return noindex;
}
