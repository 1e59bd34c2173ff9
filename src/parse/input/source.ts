/**
 * Every kind of SitemapSource as one async iterable of byte chunks. Ending the iteration early
 * (a `break` downstream) closes the file or cancels the stream; nothing is read ahead.
 */
import { diagnostic } from '../../core/diagnostics.js';
import { ParseError, type SitemapSource } from '../types.js';
import type { InputEdge } from './edge.js';

const SLICE = 64 * 1024;

export function openSource(
  source: SitemapSource,
  edge: InputEdge,
  signal?: AbortSignal,
  name?: string,
): AsyncIterable<Uint8Array> {
  if (typeof source === 'string') return readFile(edge, source, signal, name);
  if (source instanceof Uint8Array) return slices(source);
  if (isReadableStream(source)) return readWebStream(source);
  if (Symbol.asyncIterator in source) return source;
  if ('text' in source) return slices(new TextEncoder().encode(source.text));
  return readFile(edge, source.path, signal, name);
}

/** A file, where the runtime has files; elsewhere the read fails as a missing file would. */
function readFile(edge: InputEdge, path: string, signal?: AbortSignal, name?: string): AsyncIterable<Uint8Array> {
  if (edge.readFile) return edge.readFile(path, signal, name);
  throw new ParseError(
    diagnostic(
      'FETCH-001',
      `cannot read ${path}: this runtime has no files; pass the document's bytes, text or stream`,
      {
        source: name ?? path,
      },
    ),
  );
}

function isReadableStream(source: object): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream).getReader === 'function';
}

/** Bytes already in memory, handed on in slices so that limits apply as for any stream. */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that the text is a stream like any other source
async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += SLICE) yield bytes.subarray(offset, offset + SLICE);
}

/** A Web ReadableStream read chunk by chunk; leaving early cancels it. */
export async function* readWebStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
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
