/** The validator's public API. */
export { validateSitemap, validateSources, type ValidationSource } from './validate.js';
export type { ValidateOptions, ValidationResult } from './types.js';
export type { FetchedResponse, SitemapFetcher } from './fetch.js';
export { hreflangProblem } from './hreflang.js';
export { SitemapSetValidator, type DocumentChecks, type SetDocument, type SitemapSetOptions } from './sitemap-set.js';
