/** XML namespaces of the protocol and its extensions (exact URIs: `http:`, no trailing slash). */
export const NS = {
  sitemap: 'http://www.sitemaps.org/schemas/sitemap/0.9',
  image: 'http://www.google.com/schemas/sitemap-image/1.1',
  video: 'http://www.google.com/schemas/sitemap-video/1.1',
  news: 'http://www.google.com/schemas/sitemap-news/0.9',
  xhtml: 'http://www.w3.org/1999/xhtml',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
} as const;

/** Google's retired root namespaces, still met on old sites. */
export const LEGACY_SITEMAP_NS = [
  'http://www.google.com/schemas/sitemap/0.84',
  'http://www.google.com/schemas/sitemap/0.9',
  'http://www.google.com/schemas/sitemap/1.0',
] as const;
