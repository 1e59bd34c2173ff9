/**
 * `--html-sitemap FILE` (and `--html-stylesheet URL`) of commands that write sitemaps: the HTML
 * sitemap for people, made after the XML sitemaps are published, from exactly the URLs they list,
 * with the page titles the inputs carried (build-directory pages carry theirs): the library run
(site/generate-from-directory.ts) makes it; this reads the flags and prints the outcome.
 */
import { resolve } from 'node:path';
import type { HtmlSitemapOutcome, HtmlSitemapRequest } from '../site/html-sitemap-files.js';
import { defineFlags, type FlagValues } from './flags.js';
import { UsageError } from './usage-error.js';

export const HTML_SITEMAP = 'HTML sitemap (a page for people)';

export const HTML_SITEMAP_FLAGS = defineFlags({
  'html-sitemap': {
    type: 'string',
    value: 'FILE',
    group: HTML_SITEMAP,
    help: "also write FILE (e.g. dist/sitemap.html): the URLs of the sitemaps in nested lists under headings that follow the site's sections, each link's text the page's title (else its URL's last segment); past 500 links FILE is an index of parts (sitemap-1.html…); with hreflang alternates, one version per language beside it (sitemap.de.html)",
  },
  'html-stylesheet': {
    type: 'string',
    value: 'URL',
    group: HTML_SITEMAP,
    help: 'link this stylesheet instead of the small built-in one',
  },
});

/** The HTML sitemap the flags ask for, or undefined when they ask for none. */
export function readHtmlSitemapRequest(flags: FlagValues<typeof HTML_SITEMAP_FLAGS>): HtmlSitemapRequest | undefined {
  const { htmlSitemap: file, htmlStylesheet: stylesheet } = flags;
  if (file === undefined) {
    if (stylesheet !== undefined)
      throw new UsageError('--html-stylesheet applies to --html-sitemap FILE, which is not given');
    return undefined;
  }
  if (file === '' || file.endsWith('/'))
    throw new UsageError(`--html-sitemap takes a file name (e.g. dist/sitemap.html), not "${file}"`);
  return { file: resolve(file), ...(stylesheet === undefined ? {} : { stylesheet }) };
}

/** The line of the text summary (on stdout), or the failure (on stderr). */
export function formatHtmlSitemapOutcome(outcome: HtmlSitemapOutcome, command: string): string {
  if (!outcome.written) return `sitemapkit ${command}: ${outcome.error}\n`;
  const files = outcome.files.length === 1 ? '' : `, ${outcome.files.length} files`;
  const languages =
    outcome.languages.length < 2 ? '' : `, ${outcome.languages.length} languages (${outcome.languages.join(', ')})`;
  return `HTML sitemap: ${outcome.files[0]} (${outcome.urls} URLs${files}${languages})\n`;
}
