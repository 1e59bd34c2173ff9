/**
 * Every kind of SitemapSource as one async iterable of byte chunks. Ending the iteration early
 * (a `break` downstream) closes the file or cancels the stream; nothing is read ahead.
 */
import { createReadStream } from 'node:fs';
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
async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += SLICE) yield bytes.subarray(offset, offset + SLICE);
}

async function* readFile(path: string, signal: AbortSignal | undefined, name = path): AsyncGenerator<Uint8Array> {
  const stream = createReadStream(path, { highWaterMark: SLICE, signal });
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ParseError(diagnostic('FETCH-001', `cannot read ${path}: ${(error as Error).message}`, { source: name }));
  } finally {
    stream.destroy();
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
