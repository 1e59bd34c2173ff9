/** sitemapkit's public API. */
export * from './core/index.js';
export * from './parse/types.js';
