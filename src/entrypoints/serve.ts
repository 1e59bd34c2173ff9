/**
 * `sitemapkit/serve`: sitemaps answered from a route, from a paged source (a database query),
 * never held in memory; the same functions `sitemapkit/web` offers, with a `node:http` bridge.
 * @packageDocumentation
 */
export { sitemapStream, type SitemapStreamOptions, type UrlInput } from '../generate/web-stream.js';
export { serveSitemaps, type PagedSource, type ServeSitemapsOptions } from '../serve/serve-sitemaps.js';
export { sitemapHandler, type SitemapHandler, type SitemapHandlerOptions } from '../serve/node.js';
