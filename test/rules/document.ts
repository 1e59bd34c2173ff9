/**
 * Writes an entry as the generator's input takes it (any values, valid or not) into a sitemap
 * document exactly as given: the shared rule cases are read by the parser and the validator from
 * this text, while the generator gets the entry itself. Unlike the generator's serializer, it
 * checks and repairs nothing; it only escapes text.
 */
import { NS, escapeXml } from '../../src/core/index.js';

/** An entry as a generator's input may hold it: every field loosely typed. */
export type RawEntry = Record<string, unknown>;
type Raw = Record<string, unknown>;

export const SITE = 'https://www.example.com';
/** Where the case documents are published: their scope and relative URLs resolve against it. */
export const LOCATION = `${SITE}/sitemap.xml`;

export function urlsetOf(entries: readonly RawEntry[]): string {
  const namespaces = `xmlns="${NS.sitemap}" xmlns:image="${NS.image}" xmlns:video="${NS.video}" xmlns:news="${NS.news}" xmlns:xhtml="${NS.xhtml}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${namespaces}>\n${entries.map(urlOf).join('')}</urlset>\n`;
}

function urlOf(entry: RawEntry): string {
  let xml = element('loc', entry.loc) + element('lastmod', entry.lastmod);
  xml += element('changefreq', entry.changefreq) + element('priority', entry.priority);
  for (const image of list(entry.images)) {
    xml += `<image:image>${element('image:loc', image.loc)}${element('image:caption', image.caption)}`;
    xml += `${element('image:geo_location', image.geoLocation)}${element('image:title', image.title)}`;
    xml += `${element('image:license', image.license)}</image:image>`;
  }
  for (const video of list(entry.videos)) xml += videoOf(video);
  if (isRaw(entry.news)) xml += newsOf(entry.news);
  for (const alternate of list(entry.alternates)) {
    const attributes = [
      ['rel', 'alternate'] as const,
      ['hreflang', alternate.hreflang] as const,
      ['href', alternate.href] as const,
    ]
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => ` ${name}="${escapeXml(textOf(value))}"`)
      .join('');
    xml += `<xhtml:link${attributes}/>`;
  }
  return `<url>${xml}</url>\n`;
}

function videoOf(video: Raw): string {
  let xml = '';
  for (const [field, tag] of [
    ['thumbnailLoc', 'thumbnail_loc'],
    ['title', 'title'],
    ['description', 'description'],
    ['contentLoc', 'content_loc'],
    ['playerLoc', 'player_loc'],
    ['duration', 'duration'],
    ['expirationDate', 'expiration_date'],
    ['rating', 'rating'],
    ['viewCount', 'view_count'],
    ['publicationDate', 'publication_date'],
  ] as const) {
    xml += element(`video:${tag}`, video[field]);
  }
  for (const tag of Array.isArray(video.tags) ? video.tags : []) xml += element('video:tag', tag);
  xml += element('video:family_friendly', video.familyFriendly);
  for (const [field, key] of [
    ['restriction', 'countries'],
    ['platform', 'platforms'],
  ] as const) {
    const value = video[field];
    if (!isRaw(value)) continue;
    const relationship =
      value.relationship === undefined ? '' : ` relationship="${escapeXml(textOf(value.relationship))}"`;
    xml += `<video:${field}${relationship}>${escapeXml(words(value[key]))}</video:${field}>`;
  }
  xml += element('video:requires_subscription', video.requiresSubscription);
  if (isRaw(video.uploader)) {
    const info = video.uploader.info === undefined ? '' : ` info="${escapeXml(textOf(video.uploader.info))}"`;
    xml += `<video:uploader${info}>${escapeXml(textOf(video.uploader.name))}</video:uploader>`;
  }
  xml += element('video:live', video.live);
  return `<video:video>${xml}</video:video>`;
}

function newsOf(news: Raw): string {
  const publication = isRaw(news.publication) ? news.publication : {};
  return (
    `<news:news><news:publication>${element('news:name', publication.name)}` +
    `${element('news:language', publication.language)}</news:publication>` +
    element('news:genres', commaList(news.genres)) +
    element('news:publication_date', news.publicationDate) +
    element('news:title', news.title) +
    element('news:keywords', commaList(news.keywords)) +
    element('news:stock_tickers', commaList(news.stockTickers)) +
    '</news:news>'
  );
}

function element(name: string, value: unknown): string {
  return value === undefined ? '' : `<${name}>${escapeXml(textOf(value))}</${name}>`;
}

/** A value as a document writes it: booleans as yes/no, other scalars as they print, the rest as JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): Raw[] {
  return Array.isArray(value) ? (value as unknown[]).filter(isRaw) : [];
}

function words(value: unknown): string {
  return Array.isArray(value) ? value.map(textOf).join(' ') : value === undefined ? '' : textOf(value);
}

function commaList(value: unknown): string | undefined {
  return Array.isArray(value) ? value.map(textOf).join(', ') : undefined;
}
