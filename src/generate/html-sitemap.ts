/**
 * The HTML sitemap: a page for people, made from the same entries as the XML sitemaps. Links sit
 * in nested lists under headings that follow the site's path sections (`/blog/2024/post` under
 * "Blog", then "2024"); a link's text is the page's title when one is given, else a readable
 * form of the URL's last segment. Past `pageSize` links the page is split into parts with an
 * index; a site whose entries carry hreflang alternates gets one page (or index) per language,
 * each linking to the others. No script; a small stylesheet inline that `stylesheet` replaces;
 * every text and attribute escaped; landmarks, a skip link and lang attributes for assistive
 * technology.
 *
 * Web APIs only (URL, Intl): it runs wherever `sitemapkit/web` does. The entries are held in
 * memory to be grouped, up to `maxUrls`; site/html-sitemap-files.ts writes the documents.
 */
import type { UrlEntry } from '../core/entry.js';
import { escapeXml as escapeHtml } from '../core/xml.js';

/** An entry with the title of its page, when known (from the page's `<title>`, or given). */
export interface HtmlSitemapItem {
  entry: UrlEntry;
  title?: string | undefined;
}

/** What {@link htmlSitemap} reads: entries, or entries with their page titles. */
export type HtmlSitemapInput = UrlEntry | HtmlSitemapItem;

/** The words of the page around the links, for a site map in another language than English. */
export interface HtmlSitemapLabels {
  /** The page's heading: "Site map". */
  title: string;
  /** The skip link, to the first link of the list. */
  skipLink: string;
  /** The text of the home page's link when it has no title. */
  home: string;
  /** The heading of the pages at the top of the site (the home page, /about, /contact). */
  mainPages: string;
  /** The heading of an index's list of sections. */
  sections: string;
  /** The name of the navigation between the parts of a split site map. */
  parts: string;
  /** The link from a part to the index. */
  index: string;
  /** A part's place: `{n}` and `{total}` are replaced. */
  partOf: string;
  /** After the heading of a section that goes on from the part before. */
  continued: string;
  /** The name of the navigation between language versions. */
  languages: string;
  /** A count of pages: `{n}` is replaced (`1 page` is `onePage`). */
  pageCount: string;
  onePage: string;
  /** Where a section split over several parts goes on: "continued in". */
  continuedIn: string;
}

const ENGLISH: HtmlSitemapLabels = {
  title: 'Site map',
  skipLink: 'Skip to the list of pages',
  home: 'Home',
  mainPages: 'Main pages',
  sections: 'Sections',
  parts: 'Parts of the site map',
  index: 'Index',
  partOf: 'Part {n} of {total}',
  continued: '(continued)',
  languages: 'Languages',
  pageCount: '{n} pages',
  onePage: '1 page',
  continuedIn: 'continued in part',
};

/** Options of {@link htmlSitemap}. */
export interface HtmlSitemapOptions {
  /** The file name of the entry page (`sitemap.html`): parts and languages are named after it (`sitemap-2.html`, `sitemap.de.html`). */
  fileName?: string;
  /** The site's name in the header and titles; default: what most page titles end with (" | Example"), else the host. */
  siteName?: string;
  /** Where the site's name links to; default: the root of the first entry's origin. */
  siteUrl?: string;
  /** The language of the labels (the `lang` of each document); default 'en'. */
  lang?: string;
  /** The words around the links, in `lang`; English by default. */
  labels?: Partial<HtmlSitemapLabels>;
  /** Links per document before it is split into parts under an index; default 500. */
  pageSize?: number;
  /** URL of a stylesheet used instead of the built-in one ({@link HTML_SITEMAP_CSS}, a start for your own). */
  stylesheet?: string;
  /** The most URLs held to group (they stay in memory until the documents are made); default 100,000. */
  maxUrls?: number;
  /** With several languages: the hreflang whose pages take `fileName` itself; default the language with the most pages. */
  defaultLanguage?: string;
}

/** One HTML document of the site map. */
export interface HtmlSitemapDocument {
  /** File name, beside the entry page's. */
  name: string;
  /** 'page' a whole site map, 'index' the index of a split one, 'part' one of its parts. */
  kind: 'page' | 'index' | 'part';
  /** The hreflang of the pages it lists, when the entries say. */
  language?: string;
  /** 1-based number of a part. */
  part?: number;
  /** Links to pages of the site it holds. */
  links: number;
  html: string;
}

/** What {@link htmlSitemap} made. */
export interface HtmlSitemap {
  /** Every document; the first is the entry page (`fileName`). */
  documents: HtmlSitemapDocument[];
  /** Distinct URLs listed. */
  urls: number;
  /** The hreflang of each language version, the entry page's first (empty when the entries name none). */
  languages: string[];
  /** Entries left out because their loc is no http(s) URL. */
  skipped: number;
}

/** The built-in stylesheet, inlined unless `stylesheet` names another: light and dark, print-friendly. */
export const HTML_SITEMAP_CSS = `:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--card:#f6f8fa;--line:#d1d9e0;--link:#0550ae;--focus:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#151b23;--line:#3d444d;--link:#4493f8;--focus:#58a6ff}}
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
.skip{position:absolute;left:1rem;top:-4rem;padding:.5rem 1rem;background:var(--bg);color:var(--link);border:2px solid var(--focus);border-radius:.25rem}
.skip:focus{top:1rem}
header,main,footer,.parts{max-width:75rem;margin:0 auto;padding:0 1.5rem}
header{padding-top:2rem;padding-bottom:1.25rem}
.site{margin:0;color:var(--muted)}
h1{margin:.25rem 0 0;font-size:2.25rem;line-height:1.2}
.part{margin:.25rem 0 0;color:var(--muted)}
main{padding-top:.5rem;padding-bottom:1rem}
main:focus{outline:none}
section{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.5rem 2rem;align-items:start;margin:0 0 1.25rem;padding:1.25rem 1.5rem;background:var(--card);border:1px solid var(--line);border-radius:.5rem}
section>h2,section>ul{grid-column:1/-1}
section>ul{columns:15rem;column-gap:2rem}
section>ul>li{break-inside:avoid}
h2{margin:0;font-size:1.35rem;line-height:1.3}
h3{margin:.5rem 0 .25rem;padding-bottom:.25rem;font-size:1rem;border-bottom:1px solid var(--line)}
ul{margin:0;padding:0;list-style:none}
li{margin:0;padding:.15rem 0}
li ul{margin:.1rem 0 0 .3rem;padding-left:.9rem;border-left:1px solid var(--line)}
a{color:var(--link);text-underline-offset:.15em;overflow-wrap:anywhere}
a:hover{text-decoration-thickness:2px}
a:focus-visible{outline:2px solid var(--focus);outline-offset:2px;border-radius:2px}
h2 a,h3 a{color:inherit}
.folder{color:var(--muted);font-weight:600}
.count{color:var(--muted);font-size:.9em;font-weight:400}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.languages{margin-top:.75rem}
[aria-current]{font-weight:700;color:var(--fg)}
.parts{padding-bottom:1.5rem}
footer{padding-top:1rem;padding-bottom:2rem;color:var(--muted)}
@media print{.skip,.parts,.languages{display:none}section{display:block;border:0;padding:0}}
`;

/** The mark of a document this module made: a later run removes only files that carry it. */
export const HTML_SITEMAP_GENERATOR = '<meta name="generator" content="sitemapkit html-sitemap">';

const DEFAULT_PAGE_SIZE = 500;
const DEFAULT_MAX_URLS = 100_000;

/**
 * Makes the HTML sitemap of `items` (entries, or `{ entry, title }`): the documents and their
 * file names, the entry page first. Duplicate URLs are listed once (the first title wins). Throws
 * a RangeError past `maxUrls` entries: the memory a site map of that size would take is refused
 * rather than spent.
 */
export async function htmlSitemap(
  items: AsyncIterable<HtmlSitemapInput> | Iterable<HtmlSitemapInput>,
  options: HtmlSitemapOptions = {},
): Promise<HtmlSitemap> {
  const maxUrls = options.maxUrls ?? DEFAULT_MAX_URLS;
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE));
  const pages: Listed[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for await (const item of items) {
    const { entry, title } = 'entry' in item ? item : { entry: item, title: undefined };
    const url = webUrl(entry.loc);
    if (url === undefined) {
      skipped++;
      continue;
    }
    if (seen.has(url.href)) continue;
    if (pages.length >= maxUrls)
      throw new RangeError(
        `the HTML sitemap holds at most ${maxUrls} URLs (maxUrls) and there are more: raise the limit, or make it from a part of the site`,
      );
    seen.add(url.href);
    const { href, origin, host, pathname, search } = url;
    pages.push({
      url: { href, origin, host, pathname, search },
      title: cleanText(title),
      language: languageOf(entry, url),
    });
  }
  const titles = siteAffix(pages.map((page) => page.title).filter((title) => title !== undefined));
  linkTexts(pages, titles);
  const labels = { ...ENGLISH, ...options.labels };
  const sets = languageSets(pages, options.defaultLanguage);
  const fileName = options.fileName ?? 'sitemap.html';
  const context: DocumentContext = {
    lang: options.lang ?? 'en',
    formatNumber: numberFormat(options.lang ?? 'en'),
    labels,
    stylesheet: options.stylesheet,
    siteName: options.siteName ?? titles.affix ?? pages[0]?.url.host ?? '',
    siteUrl: options.siteUrl ?? (pages[0] ? `${pages[0].url.origin}/` : undefined),
    versions: sets.map((set) => ({ language: set.language, name: fileNameOf(fileName, set.suffix) })),
  };
  const documents: HtmlSitemapDocument[] = [];
  for (const set of sets) {
    const tree = pathTree(set.pages, set.language, labels, set.language ?? context.lang);
    const rows = rowsOf(tree, labels);
    documents.push(...documentsOf(rows, pageSize, { ...context, set, fileName }));
  }
  return {
    documents,
    urls: pages.length,
    languages: sets.flatMap((set) => (set.language === undefined ? [] : [set.language])),
    skipped,
  };
}

/**
 * A page to list: its URL (the parts the layout reads, as strings: a URL object costs several
 * times more memory), its title, the language its own hreflang alternate gives it.
 */
interface Listed {
  url: Pick<URL, 'href' | 'origin' | 'host' | 'pathname' | 'search'>;
  title: string | undefined;
  language: string | undefined;
}

function webUrl(loc: string): URL | undefined {
  try {
    const url = new URL(loc);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** White space collapsed; empty is no title. */
function cleanText(text: string | undefined): string | undefined {
  const clean = text?.replace(/\s+/g, ' ').trim();
  return clean ? clean : undefined;
}

/** The hreflang of the alternate that names the entry itself (x-default is no language). */
function languageOf(entry: UrlEntry, url: URL): string | undefined {
  for (const alternate of entry.alternates ?? []) {
    if (alternate.hreflang.toLowerCase() === 'x-default') continue;
    if (webUrl(alternate.href)?.href === url.href) return alternate.hreflang;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Titles: "About us | Example" → "About us", when most titles end (or begin) with " | Example".

const SEPARATOR = /\s+[|\u2013\u2014\u00b7\u2022:-]\s+/;

interface SiteAffix {
  /** The site's name most titles carry, when they do. */
  affix: string | undefined;
  strip: (title: string) => string;
}

function siteAffix(titles: string[]): SiteAffix {
  const counts = { end: new Map<string, number>(), start: new Map<string, number>() };
  for (const title of titles) {
    const parts = title.split(SEPARATOR);
    if (parts.length < 2) continue;
    bump(counts.end, parts.at(-1)!);
    bump(counts.start, parts[0]!);
  }
  const needed = Math.max(2, Math.ceil(titles.length / 2));
  const end = mostCommon(counts.end, needed);
  const start = end === undefined ? mostCommon(counts.start, needed) : undefined;
  if (end !== undefined) return { affix: end, strip: (title) => stripped(title, end, 'end') };
  if (start !== undefined) return { affix: start, strip: (title) => stripped(title, start, 'start') };
  return { affix: undefined, strip: (title) => title };
}

/**
 * Titles as link texts: without the site's name, and none where it says nothing of the page — the
 * site's name alone, or a title three pages or more share ("Untitled") — so the URL speaks instead.
 */
function linkTexts(pages: Listed[], titles: SiteAffix): void {
  const counts = new Map<string, number>();
  for (const page of pages) {
    if (page.title === undefined) continue;
    page.title = titles.strip(page.title);
    bump(counts, page.title);
  }
  for (const page of pages) {
    if (page.title !== undefined && (page.title === titles.affix || counts.get(page.title)! >= SHARED_TITLE))
      page.title = undefined;
  }
}

/** A title this many pages carry names none of them. */
const SHARED_TITLE = 3;

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function mostCommon(counts: Map<string, number>, needed: number): string | undefined {
  let best: [string, number] | undefined;
  for (const pair of counts) if (pair[1] >= needed && (best === undefined || pair[1] > best[1])) best = pair;
  return best?.[0];
}

function stripped(title: string, affix: string, where: 'start' | 'end'): string {
  const parts = title.split(SEPARATOR);
  if (parts.length < 2) return title;
  const separators = title.match(new RegExp(SEPARATOR.source, 'g')) ?? [];
  if (where === 'end' && parts.at(-1) === affix)
    return title.slice(0, title.length - affix.length - separators.at(-1)!.length);
  if (where === 'start' && parts[0] === affix) return title.slice(affix.length + separators[0]!.length);
  return title;
}

// ---------------------------------------------------------------------------------------------
// Languages: one set of documents per hreflang; pages that name none join the entry page's set.

interface LanguageSet {
  language: string | undefined;
  /** What the set's file names carry after the entry page's stem: '' or '.de'. */
  suffix: string;
  pages: Listed[];
}

function languageSets(pages: Listed[], preferred: string | undefined): LanguageSet[] {
  const byLanguage = new Map<string, { language: string; pages: Listed[] }>();
  const unknown: Listed[] = [];
  for (const page of pages) {
    if (page.language === undefined) {
      unknown.push(page);
      continue;
    }
    const key = page.language.toLowerCase();
    let set = byLanguage.get(key);
    if (set === undefined) byLanguage.set(key, (set = { language: page.language, pages: [] }));
    set.pages.push(page);
  }
  const sets = [...byLanguage.values()];
  if (sets.length === 0) return [{ language: undefined, suffix: '', pages: unknown }];
  let first = sets.find((set) => set.language.toLowerCase() === preferred?.toLowerCase());
  for (const set of sets) if (first === undefined || set.pages.length > first.pages.length) first = set;
  const rest = sets.filter((set) => set !== first);
  return [
    { language: first!.language, suffix: '', pages: [...first!.pages, ...unknown] },
    ...rest.map((set) => ({ language: set.language, suffix: `.${slug(set.language)}`, pages: set.pages })),
  ];
}

function fileNameOf(fileName: string, suffix: string, part?: number): string {
  const dot = fileName.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
  return `${stem}${suffix}${part === undefined ? '' : `-${part}`}${extension}`;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'x'
  );
}

// ---------------------------------------------------------------------------------------------
// The tree of path sections.

interface PathNode {
  /** The readable name of the segment, for a section without a page of its own. */
  name: string;
  /** Pages at this path (usually one; more when URLs differ only in form, /a and /a/). */
  links: Link[];
  children: Map<string, PathNode>;
}

interface Link {
  href: string;
  text: string;
}

/** The tree of a language version (`language`, when the entries say) of the site; `lang` sorts it. */
function pathTree(pages: Listed[], language: string | undefined, labels: HtmlSitemapLabels, lang: string): PathNode {
  const origins = new Set(pages.map((page) => page.url.origin));
  const root: PathNode = { name: labels.home, links: [], children: new Map() };
  for (const page of pages) {
    const segments = page.url.pathname.split('/').filter((segment) => segment !== '');
    // /de/… is the root of the German version: its pages are sections of their own (a page that
    // names no language is taken to be in the version it is listed in).
    const own = page.language ?? language;
    if (own !== undefined && isLanguageFolder(segments[0], own)) segments.shift();
    if (page.url.search !== '') segments.push(`${segments.pop() ?? ''}${page.url.search}`);
    let node = root;
    if (origins.size > 1) node = child(node, page.url.origin, () => page.url.host);
    for (const segment of segments) node = child(node, segment, () => readableSegment(segment));
    node.links.push({ href: page.url.href, text: page.title ?? (segments.length === 0 ? labels.home : node.name) });
  }
  sortTree(root, collatorFor(lang));
  return root;
}

/** Is `segment` the folder of `language` (en for en-GB, en-gb, en_GB)? */
function isLanguageFolder(segment: string | undefined, language: string): boolean {
  if (segment === undefined) return false;
  const folder = segment.toLowerCase().replace(/_/g, '-');
  const tag = language.toLowerCase();
  return folder === tag || folder === tag.split('-')[0];
}

function numberFormat(lang: string): (count: number) => string {
  try {
    const format = new Intl.NumberFormat(lang);
    return (count) => format.format(count);
  } catch {
    return String;
  }
}

/** Sorted as people of the language sort (numbers by value); a tag the runtime does not know sorts as its default does. */
function collatorFor(lang: string): Intl.Collator {
  try {
    return new Intl.Collator(lang, { numeric: true, sensitivity: 'base' });
  } catch {
    return new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  }
}

function child(node: PathNode, key: string, name: () => string): PathNode {
  let next = node.children.get(key);
  if (next === undefined) node.children.set(key, (next = { name: name(), links: [], children: new Map() }));
  return next;
}

/** "getting-started.html" → "Getting started"; "2024" → "2024"; a query stays as it is. */
export function readableSegment(segment: string): string {
  const query = segment.indexOf('?');
  const path = query < 0 ? segment : segment.slice(0, query);
  let text = path;
  try {
    text = decodeURIComponent(path);
  } catch {
    // a stray % stays as it is
  }
  text = text
    .replace(/\.(html?|php|aspx?|jsp|cgi)$/i, '')
    .replace(/[-_+\s]+/g, ' ')
    .trim();
  const readable = text === '' ? path : text.charAt(0).toLocaleUpperCase() + text.slice(1);
  return query < 0 ? readable : `${readable} ${segment.slice(query)}`.trim();
}

function textOf(node: PathNode): string {
  return node.links[0]?.text ?? node.name;
}

function sortTree(node: PathNode, collator: Intl.Collator): void {
  const sorted = [...node.children.entries()].sort(([, a], [, b]) => collator.compare(textOf(a), textOf(b)));
  node.children = new Map(sorted);
  for (const next of node.children.values()) sortTree(next, collator);
}

// ---------------------------------------------------------------------------------------------
// Rows: the tree laid out as headings (sections and their subsections) and list items.

interface Heading {
  kind: 'heading';
  level: 2 | 3;
  id: string;
  text: string;
  href?: string | undefined;
  /** Links in the section it heads. */
  links: number;
  /** The heading of a section going on from the part before. */
  continued?: boolean;
}

interface Item {
  kind: 'item';
  /** 0 for an item right under its heading. */
  depth: number;
  text: string;
  /** Absent for a folder without a page of its own. */
  href?: string | undefined;
}

type Row = Heading | Item;

function rowsOf(root: PathNode, labels: HtmlSitemapLabels): Row[] {
  const ids = new Set<string>();
  const idOf = (text: string): string => {
    const base = `s-${slug(text)}`;
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    return id;
  };
  const rows: Row[] = [];
  const sections = [...root.children.values()].filter((node) => node.children.size > 0);
  const top = [...root.children.values()].filter((node) => node.children.size === 0);
  const mainLinks = [...root.links, ...top.flatMap((node) => node.links)];
  if (mainLinks.length > 0) {
    rows.push({
      kind: 'heading',
      level: 2,
      id: idOf(labels.mainPages),
      text: labels.mainPages,
      links: mainLinks.length,
    });
    for (const link of mainLinks) rows.push({ kind: 'item', depth: 0, ...link });
  }
  for (const section of sections) {
    const [own, ...others] = section.links;
    rows.push({
      kind: 'heading',
      level: 2,
      id: idOf(textOf(section)),
      text: textOf(section),
      href: own?.href,
      links: countLinks(section),
    });
    for (const link of others) rows.push({ kind: 'item', depth: 0, ...link });
    // Pages first, then the subsections, each under its own heading.
    for (const node of section.children.values()) if (node.children.size === 0) itemRows(node, 0, rows);
    for (const node of section.children.values()) {
      if (node.children.size === 0) continue;
      const [first, ...more] = node.links;
      rows.push({
        kind: 'heading',
        level: 3,
        id: idOf(`${textOf(section)} ${textOf(node)}`),
        text: textOf(node),
        href: first?.href,
        links: countLinks(node),
      });
      for (const link of more) rows.push({ kind: 'item', depth: 0, ...link });
      for (const next of node.children.values()) itemRows(next, 0, rows);
    }
  }
  return rows;
}

function itemRows(node: PathNode, depth: number, rows: Row[]): void {
  if (node.links.length === 0) rows.push({ kind: 'item', depth, text: node.name });
  for (const link of node.links) rows.push({ kind: 'item', depth, ...link });
  for (const next of node.children.values()) itemRows(next, depth + 1, rows);
}

function countLinks(node: PathNode): number {
  let count = node.links.length;
  for (const next of node.children.values()) count += countLinks(next);
  return count;
}

// ---------------------------------------------------------------------------------------------
// Documents: rows cut into parts of at most pageSize links, and the index of the parts.

interface DocumentContext {
  lang: string;
  labels: HtmlSitemapLabels;
  stylesheet: string | undefined;
  siteName: string;
  siteUrl: string | undefined;
  /** A count as people of `lang` write it (1,234). */
  formatNumber: (count: number) => string;
  /** The entry page of each language version. */
  versions: { language: string | undefined; name: string }[];
}

interface SetContext extends DocumentContext {
  set: LanguageSet;
  fileName: string;
}

/** Where a section begins, and the parts it goes on in. */
interface SectionPlace {
  id: string;
  text: string;
  links: number;
  parts: number[];
}

function documentsOf(rows: Row[], pageSize: number, context: SetContext): HtmlSitemapDocument[] {
  const { set, fileName } = context;
  const links = rows.filter((row) => row.href !== undefined).length;
  const language = set.language === undefined ? {} : { language: set.language };
  const entryName = fileNameOf(fileName, set.suffix);
  if (links <= pageSize) {
    const html = renderDocument(context, {
      name: entryName,
      heading: undefined,
      body: renderRows(rows, context.labels),
      links,
    });
    return [{ name: entryName, kind: 'page', ...language, links, html }];
  }
  const { parts, sections } = cutIntoParts(rows, pageSize);
  const names = parts.map((_, index) => fileNameOf(fileName, set.suffix, index + 1));
  const pager = { index: entryName, parts: names };
  const documents: HtmlSitemapDocument[] = [
    {
      name: entryName,
      kind: 'index',
      ...language,
      links: 0,
      html: renderDocument(context, {
        name: entryName,
        heading: undefined,
        body: renderIndex(sections, names, context),
        links,
        pager,
      }),
    },
  ];
  parts.forEach((part, index) => {
    const partLinks = part.filter((row) => row.href !== undefined).length;
    const heading = fill(context.labels.partOf, { n: String(index + 1), total: String(parts.length) });
    documents.push({
      name: names[index]!,
      kind: 'part',
      ...language,
      part: index + 1,
      links: partLinks,
      html: renderDocument(context, {
        name: names[index]!,
        heading,
        body: renderRows(part, context.labels),
        links: partLinks,
        pager,
      }),
    });
  });
  return documents;
}

/**
 * Rows cut into parts of at most `pageSize` links. A section that does not fit in what is left
 * of a part at least half full begins the next one; a section cut in two goes on under its
 * heading marked "continued", with the folders above its first item, so each part reads alone.
 */
function cutIntoParts(rows: Row[], pageSize: number): { parts: Row[][]; sections: SectionPlace[] } {
  const parts: Row[][] = [[]];
  const sections: SectionPlace[] = [];
  let count = 0;
  let h2: Heading | undefined;
  let h3: Heading | undefined;
  let folders: Item[] = [];
  const newPart = (row: Row): void => {
    const part: Row[] = [];
    parts.push(part);
    count = 0;
    if (row.kind === 'heading' && row.level === 2) return;
    sections.at(-1)?.parts.push(parts.length);
    if (h2) part.push(continued(h2));
    if (row.kind === 'heading') return;
    if (h3) part.push(continued(h3));
    for (const folder of folders.slice(0, row.depth))
      part.push({ kind: 'item', depth: folder.depth, text: folder.text });
  };
  for (const row of rows) {
    if (row.kind === 'heading' && row.level === 2) {
      if (count > 0 && count + row.links > pageSize && count >= pageSize / 2) newPart(row);
      sections.push({ id: row.id, text: row.text, links: row.links, parts: [parts.length] });
    } else if (count >= pageSize) newPart(row);
    if (row.kind === 'heading') {
      if (row.level === 2) h2 = row;
      h3 = row.level === 3 ? row : undefined;
      folders = [];
    } else folders = [...folders.slice(0, row.depth), row];
    if (row.href !== undefined) count++;
    parts.at(-1)!.push(row);
  }
  return { parts, sections };
}

/** A section's heading again at the top of the next part: no link (the first one has it), marked "continued". */
function continued(heading: Heading): Heading {
  return { ...heading, id: `${heading.id}-continued`, href: undefined, links: 0, continued: true };
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function countText(count: number, context: DocumentContext): string {
  if (count === 1) return context.labels.onePage;
  return fill(context.labels.pageCount, { n: context.formatNumber(count) });
}

// ---------------------------------------------------------------------------------------------
// HTML.

function renderRows(rows: Row[], labels: HtmlSitemapLabels): string {
  const out: string[] = [];
  let depth = -1;
  let inSection = false;
  let inGroup = false;
  const closeLists = (to: number): void => {
    for (; depth > to; depth--) out.push('</li>\n</ul>\n');
  };
  for (const row of rows) {
    if (row.kind === 'heading') {
      closeLists(-1);
      if (inGroup) out.push('</div>\n');
      inGroup = false;
      const mark = row.continued ? ` <span class="count">${escapeHtml(labels.continued)}</span>` : '';
      if (row.level === 2) {
        if (inSection) out.push('</section>\n');
        out.push(`<section aria-labelledby="${row.id}">\n<h2 id="${row.id}">${linkOrText(row)}${mark}</h2>\n`);
        inSection = true;
      } else {
        out.push(`<div class="group">\n<h3 id="${row.id}">${linkOrText(row)}${mark}</h3>\n`);
        inGroup = true;
      }
      continue;
    }
    // An item is never more than one level deeper than the one before (a part opens with the folders above its first item).
    if (row.depth > depth) for (; depth < row.depth; depth++) out.push('<ul>\n<li>');
    else {
      closeLists(row.depth);
      out.push('</li>\n<li>');
    }
    out.push(row.href === undefined ? `<span class="folder">${escapeHtml(row.text)}</span>` : linkOrText(row));
  }
  closeLists(-1);
  if (inGroup) out.push('</div>\n');
  if (inSection) out.push('</section>\n');
  return out.join('');
}

function linkOrText(row: { text: string; href?: string | undefined }): string {
  return row.href === undefined
    ? escapeHtml(row.text)
    : `<a href="${escapeHtml(row.href)}">${escapeHtml(row.text)}</a>`;
}

function renderIndex(sections: SectionPlace[], names: string[], context: SetContext): string {
  const { labels } = context;
  const items = sections.map((section) => {
    const [first, ...more] = section.parts;
    const link = `<a href="${escapeHtml(`${names[first! - 1]}#${section.id}`)}">${escapeHtml(section.text)}</a>`;
    const count = `<span class="count">${escapeHtml(countText(section.links, context))}</span>`;
    const goesOn =
      more.length === 0
        ? ''
        : ` <span class="count">· ${escapeHtml(labels.continuedIn)} ${more
            .map((part) => `<a href="${escapeHtml(names[part - 1]!)}">${part}</a>`)
            .join(', ')}</span>`;
    return `<li>${link} ${count}${goesOn}</li>`;
  });
  const id = 's-sections';
  return `<section aria-labelledby="${id}">\n<h2 id="${id}">${escapeHtml(labels.sections)}</h2>\n<ul>\n${items.join('\n')}\n</ul>\n</section>`;
}

interface DocumentParts {
  name: string;
  /** The line under the heading: a part's place. */
  heading: string | undefined;
  body: string;
  links: number;
  pager?: { index: string; parts: string[] };
}

function renderDocument(context: SetContext, document: DocumentParts): string {
  const { labels, set } = context;
  const languageName =
    set.language === undefined || context.versions.length < 2 ? undefined : displayName(set.language);
  const title = [labels.title, context.siteName, languageName, document.heading].filter(Boolean).join(' · ');
  const style =
    context.stylesheet === undefined
      ? `<style>\n${HTML_SITEMAP_CSS}</style>`
      : `<link rel="stylesheet" href="${escapeHtml(context.stylesheet)}">`;
  const alternates = context.versions
    .filter((version) => version.language !== undefined && context.versions.length > 1)
    .map(
      (version) =>
        `<link rel="alternate" hreflang="${escapeHtml(version.language!)}" href="${escapeHtml(version.name)}">`,
    );
  const mainLang =
    set.language !== undefined && set.language.toLowerCase() !== context.lang.toLowerCase()
      ? ` lang="${escapeHtml(set.language)}"`
      : '';
  const site =
    context.siteUrl === undefined
      ? escapeHtml(context.siteName)
      : `<a href="${escapeHtml(context.siteUrl)}">${escapeHtml(context.siteName)}</a>`;
  return `<!doctype html>
<html lang="${escapeHtml(context.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${HTML_SITEMAP_GENERATOR}
<title>${escapeHtml(title)}</title>
${[style, ...alternates].join('\n')}
</head>
<body>
<a class="skip" href="#content">${escapeHtml(labels.skipLink)}</a>
<header>
<p class="site">${site}</p>
<h1>${escapeHtml(labels.title)}</h1>
${document.heading === undefined ? '' : `<p class="part">${escapeHtml(document.heading)}</p>\n`}${languageNav(context, set)}</header>
<main id="content" tabindex="-1"${mainLang}>
${document.body}
</main>
${document.pager === undefined ? '' : `${pagerNav(document.pager, document.name, labels)}\n`}<footer>
<p>${escapeHtml(countText(document.links, context))}</p>
</footer>
</body>
</html>
`;
}

function languageNav(context: DocumentContext, set: LanguageSet): string {
  if (context.versions.length < 2) return '';
  const items = context.versions.map((version) => {
    const language = version.language!;
    const current = version.language === set.language ? ' aria-current="page"' : '';
    return `<li><a href="${escapeHtml(version.name)}" hreflang="${escapeHtml(language)}" lang="${escapeHtml(language)}"${current}>${escapeHtml(displayName(language))}</a></li>`;
  });
  return `<nav class="languages" aria-label="${escapeHtml(context.labels.languages)}">\n<ul>\n${items.join('\n')}\n</ul>\n</nav>\n`;
}

function pagerNav(pager: { index: string; parts: string[] }, current: string, labels: HtmlSitemapLabels): string {
  const link = (name: string, text: string): string =>
    `<li><a href="${escapeHtml(name)}"${name === current ? ' aria-current="page"' : ''}>${escapeHtml(text)}</a></li>`;
  const items = [link(pager.index, labels.index), ...pager.parts.map((name, index) => link(name, String(index + 1)))];
  return `<nav class="parts" aria-label="${escapeHtml(labels.parts)}">\n<ul>\n${items.join('\n')}\n</ul>\n</nav>`;
}

/** A language's name in itself ("Deutsch" for de), where the runtime knows it; else its code. */
function displayName(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language);
    if (name !== undefined && name !== '') return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    // not a language tag the runtime knows
  }
  return language;
}
