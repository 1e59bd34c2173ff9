/**
 * The entry model of DESIGN.md: the one shape that flows from every source, through every
 * transform, to every sink. Field names are Google's tag names in camelCase. Absent fields are
 * left out, never null.
 *
 * A video's and a news block's required fields are optional here: a reader keeps an incomplete
 * block with what it has (and reports VID-001 or NEWS-001), while the writer refuses to write one.
 */

export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] as const;
export type Changefreq = (typeof CHANGEFREQS)[number];

export interface Image {
  loc: string;
  caption?: string;
  title?: string;
  geoLocation?: string;
  license?: string;
}

export type Relationship = 'allow' | 'deny';
export type VideoPlatform = 'web' | 'mobile' | 'tv';

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

export interface News {
  /** Required by Google, with both its fields, as are publicationDate and title (NEWS-001). */
  publication?: { name?: string; language?: string };
  publicationDate?: string;
  title?: string;
  keywords?: string[];
  genres?: string[];
  stockTickers?: string[];
}

export interface Alternate {
  hreflang: string;
  href: string;
}

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

export interface SitemapRef {
  kind: 'sitemap';
  loc: string;
  lastmod?: string;
}

export type Entry = UrlEntry | SitemapRef;

/** An entry as `parse` and `tree` print it when several documents are read. */
export type SourcedEntry = Entry & { source?: string };

export type DocumentKind = 'urlset' | 'sitemapindex' | 'text' | 'rss' | 'atom' | 'html' | 'unknown';

export function isChangefreq(value: string): value is Changefreq {
  return (CHANGEFREQS as readonly string[]).includes(value);
}
