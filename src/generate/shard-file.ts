/**
 * One sitemap file being written: a DocumentWriter over a file stream, through a gzip stream
 * when asked. zlib compresses on libuv's thread pool, so while one chunk is compressed the main
 * thread is already serialising the next; large stream buffers give it room to run ahead.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { finished, pipeline } from 'node:stream/promises';
import type { TransformOptions } from 'node:stream';
import { createGzip, type ZlibOptions } from 'node:zlib';
import { DocumentWriter } from './document-writer.js';

const STREAM_BUFFER = 256 * 1024;

export interface ClosedFile {
  bytes: number;
  gzipBytes?: number;
}

export class ShardFile {
  readonly writer: DocumentWriter;
  private readonly done: Promise<void>;
  private readonly streams: { destroy(): void }[];

  constructor(
    private readonly path: string,
    private readonly gzip: boolean,
    header: string,
    footer: string,
  ) {
    const file = createWriteStream(path, { highWaterMark: STREAM_BUFFER });
    if (gzip) {
      // zlib streams take Transform options too, though ZlibOptions does not list them.
      const options: ZlibOptions & TransformOptions = { highWaterMark: STREAM_BUFFER };
      const compressor = createGzip(options);
      this.done = pipeline(compressor, file);
      this.writer = new DocumentWriter(compressor, header, footer);
      this.streams = [compressor, file];
    } else {
      this.done = finished(file);
      this.writer = new DocumentWriter(file, header, footer);
      this.streams = [file];
    }
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
    return this.gzip ? { bytes, gzipBytes: (await stat(this.path)).size } : { bytes };
  }
}
