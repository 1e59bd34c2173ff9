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

export class DocumentWriter {
  private pending = '';
  /** Exact UTF-8 size of `pending`; undefined while only the cheap upper bound is kept. */
  private pendingBytes: number | undefined;
  private flushedBytes = 0;
  private waiting = false;
  private readonly footerBytes: number;
  urls = 0;

  constructor(
    private readonly out: ByteSink,
    header: string,
    private readonly footer: string,
  ) {
    this.footerBytes = out.byteLength(footer);
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
    return this.flushedBytes + this.exactPendingBytes() + this.out.byteLength(text) + this.footerBytes <= maxBytes;
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
