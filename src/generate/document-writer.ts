/**
 * Writes one sitemap document (a urlset or a text sitemap) to any Node Writable — a file, a
 * gzip stream, an HTTP response. Text is gathered into large chunks before it reaches the
 * stream (one write per ~64 KiB, not per entry), and the stream's backpressure is honoured.
 *
 * The byte count is exact for flushed chunks. For the pending chunk an upper bound (3 bytes per
 * UTF-16 unit) is enough almost always; the exact UTF-8 size is measured only when a size limit
 * is near, which keeps Buffer.byteLength off the hot path.
 */
import type { Writable } from 'node:stream';
import type { UrlEntry } from '../core/index.js';
import {
  URLSET_CLOSE,
  extensionBits,
  serializeTextLine,
  serializeUrlEntry,
  urlsetOpen,
  type DocumentHeaderOptions,
} from './serialize.js';
import { EXTENSION_NAMES, type OutputFormat } from './types.js';

const CHUNK_CHARS = 64 * 1024;

export class DocumentWriter {
  private pending = '';
  /** Exact UTF-8 size of `pending`; undefined while only the cheap upper bound is kept. */
  private pendingBytes: number | undefined;
  private flushedBytes = 0;
  private waiting = false;
  private readonly footerBytes: number;
  urls = 0;

  constructor(
    private readonly out: Writable,
    header: string,
    private readonly footer: string,
  ) {
    this.footerBytes = Buffer.byteLength(footer);
    this.append(header);
  }

  /** True when the stream asked the writer to wait: await drain() before appending more. */
  get needsDrain(): boolean {
    return this.waiting;
  }

  /** Size of the document so far, closing tag included (exact). */
  get bytes(): number {
    return this.flushedBytes + this.exactPendingBytes() + this.footerBytes;
  }

  /** Whether `text` still fits within `maxBytes` once the closing tag is added. */
  fits(text: string, maxBytes: number): boolean {
    const bound = this.flushedBytes + (this.pending.length + text.length) * 3 + this.footerBytes;
    if (bound <= maxBytes) return true;
    return this.flushedBytes + this.exactPendingBytes() + Buffer.byteLength(text) + this.footerBytes <= maxBytes;
  }

  /** Adds serialised text for one entry. */
  appendEntry(text: string): void {
    this.urls++;
    this.append(text);
  }

  private append(text: string): void {
    this.pending += text;
    if (this.pendingBytes !== undefined) this.pendingBytes += Buffer.byteLength(text);
    if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  private exactPendingBytes(): number {
    return (this.pendingBytes ??= Buffer.byteLength(this.pending));
  }

  private flush(): void {
    if (this.pending === '') return;
    const chunk = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    this.pendingBytes = undefined;
    this.flushedBytes += chunk.length;
    if (!this.out.write(chunk)) this.waiting = true;
  }

  drain(): Promise<void> {
    if (!this.waiting) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (error?: Error): void => {
        this.out.off('drain', done);
        this.out.off('error', done);
        this.waiting = false;
        if (error) reject(error);
        else resolve();
      };
      this.out.once('drain', done);
      this.out.once('error', done);
    });
  }

  /** Writes the closing tag and flushes; ends the stream unless told not to. Returns the document's size. */
  async end({ endStream = true } = {}): Promise<number> {
    this.append(this.footer);
    this.flush();
    const bytes = this.flushedBytes;
    if (endStream) this.out.end();
    else await this.drain();
    return bytes;
  }
}

export interface SitemapWriterOptions extends DocumentHeaderOptions {
  /** 'xml' (default) or 'txt'. */
  format?: OutputFormat;
  /** End the stream after the closing tag (default true; false to keep writing to it). */
  endStream?: boolean;
}

export interface SitemapWriter {
  /** Appends one entry (already checked with prepareEntry) and returns the UTF-8 bytes it added. */
  write(entry: UrlEntry): number;
  /** True when the stream asked to wait; `await writer.drain()` then. */
  readonly needsDrain: boolean;
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
  const text = options.format === 'txt';
  const namespaces = options.namespaces ?? EXTENSION_NAMES;
  const declared = extensionBits(namespaces);
  const document = text
    ? new DocumentWriter(out, '', '')
    : new DocumentWriter(out, urlsetOpen({ ...options, namespaces }), URLSET_CLOSE);
  return {
    write(entry) {
      const serialised = text ? serializeTextLine(entry) : serializeUrlEntry(entry, declared);
      document.appendEntry(serialised);
      return Buffer.byteLength(serialised);
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
