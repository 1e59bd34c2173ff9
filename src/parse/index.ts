/**
 * parseSitemap on Node: the parser (parser.ts) with Node's edge (files, zlib, StringDecoder).
 * `sitemapkit/web` binds the same parser to the web's edge.
 */
import { NODE_INPUT } from './input/node.js';
import { parserOn } from './parser.js';
import type { ParseOptions, ParsedSitemap, SitemapSource } from './types.js';

export * from './types.js';
export { rfc822ToW3c } from './formats/rfc822.js';
export { DEFAULT_PARSE_LIMITS, entryBatches, locatedEntryBatches } from './parser.js';

/**
 * Reads a sitemap lazily: nothing is read until the result is iterated (once, as entries or
 * located()). A string is a file path; `{ text }` is a document in a string.
 */
export function parseSitemap(source: SitemapSource, options: ParseOptions = {}): ParsedSitemap {
  return parseOnNode(source, options);
}

const parseOnNode = parserOn(NODE_INPUT);
