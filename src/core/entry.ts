/**
 * The entry model (docs/architecture.md): the one shape that flows from every source, through every
 * transform, to every sink. Field names are Google's tag names in camelCase. Absent fields are
 * left out, never null.
 *
 * A video's and a news block's required fields are optional here: a reader keeps an incomplete
 * block with what it has (and reports VID-001 or NEWS-001), while the writer refuses to write one.
 */

export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] as const;
/** A `<changefreq>` value. */
export type Changefreq = (typeof CHANGEFREQS)[number];

/** An image of a page (Google's image extension 1.1). */
export interface Image {
  loc: string;
  caption?: string;
  title?: string;
  geoLocation?: string;
  license?: string;
}

/** Whether a video restriction lists what is allowed or what is denied. */
export type Relationship = 'allow' | 'deny';
/** A platform a video may be restricted to. */
export type VideoPlatform = 'web' | 'mobile' | 'tv';

/** A video of a page (Google's video extension 1.1). */
export interface Video {
  /** Required by Google, as are title, description, and contentLoc or playerLoc (VID-001). */
  thumbnailLoc?: string;
  title?: string;
  description?: string;
  contentLoc?: string;
  playerLoc?: string;
  duration?: number;
  expirationDate?: string;
  rating?: number;
  viewCount?: number;
  publicationDate?: string;
  familyFriendly?: boolean;
  restriction?: { relationship: Relationship; countries: string[] };
  platform?: { relationship: Relationship; platforms: VideoPlatform[] };
  requiresSubscription?: boolean;
  uploader?: { name: string; info?: string };
  live?: boolean;
  tags?: string[];
}

/** A news article of a page (Google's news extension 0.9). */
export interface News {
  /** Required by Google, with both its fields, as are publicationDate and title (NEWS-001). */
  publication?: { name?: string; language?: string };
  publicationDate?: string;
  title?: string;
  keywords?: string[];
  genres?: string[];
  stockTickers?: string[];
}

/**
 * An `xhtml:link rel="alternate" hreflang` alternate of a page: the same page in another language
 * or region.
 */
export interface Alternate {
  hreflang: string;
  href: string;
}

/**
 * A page of a sitemap: its URL and what the sitemap says about it. Absent fields are left out,
 * never `undefined` or `null`.
 */
export interface UrlEntry {
  kind: 'url';
  loc: string;
  lastmod?: string;
  changefreq?: Changefreq;
  priority?: number;
  images?: Image[];
  videos?: Video[];
  news?: News;
  alternates?: Alternate[];
}

/** A child sitemap listed by a sitemap index. */
export interface SitemapRef {
  kind: 'sitemap';
  loc: string;
  lastmod?: string;
}

/** What every source yields and every sink takes: a page or a child sitemap. */
export type Entry = UrlEntry | SitemapRef;

/** An entry as `parse` and `tree` print it when several documents are read. */
export type SourcedEntry = Entry & { source?: string };

/**
 * What a document was read as: a urlset, a sitemap index, a text sitemap, a feed, or not a sitemap
 * (`html`, `unknown`).
 */
export type DocumentKind = 'urlset' | 'sitemapindex' | 'text' | 'rss' | 'atom' | 'html' | 'unknown';

/** True when `value` is one of the seven `<changefreq>` values (case-sensitive, as the protocol is). */
export function isChangefreq(value: string): value is Changefreq {
  return (CHANGEFREQS as readonly string[]).includes(value);
}
