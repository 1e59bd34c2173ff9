/**
 * Writes one sitemap document (a urlset or a text sitemap) to any ByteSink — a Node Writable
 * (a file, a gzip stream, an HTTP response) or a Web ReadableStream. Text is gathered into large chunks before it reaches the
 * stream (one write per ~64 KiB, not per entry), and the stream's backpressure is honoured.
 *
 * The byte count is exact for flushed chunks. For the pending chunk an upper bound (3 bytes per
 * UTF-16 unit) is enough almost always; the exact UTF-8 size is measured only when a size limit
 * is near, which keeps the byte count off the hot path.
 */
import type { ByteSink } from './byte-sink.js';

const CHUNK_CHARS = 64 * 1024;

/**
 * A header decided only when the first chunk is written (the root's namespaces, from the entries
 * gathered by then). Until then `longest`, the header it can be at most, is counted against the
 * size limit, so the limit always holds.
 */
export interface DeferredHeader {
  longest: string;
  decide(): string;
}

export class DocumentWriter {
  private pending = '';
  /** Exact UTF-8 size of `pending`; undefined while only the cheap upper bound is kept. */
  private pendingBytes: number | undefined;
  private flushedBytes = 0;
  private waiting = false;
  private readonly footerBytes: number;
  /** The header still to be decided, and the bytes kept for it until then. */
  private deferred: DeferredHeader | undefined;
  private reservedBytes = 0;
  urls = 0;

  constructor(
    private readonly out: ByteSink,
    header: string | DeferredHeader,
    private readonly footer: string,
  ) {
    this.footerBytes = out.byteLength(footer);
    if (typeof header === 'string') this.append(header);
    else {
      this.deferred = header;
      this.reservedBytes = out.byteLength(header.longest);
    }
  }

  /** True when the stream asked the writer to wait: await drain() before appending more. */
  get needsDrain(): boolean {
    return this.waiting;
  }

  /** Size of the document so far, closing tag included (exact; with a header not yet decided, its longest form counted). */
  get bytes(): number {
    return this.flushedBytes + this.reservedBytes + this.exactPendingBytes() + this.footerBytes;
  }

  /** Whether `text` still fits within `maxBytes` once the closing tag is added. */
  fits(text: string, maxBytes: number): boolean {
    const fixed = this.flushedBytes + this.reservedBytes + this.footerBytes;
    if (fixed + (this.pending.length + text.length) * 3 <= maxBytes) return true;
    return fixed + this.exactPendingBytes() + this.out.byteLength(text) <= maxBytes;
  }

  /** Adds serialised text for one entry. */
  appendEntry(text: string): void {
    this.urls++;
    this.append(text);
  }

  private append(text: string): void {
    this.pending += text;
    if (this.pendingBytes !== undefined) this.pendingBytes += this.out.byteLength(text);
    if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  private exactPendingBytes(): number {
    return (this.pendingBytes ??= this.out.byteLength(this.pending));
  }

  private flush(): void {
    if (this.deferred !== undefined) {
      this.pending = this.deferred.decide() + this.pending;
      this.pendingBytes = undefined;
      this.deferred = undefined;
      this.reservedBytes = 0;
    }
    if (this.pending === '') return;
    const chunk = this.out.encode(this.pending);
    this.pending = '';
    this.pendingBytes = undefined;
    this.flushedBytes += chunk.length;
    if (!this.out.write(chunk)) this.waiting = true;
  }

  /** Resolves once the sink can take more (after `needsDrain` said it was full). */
  async drain(): Promise<void> {
    if (!this.waiting) return;
    try {
      await this.out.drain();
    } finally {
      this.waiting = false;
    }
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
