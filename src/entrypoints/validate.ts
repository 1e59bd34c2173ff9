/**
 * `sitemapkit/validate`: sitemaps checked against every rule of the protocol and of the search
 * engines, with line and column; URL sources are fetched with sitemapkit's HTTP client.
 * @packageDocumentation
 */
import { HttpClient } from '../http/client.js';
import { robotsSitemaps } from '../discover/robots.js';
import * as validator from '../validate/index.js';
import type { ValidateOptions, ValidationResult, ValidationSource } from '../validate/index.js';

export type { ValidateOptions, ValidationResult, ValidationSource };
export type { FetchedResponse, SitemapFetcher } from '../validate/index.js';

/**
 * Validates one document. A URL source is fetched with a new {@link HttpClient} (closed when done)
 * unless `options.http` is given; an index's children are not read (see {@link validateSources}).
 * @example
 * ```ts
 * const result = await validateSitemap('public/sitemap.xml', { location: 'https://example.com/sitemap.xml' });
 * if (!result.valid) for (const d of result.diagnostics) console.log(d.line, d.code, d.message);
 * ```
 */
export function validateSitemap(source: ValidationSource, options: ValidateOptions = {}): Promise<ValidationResult> {
  return withHttp(options, (withClient) => validator.validateSitemap(source, withClient));
}

/**
 * Validates several documents as one set (duplicates and hreflang are checked across them), and
 * with `recursive` the children of their indexes; one result per document. URL sources are fetched
 * as in {@link validateSitemap}, and each origin's robots.txt is read once for the
 * cross-submission proof.
 */
export function validateSources(
  sources: readonly ValidationSource[],
  options: ValidateOptions = {},
): Promise<ValidationResult[]> {
  return withHttp(options, (withClient) => validator.validateSources(sources, withClient));
}

/**
 * Runs the validator with the caller's HTTP layer, or with an HttpClient made and closed for the
 * run (which also reads robots.txt, once per origin, for the cross-submission proof).
 */
async function withHttp<T>(options: ValidateOptions, run: (options: ValidateOptions) => Promise<T>): Promise<T> {
  if (options.http) return run(options);
  const http = new HttpClient();
  try {
    return await run({ robotsSitemaps: robotsSitemaps(http), ...options, http });
  } finally {
    await http.close();
  }
}
