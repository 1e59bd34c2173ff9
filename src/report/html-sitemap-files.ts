/**
 * The HTML sitemap written to files (Node): the entry page at the path given, its parts and
 * language versions beside it. Each file is written under a temporary name and renamed into
 * place, so a reader never sees half a page; the documents are made before any is written, so a
 * refused run (too many URLs) leaves the files of the last one as they were.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { UrlEntry } from '../core/entry.js';
import { parseSitemap } from '../parse/index.js';
import type { WrittenFile } from '../generate/types.js';
import { htmlSitemap, type HtmlSitemapInput, type HtmlSitemapOptions } from './html-sitemap.js';

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
}

/**
 * Writes the HTML sitemap of `items` to `file` (`public/sitemap.html`), with its parts
 * (`sitemap-1.html`…) and language versions (`sitemap.de.html`) beside it. Files of an earlier,
 * larger site map that this one no longer needs are left in place (nothing links to them).
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
  return {
    files: written.map((document) => document.path),
    urls: made.urls,
    languages: made.languages,
    skipped: made.skipped,
  };
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
