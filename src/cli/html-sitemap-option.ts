/**
 * `--html-sitemap FILE` (and `--html-stylesheet URL`) of commands that write sitemaps: the HTML
 * sitemap for people, made after the XML sitemaps are published, from exactly the URLs they list,
 * with the page titles the inputs carried (build-directory pages carry theirs).
 */
import { resolve } from 'node:path';
import type { WriteSummary } from '../generate/types.js';
import { PageTitles, writeHtmlSitemap, writtenEntries, type HtmlSitemapFiles } from '../report/html-sitemap-files.js';
import { UsageError, stringFlag, type CommandSpec, type ParsedArgs } from './command.js';

export const HTML_SITEMAP_OPTIONS: CommandSpec['options'] = {
  'html-sitemap': { type: 'string' },
  'html-stylesheet': { type: 'string' },
};

export const HTML_SITEMAP_OPTIONS_HELP = `HTML sitemap (a page for people):
  --html-sitemap FILE    also write FILE (e.g. dist/sitemap.html): the URLs of the sitemaps in
                         nested lists under headings that follow the site's sections, each
                         link's text the page's title (else its URL's last segment); past 500
                         links FILE is an index of parts (sitemap-1.html…); with hreflang
                         alternates, one version per language beside it (sitemap.de.html)
  --html-stylesheet URL  link this stylesheet instead of the small built-in one`;

/** What the run prints of the HTML sitemap: the files written, or why none was. */
export type HtmlSitemapOutcome = ({ written: true } & HtmlSitemapFiles) | { written: false; error: string };

/** The HTML sitemap a run was asked for: titles noted as the inputs pass, the files written after publication. */
export class HtmlSitemapRun {
  private readonly titles = new PageTitles();

  private constructor(
    private readonly file: string,
    private readonly stylesheet: string | undefined,
  ) {}

  /** The run's HTML sitemap, or undefined when the flags do not ask for one. */
  static fromArgs(args: ParsedArgs): HtmlSitemapRun | undefined {
    const file = stringFlag(args, 'html-sitemap');
    const stylesheet = stringFlag(args, 'html-stylesheet');
    if (file === undefined) {
      if (stylesheet !== undefined)
        throw new UsageError('--html-stylesheet applies to --html-sitemap FILE, which is not given');
      return undefined;
    }
    if (file === '' || file.endsWith('/'))
      throw new UsageError(`--html-sitemap takes a file name (e.g. dist/sitemap.html), not "${file}"`);
    return new HtmlSitemapRun(resolve(file), stylesheet);
  }

  /** Notes the title of one item read (`{ entry, title }`), for its link text: for a library run's per-item hook. */
  get noteTitle(): (item: unknown) => void {
    return this.titles.note;
  }

  /** The inputs, passed on unchanged (one by one or in batches), their titles noted. */
  async *tap<T>(items: AsyncIterable<T | T[]>): AsyncGenerator<T | T[]> {
    for await (const item of items) {
      if (Array.isArray(item)) item.forEach(this.titles.note);
      else this.titles.note(item);
      yield item;
    }
  }

  /** Writes the HTML sitemap of the sitemaps just published in `outDir`. */
  async write(outDir: string, summary: Pick<WriteSummary, 'files'>): Promise<HtmlSitemapOutcome> {
    try {
      const options = this.stylesheet === undefined ? {} : { stylesheet: this.stylesheet };
      const files = await writeHtmlSitemap(writtenEntries(outDir, summary.files, this.titles), this.file, options);
      return { written: true, ...files };
    } catch (error) {
      return { written: false, error: `the HTML sitemap ${this.file} was not written: ${(error as Error).message}` };
    }
  }
}

/** The line of the text summary (on stdout), or the failure (on stderr). */
export function formatHtmlSitemapOutcome(outcome: HtmlSitemapOutcome, command: string): string {
  if (!outcome.written) return `sitemapkit ${command}: ${outcome.error}\n`;
  const files = outcome.files.length === 1 ? '' : `, ${outcome.files.length} files`;
  const languages =
    outcome.languages.length < 2 ? '' : `, ${outcome.languages.length} languages (${outcome.languages.join(', ')})`;
  return `HTML sitemap: ${outcome.files[0]} (${outcome.urls} URLs${files}${languages})\n`;
}
