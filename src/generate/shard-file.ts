/**
 * One sitemap file being written: a DocumentWriter over a file stream, through a gzip stream
 * when asked. zlib compresses on libuv's thread pool, so while one chunk is compressed the main
 * thread is already serialising the next; large stream buffers give it room to run ahead.
 *
 * The document's bytes are digested on their way (SHA-256 of the uncompressed document), so the
 * file can be named after its content: see file-names.ts.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, type TransformCallback, type TransformOptions } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, type ZlibOptions } from 'node:zlib';
import { DocumentWriter, type DeferredHeader } from './document-writer.js';
import { syncFile } from './durable.js';
import { nodeSink } from './node-writer.js';

const STREAM_BUFFER = 256 * 1024;

export interface ClosedFile {
  bytes: number;
  gzipBytes?: number;
  /** SHA-256 of the uncompressed document, in hex. */
  digest: string;
}

/** Passes chunks through unchanged, digesting them. */
class DigestingStream extends Transform {
  private readonly hash: Hash = createHash('sha256');

  constructor() {
    super({ highWaterMark: STREAM_BUFFER });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    done(null, chunk);
  }

  /** The digest of everything that passed; call once, after the stream has finished. */
  digest(): string {
    return this.hash.digest('hex');
  }
}

export class ShardFile {
  readonly writer: DocumentWriter;
  private readonly done: Promise<void>;
  private readonly digesting = new DigestingStream();
  private readonly streams: { destroy(): void }[];

  constructor(
    private readonly path: string,
    private readonly gzip: boolean,
    header: string | DeferredHeader,
    footer: string,
  ) {
    const file = createWriteStream(path, { highWaterMark: STREAM_BUFFER });
    if (gzip) {
      // zlib streams take Transform options too, though ZlibOptions does not list them.
      const options: ZlibOptions & TransformOptions = { highWaterMark: STREAM_BUFFER };
      const compressor = createGzip(options);
      this.done = pipeline(this.digesting, compressor, file);
      this.streams = [this.digesting, compressor, file];
    } else {
      this.done = pipeline(this.digesting, file);
      this.streams = [this.digesting, file];
    }
    this.writer = new DocumentWriter(nodeSink(this.digesting), header, footer);
    // Failures surface when close() is awaited; until then they must not count as unhandled.
    this.done.catch(() => undefined);
  }

  /** Abandons the file (the run failed): its streams are closed, nothing more is written. */
  discard(): void {
    for (const stream of this.streams) stream.destroy();
  }

  /** Finishes the document and waits until every byte is on disk. */
  async close(): Promise<ClosedFile> {
    const bytes = await this.writer.end();
    await this.done;
    await syncFile(this.path);
    const digest = this.digesting.digest();
    return this.gzip ? { bytes, gzipBytes: (await stat(this.path)).size, digest } : { bytes, digest };
  }
}
