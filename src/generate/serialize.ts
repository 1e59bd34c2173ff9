/**
 * Entries → XML text. Plain string concatenation, element order as the XSDs require (core
 * elements first, then image, video, news, xhtml:link). Entries are expected to have passed
 * prepareEntry: URLs normalised, dates in the written form, numbers in range. Every text
 * value is still escaped here, so no input can break the document.
 */
import { NS, escapeXml, type Image, type News, type UrlEntry, type Video } from '../core/index.js';
import type { ExtensionName } from './types.js';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export interface DocumentHeaderOptions {
  /** URL of an XSLT or CSS stylesheet for browsers. */
  stylesheet?: string;
  /** Extension namespaces to declare on the root. */
  namespaces?: readonly ExtensionName[];
}

export function stylesheetInstruction(href: string): string {
  const type = /\.css(?:[?#]|$)/i.test(href) ? 'text/css' : 'text/xsl';
  return `<?xml-stylesheet type="${type}" href="${escapeXml(href)}"?>\n`;
}

function prolog(stylesheet: string | undefined): string {
  return stylesheet === undefined ? XML_DECLARATION : XML_DECLARATION + stylesheetInstruction(stylesheet);
}

function namespaceAttribute(name: ExtensionName): string {
  return ` xmlns:${name}="${NS[name]}"`;
}

export function urlsetOpen(options: DocumentHeaderOptions = {}): string {
  const declared = (options.namespaces ?? []).map(namespaceAttribute).join('');
  return `${prolog(options.stylesheet)}<urlset xmlns="${NS.sitemap}"${declared}>\n`;
}

export const URLSET_CLOSE = '</urlset>\n';

export function sitemapIndexOpen(options: Pick<DocumentHeaderOptions, 'stylesheet'> = {}): string {
  return `${prolog(options.stylesheet)}<sitemapindex xmlns="${NS.sitemap}">\n`;
}

export const SITEMAPINDEX_CLOSE = '</sitemapindex>\n';

/** A set of declared extensions as bit flags: the check per entry is one AND. */
export const EXTENSION_BIT: Record<ExtensionName, number> = { image: 1, video: 2, news: 4, xhtml: 8 };

export function extensionBits(names: readonly ExtensionName[]): number {
  return names.reduce((bits, name) => bits | EXTENSION_BIT[name], 0);
}

/** The EXTENSION_BIT flags of the extensions `entry` uses, as serializeUrlEntry writes them. */
export function usedExtensionBits(entry: UrlEntry): number {
  return (
    (entry.images !== undefined && entry.images.length > 0 ? EXTENSION_BIT.image : 0) |
    (entry.videos !== undefined && entry.videos.length > 0 ? EXTENSION_BIT.video : 0) |
    (entry.news !== undefined ? EXTENSION_BIT.news : 0) |
    (entry.alternates !== undefined && entry.alternates.length > 0 ? EXTENSION_BIT.xhtml : 0)
  );
}

/** The extension names of a set of EXTENSION_BIT flags, in the order of the flags. */
export function extensionNames(bits: number): ExtensionName[] {
  return (Object.keys(EXTENSION_BIT) as ExtensionName[]).filter((name) => (bits & EXTENSION_BIT[name]) !== 0);
}

/**
 * One `<url>` element and its newline. `declared` holds the EXTENSION_BIT flags of the
 * namespaces the root declares; an extension used but not declared there is declared on this
 * `<url>` itself, so the output is always namespace-correct.
 */
export function serializeUrlEntry(entry: UrlEntry, declared = 15): string {
  let xml = `<loc>${escapeXml(entry.loc)}</loc>`;
  if (entry.lastmod !== undefined) xml += `<lastmod>${escapeXml(entry.lastmod)}</lastmod>`;
  if (entry.changefreq !== undefined) xml += `<changefreq>${escapeXml(entry.changefreq)}</changefreq>`;
  if (entry.priority !== undefined) xml += `<priority>${formatPriority(entry.priority)}</priority>`;
  let used = 0;
  if (entry.images !== undefined && entry.images.length > 0) {
    used |= EXTENSION_BIT.image;
    for (const image of entry.images) xml += serializeImage(image);
  }
  if (entry.videos !== undefined && entry.videos.length > 0) {
    used |= EXTENSION_BIT.video;
    for (const video of entry.videos) xml += serializeVideo(video);
  }
  if (entry.news !== undefined) {
    used |= EXTENSION_BIT.news;
    xml += serializeNews(entry.news);
  }
  if (entry.alternates !== undefined && entry.alternates.length > 0) {
    used |= EXTENSION_BIT.xhtml;
    for (const alternate of entry.alternates) {
      xml += `<xhtml:link rel="alternate" hreflang="${escapeXml(alternate.hreflang)}" href="${escapeXml(alternate.href)}"/>`;
    }
  }
  const undeclared = used & ~declared;
  return `<url${undeclared === 0 ? '' : localDeclarations(undeclared)}>${xml}</url>\n`;
}

function localDeclarations(bits: number): string {
  let attributes = '';
  for (const name of Object.keys(EXTENSION_BIT) as ExtensionName[]) {
    if (bits & EXTENSION_BIT[name]) attributes += namespaceAttribute(name);
  }
  return attributes;
}

/** The XSD's decimal: 1 → "1.0", 0.85 → "0.85". */
export function formatPriority(priority: number): string {
  return Number.isInteger(priority) ? priority.toFixed(1) : String(priority);
}

function element(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<${name}>${escapeXml(value)}</${name}>`;
}

function yesNo(name: string, value: boolean | undefined): string {
  return value === undefined ? '' : `<${name}>${value ? 'yes' : 'no'}</${name}>`;
}

function serializeImage(image: Image): string {
  return (
    `<image:image><image:loc>${escapeXml(image.loc)}</image:loc>${element('image:caption', image.caption)}` +
    `${element('image:geo_location', image.geoLocation)}${element('image:title', image.title)}` +
    `${element('image:license', image.license)}</image:image>`
  );
}

function serializeVideo(video: Video): string {
  let xml =
    '<video:video>' +
    element('video:thumbnail_loc', video.thumbnailLoc) +
    element('video:title', video.title) +
    element('video:description', video.description) +
    element('video:content_loc', video.contentLoc) +
    element('video:player_loc', video.playerLoc) +
    element('video:duration', video.duration?.toString()) +
    element('video:expiration_date', video.expirationDate) +
    element('video:rating', video.rating?.toString()) +
    element('video:view_count', video.viewCount?.toString()) +
    element('video:publication_date', video.publicationDate);
  for (const tag of video.tags ?? []) xml += element('video:tag', tag);
  xml += yesNo('video:family_friendly', video.familyFriendly);
  if (video.restriction !== undefined) {
    xml += `<video:restriction relationship="${escapeXml(video.restriction.relationship)}">${escapeXml(video.restriction.countries.join(' '))}</video:restriction>`;
  }
  xml += yesNo('video:requires_subscription', video.requiresSubscription);
  if (video.uploader !== undefined) {
    const info = video.uploader.info === undefined ? '' : ` info="${escapeXml(video.uploader.info)}"`;
    xml += `<video:uploader${info}>${escapeXml(video.uploader.name)}</video:uploader>`;
  }
  if (video.platform !== undefined) {
    xml += `<video:platform relationship="${escapeXml(video.platform.relationship)}">${escapeXml(video.platform.platforms.join(' '))}</video:platform>`;
  }
  return `${xml}${yesNo('video:live', video.live)}</video:video>`;
}

function serializeNews(news: News): string {
  return (
    `<news:news><news:publication>${element('news:name', news.publication?.name)}` +
    `${element('news:language', news.publication?.language)}</news:publication>` +
    element('news:genres', news.genres?.join(', ')) +
    element('news:publication_date', news.publicationDate) +
    element('news:title', news.title) +
    element('news:keywords', news.keywords?.join(', ')) +
    element('news:stock_tickers', news.stockTickers?.join(', ')) +
    '</news:news>'
  );
}

/** One `<sitemap>` child of an index. */
export function serializeSitemapRef(ref: { loc: string; lastmod?: string }): string {
  return `<sitemap><loc>${escapeXml(ref.loc)}</loc>${ref.lastmod === undefined ? '' : `<lastmod>${escapeXml(ref.lastmod)}</lastmod>`}</sitemap>\n`;
}

/** A whole sitemap index document (at most 50,000 children: a few megabytes at most). */
export function serializeSitemapIndex(
  refs: Iterable<{ loc: string; lastmod?: string }>,
  options: Pick<DocumentHeaderOptions, 'stylesheet'> = {},
): string {
  let xml = sitemapIndexOpen(options);
  for (const ref of refs) xml += serializeSitemapRef(ref);
  return xml + SITEMAPINDEX_CLOSE;
}

/** One line of a text sitemap. */
export function serializeTextLine(entry: UrlEntry): string {
  return `${entry.loc}\n`;
}
