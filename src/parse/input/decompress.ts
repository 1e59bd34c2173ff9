/**
 * Byte-level sniffing and decompression: gzip is recognised by its magic bytes (not a file name
 * or a header), inflated as a stream with backpressure (so a gzip bomb inflates only as far as it
 * is read), and gzip inside gzip is unwrapped once. A zip archive is refused (FETCH-005).
 */
import type { Report } from '../diagnostics.js';
import { GzipError } from './edge.js';

export interface ByteCounters {
  bytesIn: number;
  bytesDecoded: number;
  gzip: boolean;
}

/** One read of a stream of chunks, as an async iterator and a web stream's reader both answer. */
type ChunkRead = { done: true; value?: unknown } | { done?: false; value: Uint8Array };

/** What `gather` read: the bytes, and whether the input ended or failed after them. */
export interface Gathered {
  bytes: Uint8Array;
  ended: boolean;
  failure: { error: unknown } | undefined;
}

/**
 * Chunks read until at least `atLeast` bytes came, joined (a lone chunk as it is), or fewer when
 * the input ended or failed first: the bytes before a failure are kept, the failure is told after.
 */
export async function gather(read: () => Promise<ChunkRead>, atLeast: number): Promise<Gathered> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < atLeast) {
      const next = await read();
      if (next.done) return { bytes: joined(chunks, size), ended: true, failure: undefined };
      chunks.push(next.value);
      size += next.value.length;
    }
  } catch (error) {
    return { bytes: joined(chunks, size), ended: true, failure: { error } };
  }
  return { bytes: joined(chunks, size), ended: false, failure: undefined };
}

function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks, size);
}

/**
 * The first `length` bytes (fewer at the end of input), and the whole input again. When the input
 * fails first, the head is what came before, and the whole input throws the error after it.
 */
export async function peek(
  input: AsyncIterable<Uint8Array>,
  length: number,
): Promise<{ head: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = input[Symbol.asyncIterator]();
  const first = await gather(() => iterator.next(), length);
  return { head: first.bytes, all: againWhole(first, iterator) };
}

/**
 * What `peek` read first, then the rest of the input. A function of the module, not a closure
 * made per document: on Node 20 a closure that is an async generator is several times slower to
 * call than one function used again.
 */
async function* againWhole(first: Gathered, iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    if (first.bytes.length > 0) yield first.bytes;
    if (first.failure !== undefined) throw first.failure.error;
    if (first.ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    if (!first.ended) await iterator.return?.();
  }
}

/** `chunks` joined into one array of `size` bytes. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

const isGzip = (head: Uint8Array) => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
const isZip = (head: Uint8Array) =>
  head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

/**
 * The document's bytes: inflated when gzip (twice at most), counted, cut at `maxBytes` with
 * FETCH-006. Compression errors end the bytes with FETCH-005 (what was inflated is kept).
 */
export async function* documentBytes(
  input: AsyncIterable<Uint8Array>,
  counters: ByteCounters,
  maxBytes: number,
  report: Report,
  onStop: (reason: 'limit' | 'refused') => void,
  gunzip: (input: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const counted = countIn(input, counters);
  let { head, all } = await peek(counted, 4);
  if (isZip(head)) {
    report('FETCH-005', 'this is a zip archive; sitemaps may only be compressed with gzip');
    onStop('refused');
    return;
  }
  try {
    if (isGzip(head)) {
      counters.gzip = true;
      ({ head, all } = await peek(gunzip(all), 2));
      if (isGzip(head)) all = gunzip(all);
    }
    for await (const chunk of all) {
      const room = maxBytes - counters.bytesDecoded;
      if (chunk.length > room) {
        if (room > 0) yield chunk.subarray(0, room);
        counters.bytesDecoded += Math.max(room, 0);
        report('FETCH-006', `the document is larger than ${maxBytes} bytes (uncompressed); reading stopped there`);
        onStop('limit');
        return;
      }
      counters.bytesDecoded += chunk.length;
      yield chunk;
    }
  } catch (error) {
    if (!(error instanceof GzipError)) throw error;
    report('FETCH-005', `the gzip data is corrupt or cut off (${error.message}); entries before the damage are kept`);
    onStop('refused');
  }
}

async function* countIn(input: AsyncIterable<Uint8Array>, counters: ByteCounters): AsyncGenerator<Uint8Array> {
  for await (const chunk of input) {
    counters.bytesIn += chunk.length;
    yield chunk;
  }
}
