/**
 * The writer on Node streams: a Writable as a ByteSink (Buffer encodes, the stream's 'drain' lets
 * the writer go on), and createSitemapWriter, one document written to any Writable.
 */
import type { Writable } from 'node:stream';
import type { UrlEntry } from '../core/index.js';
import type { ByteSink } from './byte-sink.js';
import { DocumentWriter } from './document-writer.js';
import {
  URLSET_CLOSE,
  extensionBits,
  serializeTextLine,
  serializeUrlEntry,
  urlsetOpen,
  type DocumentHeaderOptions,
} from './serialize.js';
import { EXTENSION_NAMES, type OutputFormat } from './types.js';

/** A Writable as a ByteSink. */
export function nodeSink(out: Writable): ByteSink {
  return {
    encode: (text) => Buffer.from(text, 'utf8'),
    byteLength: (text) => Buffer.byteLength(text),
    write: (chunk) => out.write(chunk),
    drain: () =>
      new Promise((resolve, reject) => {
        const done = (error?: Error): void => {
          out.off('drain', done);
          out.off('error', done);
          if (error) reject(error);
          else resolve();
        };
        out.once('drain', done);
        out.once('error', done);
      }),
    end: () => out.end(),
  };
}

/** What the document declares: extension namespaces, a stylesheet. */
export interface SitemapWriterOptions extends DocumentHeaderOptions {
  /** 'xml' (default) or 'txt'. */
  format?: OutputFormat;
  /** End the stream after the closing tag (default true; false to keep writing to it). */
  endStream?: boolean;
}

/** Writes one sitemap document entry by entry onto a stream (see {@link createSitemapWriter}). */
export interface SitemapWriter {
  /** Appends one entry (already checked with prepareEntry) and returns the UTF-8 bytes it added. */
  write(entry: UrlEntry): number;
  /** True when the stream asked to wait; `await writer.drain()` then. */
  readonly needsDrain: boolean;
  /** Resolves once the stream can take more (after `needsDrain` said it was full). */
  drain(): Promise<void>;
  /** Closes the document; resolves with its total size in bytes. */
  end(): Promise<number>;
  readonly urls: number;
  readonly bytes: number;
}

/**
 * The low-level writer of one document, for any output stream:
 *
 *   const writer = createSitemapWriter(response, { namespaces: ['image'] });
 *   for (const entry of entries) { writer.write(entry); if (writer.needsDrain) await writer.drain(); }
 *   await writer.end();
 *
 * It does not shard: keep within 50,000 URLs and 50 MiB, or use writeSitemaps.
 */
export function createSitemapWriter(out: Writable, options: SitemapWriterOptions = {}): SitemapWriter {
  const sink = nodeSink(out);
  const text = options.format === 'txt';
  const namespaces = options.namespaces ?? EXTENSION_NAMES;
  const declared = extensionBits(namespaces);
  const document = text
    ? new DocumentWriter(sink, '', '')
    : new DocumentWriter(sink, urlsetOpen({ ...options, namespaces }), URLSET_CLOSE);
  return {
    write(entry) {
      const serialised = text ? serializeTextLine(entry) : serializeUrlEntry(entry, declared);
      document.appendEntry(serialised);
      return sink.byteLength(serialised);
    },
    get needsDrain() {
      return document.needsDrain;
    },
    drain: () => document.drain(),
    end: () => document.end({ endStream: options.endStream ?? true }),
    get urls() {
      return document.urls;
    },
    get bytes() {
      return document.bytes;
    },
  };
}
