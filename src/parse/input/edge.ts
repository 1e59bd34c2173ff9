/**
 * What the parser needs of its runtime, and nothing more: a way to inflate gzip, a fast UTF-8
 * decoder, and (where there are files) a way to read one. The parser itself uses only what every
 * runtime has; each entry point hands it its own edge: Node's (node.ts: zlib, StringDecoder,
 * FileHandle) for `sitemapkit`, the web's (web.ts: DecompressionStream, TextDecoder) for
 * `sitemapkit/web`. Both read the same bytes into the same text.
 */

/** Decodes a byte stream chunk by chunk (characters cut between chunks are carried over). */
export interface ChunkDecoder {
  /** The WHATWG name of the encoding ('utf-8', 'utf-16le', …). */
  readonly encoding: string;
  decode(chunk: Uint8Array): string;
  end(): string;
}

export interface InputEdge {
  /**
   * A file's bytes, read as they are consumed; absent where there are no files. Failures throw a
   * ParseError (FETCH-001) naming the file.
   */
  readonly readFile?: (
    path: string,
    signal: AbortSignal | undefined,
    name: string | undefined,
  ) => AsyncIterable<Uint8Array>;
  /**
   * Inflates a gzip stream only as far as it is read (a gzip bomb costs what is read of it). Data
   * that does not inflate throws GzipError; a failure of `input` itself is thrown as it came.
   */
  readonly gunzip: (input: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>;
  /** A UTF-8 decoder that drops a leading byte-order mark and reads invalid bytes as U+FFFD. */
  readonly utf8Decoder: () => ChunkDecoder;
}

/** Gzip data that does not inflate: corrupt, or cut off. */
export class GzipError extends Error {}
