/**
 * The parser's edge on Node (see edge.ts): files through a FileHandle, gzip through zlib, UTF-8
 * through StringDecoder. These are the fastest ways Node has; the parser above them is the same
 * on every runtime.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, type Gunzip } from 'node:zlib';
import { diagnostic } from '../../core/diagnostics.js';
import { ParseError } from '../types.js';
import { GzipError, type ChunkDecoder, type InputEdge } from './edge.js';

export const NODE_INPUT: InputEdge = { readFile, gunzip, utf8Decoder };

/**
 * A file read in large chunks through a FileHandle, the next read issued before the current chunk
 * is handed on, so that reading overlaps parsing (a read stream's 64 KiB reads took longer than
 * parsing what they read).
 */
async function* readFile(path: string, signal: AbortSignal | undefined, name = path): AsyncGenerator<Uint8Array> {
  const cannotRead = (error: unknown) =>
    new ParseError(diagnostic('FETCH-001', `cannot read ${path}: ${(error as Error).message}`, { source: name }));
  signal?.throwIfAborted();
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw cannotRead(error);
  }
  // A read in flight never rejects (its failure is a value), so that none goes unhandled while a chunk is parsed.
  let ahead: Promise<Uint8Array | Error | undefined> | undefined;
  try {
    ahead = readChunk(file);
    for (;;) {
      const chunk = await ahead;
      if (chunk instanceof Error) throw cannotRead(chunk);
      if (chunk === undefined) return;
      signal?.throwIfAborted();
      ahead = readChunk(file);
      yield chunk;
    }
  } finally {
    await ahead;
    await file.close();
  }
}

const FILE_CHUNK = 1024 * 1024;

/** The next chunk of the file, undefined at its end, or the error that stopped the read. */
async function readChunk(file: FileHandle): Promise<Uint8Array | Error | undefined> {
  try {
    const buffer = Buffer.allocUnsafe(FILE_CHUNK);
    const { bytesRead } = await file.read(buffer, 0, FILE_CHUNK, null);
    return bytesRead === 0 ? undefined : buffer.subarray(0, bytesRead);
  } catch (error) {
    return error as Error;
  }
}

const INFLATE_CHUNK = 128 * 1024;

/** Streams `input` through gunzip; only as much is inflated as the consumer reads. */
async function* gunzip(input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  // Large output chunks: fewer trips between zlib (on the thread pool) and the parser, which then overlap.
  const inflater = createGunzip({ chunkSize: INFLATE_CHUNK });
  const iterator = input[Symbol.asyncIterator]();
  let feedError: unknown;
  void (async () => {
    let finished = false;
    try {
      while (!inflater.destroyed) {
        const next = await iterator.next();
        if (next.done) {
          finished = true;
          break;
        }
        if (!inflater.write(next.value)) await drainedOrClosed(inflater);
      }
      if (!inflater.destroyed) inflater.end();
    } catch (error) {
      feedError = error;
      inflater.destroy(error as Error);
    } finally {
      if (!finished) await iterator.return?.();
    }
  })();
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the source's own error, rethrown as it came
    if (feedError !== undefined) throw feedError;
    throw new GzipError((error as Error).message);
  } finally {
    inflater.destroy();
  }
}

function drainedOrClosed(stream: Gunzip): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** UTF-8 through Node's StringDecoder: twice as fast as TextDecoder here; a leading BOM is dropped as TextDecoder would. */
function utf8Decoder(): ChunkDecoder {
  const decoder = new StringDecoder('utf8');
  let first = true;
  return {
    encoding: 'utf-8',
    decode(chunk) {
      let text = decoder.write(chunk);
      if (first && text !== '') {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      return text;
    },
    end: () => decoder.end(),
  };
}
