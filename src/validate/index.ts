/** The validator's public API on Node: documents read by Node's parser, an index's children from files or URLs. */
import { parseSitemap } from '../parse/index.js';
import { resolveChild } from './children.js';
import * as validator from './validate.js';
import type { DocumentAccess, ValidationSource } from './validate.js';
import type { ValidateOptions, ValidationResult } from './types.js';

export type { ValidationSource, DocumentAccess } from './validate.js';
export type { ValidateOptions, ValidationResult } from './types.js';
export type { FetchedResponse, SitemapFetcher } from '../http/index.js';
export { hreflangProblem } from './hreflang.js';
export { SitemapSetValidator, type DocumentChecks, type SetDocument, type SitemapSetOptions } from './sitemap-set.js';

const NODE_ACCESS: DocumentAccess = { parse: parseSitemap, resolveChild };

/** Validates one document (a sitemap index's children are not read: use validateSources). */
export function validateSitemap(source: ValidationSource, options: ValidateOptions = {}): Promise<ValidationResult> {
  return validator.validateSitemap(NODE_ACCESS, source, options);
}

/** Validates several documents as one set (and, with `recursive`, the children of indexes). */
export function validateSources(
  sources: readonly ValidationSource[],
  options: ValidateOptions = {},
): Promise<ValidationResult[]> {
  return validator.validateSources(NODE_ACCESS, sources, options);
}
