/**
 * Where a DocumentWriter's bytes go, on any runtime: it encodes the document's text and takes the
 * bytes with backpressure. Node adapts a Writable to it (node-sink.ts: a file, a gzip stream, an
 * HTTP response); the web entry adapts a ReadableStream's controller (web-stream.ts). The writer
 * above it is the same everywhere.
 */
export interface ByteSink {
  /** The UTF-8 bytes of `text` (one chunk of the document, about 64 KiB). */
  encode(text: string): Uint8Array;
  /** The UTF-8 size of `text`, without encoding it. */
  byteLength(text: string): number;
  /** Takes a chunk; false asks the writer to await drain() before it writes more. */
  write(chunk: Uint8Array): boolean;
  /** Resolves once the sink takes more (rejects when it failed meanwhile). */
  drain(): Promise<void>;
  /** No more chunks. */
  end(): void;
}
