/**
 * Every kind of SitemapSource as one async iterable of byte chunks. Ending the iteration early
 * (a `break` downstream) closes the file or cancels the stream; nothing is read ahead.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { diagnostic } from '../../core/diagnostics.js';
import { ParseError, type SitemapSource } from '../types.js';

const SLICE = 64 * 1024;

export function openSource(source: SitemapSource, signal?: AbortSignal, name?: string): AsyncIterable<Uint8Array> {
  if (typeof source === 'string') return readFile(source, signal, name);
  if (source instanceof Uint8Array) return slices(source);
  if (isReadableStream(source)) return readWebStream(source);
  if (Symbol.asyncIterator in source) return source;
  if ('text' in source) return slices(Buffer.from(source.text, 'utf8'));
  return readFile(source.path, signal, name);
}

function isReadableStream(source: object): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream).getReader === 'function';
}

/** Bytes already in memory, handed on in slices so that limits apply as for any stream. */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that the text is a stream like any other source
async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += SLICE) yield bytes.subarray(offset, offset + SLICE);
}

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

async function* readWebStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
