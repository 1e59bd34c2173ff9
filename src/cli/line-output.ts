/**
 * Lines to a stream (stdout), each encoded as UTF-8 straight into a large Buffer, the Buffers
 * written whole. A string handed to a stream is converted by the stream (a file's stdout calls
 * Buffer.from on it): with lines gathered in one string first, building and converting that string
 * cost a third of a `tree --urls` run; encoding each line where it goes costs a tenth of that.
 * A Buffer, once written, is never written into again (a pipe may still hold it).
 */
export class LineOutput {
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  /** Buffers filled and not yet written. */
  private ready: Buffer[] = [];

  constructor(private readonly stream: NodeJS.WritableStream) {}

  /** True when enough is gathered to be written (call flush()). */
  get full(): boolean {
    return this.ready.length > 0;
  }

  /** Adds `text` and a newline. */
  line(text: string): void {
    // Three bytes of UTF-8 at most for each UTF-16 unit of the text.
    const most = text.length * 3 + 1;
    if (this.used + most > this.buffer.length) {
      if (this.used > 0) this.ready.push(this.buffer.subarray(0, this.used));
      this.buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, most));
      this.used = 0;
    }
    this.used += this.buffer.write(text, this.used);
    this.buffer[this.used++] = 0x0a;
  }

  /** Writes all that is gathered; resolves once the stream can take more. */
  async flush(): Promise<void> {
    if (this.used > 0) {
      this.ready.push(this.buffer.subarray(0, this.used));
      this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      this.used = 0;
    }
    const ready = this.ready;
    this.ready = [];
    let full = false;
    for (const chunk of ready) full = !this.stream.write(chunk) || full;
    if (full) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }
}

/** Bytes gathered before a write. */
const CHUNK_BYTES = 256 * 1024;
