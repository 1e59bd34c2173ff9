/**
 * The HTML sitemap written to files (Node): the entry page at the path given, its parts and
 * language versions beside it. Each file is written under a temporary name and renamed into
 * place, so a reader never sees half a page; the documents are made before any is written, so a
 * refused run (too many URLs) leaves the files of the last one as they were. Parts and language
 * versions of an earlier run that this one no longer has are removed, once the new files are in
 * place, when they are named as this run's would be and carry the mark of the documents this
 * module makes: a file of the site's own is never touched.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { UrlEntry } from '../core/entry.js';
import { escapeRegExp } from '../core/regexp.js';
import type { WrittenFile } from '../generate/types.js';
import {
  HTML_SITEMAP_GENERATOR,
  htmlSitemap,
  type HtmlSitemapInput,
  type HtmlSitemapOptions,
} from '../generate/html-sitemap.js';

/** Options of {@link writeHtmlSitemap}: those of {@link htmlSitemap}, the file name aside (it is the file's). */
export type WriteHtmlSitemapOptions = Omit<HtmlSitemapOptions, 'fileName'>;

/** What {@link writeHtmlSitemap} wrote. */
export interface HtmlSitemapFiles {
  /** Paths of the files written, the entry page first. */
  files: string[];
  /** Distinct URLs listed. */
  urls: number;
  /** The hreflang of each language version (empty when the entries name none). */
  languages: string[];
  /** Entries left out because their loc is no http(s) URL. */
  skipped: number;
  /** Paths of the parts and language versions of an earlier run that this one no longer has, removed. */
  removed: string[];
}

/**
 * Writes the HTML sitemap of `items` to `file` (`public/sitemap.html`), with its parts
 * (`sitemap-1.html`…) and language versions (`sitemap.de.html`) beside it, and removes those of
 * an earlier run that this one no longer has.
 */
export async function writeHtmlSitemap(
  items: AsyncIterable<HtmlSitemapInput> | Iterable<HtmlSitemapInput>,
  file: string,
  options: WriteHtmlSitemapOptions = {},
): Promise<HtmlSitemapFiles> {
  const made = await htmlSitemap(items, { ...options, fileName: basename(file) });
  const folder = dirname(file);
  await mkdir(folder, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const written = made.documents.map((document) => ({
    path: join(folder, document.name),
    temp: join(folder, `.${document.name}.${tag}.tmp`),
    html: document.html,
  }));
  try {
    for (const document of written) await writeFile(document.temp, document.html);
    for (const document of written) await rename(document.temp, document.path);
  } catch (error) {
    await Promise.all(written.map((document) => rm(document.temp, { force: true })));
    throw error;
  }
  const removed = await removeStale(folder, basename(file), new Set(made.documents.map((document) => document.name)));
  return {
    files: written.map((document) => document.path),
    urls: made.urls,
    languages: made.languages,
    skipped: made.skipped,
    removed,
  };
}

/** Files named as a part or language version of `fileName` would be, not in `kept`, made by this module: removed. */
async function removeStale(folder: string, fileName: string, kept: ReadonlySet<string>): Promise<string[]> {
  const dot = fileName.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
  const named = new RegExp(`^${escapeRegExp(stem)}(?:\\.[a-z0-9-]+)?(?:-\\d+)?${escapeRegExp(extension)}$`);
  const removed: string[] = [];
  for (const name of await readdir(folder)) {
    if (kept.has(name) || !named.test(name)) continue;
    const path = join(folder, name);
    if (!(await startsWithMark(path))) continue;
    await rm(path, { force: true });
    removed.push(path);
  }
  return removed;
}

/** Does the file begin as the documents this module makes do (their generator mark in the head)? */
async function startsWithMark(path: string): Promise<boolean> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return false;
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('utf8').includes(HTML_SITEMAP_GENERATOR);
  } catch {
    return false; // a folder, or a file that cannot be read: not ours to remove
  } finally {
    await handle.close();
  }
}

/**
 * The URL entries of sitemaps just written into `outDir` (the `files` of a write summary), with the
 * titles of their pages where `titles` knows them (by URL): what an HTML sitemap of a run lists,
 * exactly what its XML sitemaps list.
 */
export async function* writtenEntries(
  outDir: string,
  files: readonly WrittenFile[],
  titles: PageTitles = new PageTitles(),
): AsyncGenerator<{ entry: UrlEntry; title?: string }> {
  // The parser is loaded here, not with the module: a run that writes no HTML sitemap starts without it.
  const { parseSitemap } = await import('../parse/index.js');
  for (const file of files) {
    for await (const entry of parseSitemap(join(outDir, file.name))) {
      if (entry.kind !== 'url') continue;
      const title = titles.of(entry.loc);
      yield title === undefined ? { entry } : { entry, title };
    }
  }
}

/**
 * The titles of pages, by URL, gathered as entries pass on their way to the writer (a build
 * directory's pages carry theirs), to be matched with the URLs the sitemaps list. URLs are
 * compared in the form the writer gives them (percent-encoded). Past `max` titles, no more are kept.
 */
export class PageTitles {
  private readonly titles = new Map<string, string>();

  constructor(private readonly max = 100_000) {}

  /** Keeps the title of an input item that has one (`{ entry, title }`); anything else is passed over. */
  readonly note = (item: unknown): void => {
    if (typeof item !== 'object' || item === null || !('entry' in item) || !('title' in item)) return;
    const { entry, title } = item as { entry: { loc?: unknown }; title: unknown };
    if (typeof title !== 'string' || typeof entry.loc !== 'string' || this.titles.size >= this.max) return;
    const key = urlKey(entry.loc);
    if (key !== undefined && !this.titles.has(key)) this.titles.set(key, title);
  };

  of(loc: string): string | undefined {
    const key = urlKey(loc);
    return key === undefined ? undefined : this.titles.get(key);
  }
}

function urlKey(loc: string): string | undefined {
  try {
    return new URL(loc).href;
  } catch {
    return undefined;
  }
}

/** An HTML sitemap asked of a run that publishes sitemaps (`--html-sitemap FILE`, `--html-stylesheet URL`). */
export interface HtmlSitemapRequest {
  /** The entry page's path (e.g. `dist/sitemap.html`). */
  file: string;
  /** URL of a stylesheet to link instead of the built-in one. */
  stylesheet?: string;
}

/** What became of a run's HTML sitemap: the files written, or why none was. */
export type HtmlSitemapOutcome = ({ written: true } & HtmlSitemapFiles) | { written: false; error: string };

/**
 * Writes the HTML sitemap of the sitemaps just published in `outDir` (`files`), with the titles
 * the run's inputs carried. A failure is an outcome, not a throw: the sitemaps stay published.
 */
export async function publishHtmlSitemap(
  outDir: string,
  files: readonly WrittenFile[],
  titles: PageTitles,
  request: HtmlSitemapRequest,
): Promise<HtmlSitemapOutcome> {
  try {
    const options = request.stylesheet === undefined ? {} : { stylesheet: request.stylesheet };
    return { written: true, ...(await writeHtmlSitemap(writtenEntries(outDir, files, titles), request.file, options)) };
  } catch (error) {
    return { written: false, error: `the HTML sitemap ${request.file} was not written: ${(error as Error).message}` };
  }
}
