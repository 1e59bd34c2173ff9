/**
 * The parser's edge on any runtime with the web platform's APIs (see edge.ts): gzip through
 * DecompressionStream, UTF-8 through TextDecoder; there are no files. Used by `sitemapkit/web`
 * on Deno, Bun, Cloudflare Workers, browsers, and on Node too.
 */
import { gather } from './decompress.js';
import { GzipError, type ChunkDecoder, type InputEdge } from './edge.js';

export const WEB_INPUT: InputEdge = { gunzip, utf8Decoder };

/** Compressed bytes handed to the DecompressionStream at a time (see gunzip). */
const INFLATE_INPUT = 16 * 1024;

/**
 * Streams `input` through a DecompressionStream. The compressed side is pulled a slice at a time:
 * the standard lets a runtime inflate each chunk it is given whole before the consumer reads, so
 * small slices bound what one step can inflate (a gzip bomb's 16 KiB is about 16 MiB). Leaving
 * early cancels the source. (workerd's DecompressionStream reads all its input before it gives
 * any output, whatever the slices: there the bound is the Worker's memory.)
 */
async function* gunzip(input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = input[Symbol.asyncIterator]();
  let feedError: unknown;
  let held: Uint8Array | undefined;
  const compressed = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (held === undefined || held.length === 0) {
          let next: IteratorResult<Uint8Array>;
          try {
            next = await iterator.next();
          } catch (error) {
            feedError = error ?? new Error('the source failed');
            controller.error(feedError);
            return;
          }
          if (next.done) return controller.close();
          held = next.value;
        }
        controller.enqueue(held.subarray(0, INFLATE_INPUT));
        held = held.subarray(INFLATE_INPUT);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  const reader = compressed.pipeThrough(new DecompressionStream('gzip')).getReader();
  const read = (): Promise<ReadableStreamReadResultOf<Uint8Array>> =>
    reader.read().catch((error: unknown) => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the source's own error, rethrown as it came
      if (feedError !== undefined) throw feedError;
      throw new GzipError(error instanceof Error ? error.message : String(error));
    });
  let finished = false;
  try {
    for (;;) {
      // The runtime's output chunks (16 KiB on Node) gathered into larger ones: each chunk costs a
      // trip through every stage of the parser, whatever its size.
      const { bytes, ended, failure } = await gather(read, GATHER_BYTES);
      finished = ended && failure === undefined;
      if (bytes.length > 0) yield bytes;
      if (failure !== undefined) throw failure.error;
      if (finished) return;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

type ReadableStreamReadResultOf<T> = { done: false; value: T } | { done: true; value?: undefined };

/** Inflated bytes handed on at a time. */
const GATHER_BYTES = 128 * 1024;

/** Lead bytes give the length of their sequence: 110xxxxx two bytes, 1110xxxx three, 11110xxx four. */
function sequenceLength(byte: number): number {
  if (byte >= 0xf0) return byte <= 0xf7 ? 4 : 1;
  if (byte >= 0xe0) return 3;
  if (byte >= 0xc0) return 2;
  return 1;
}

/** Where the last whole character of `bytes` ends: a sequence cut at the end is left for the next chunk. */
function wholeCharactersEnd(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let at = length - 1; at >= 0 && at >= length - 4; at--) {
    const byte = bytes[at]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    return at + sequenceLength(byte) > length ? at : length;
  }
  return length;
}

/**
 * UTF-8 through TextDecoder, each chunk decoded whole (about six times faster than its streaming
 * mode on Node, and as fast as StringDecoder): a sequence cut at a chunk's end is carried over to
 * the next, so the text is exactly what one decoding of all the bytes gives. A leading BOM is dropped.
 */
function utf8Decoder(): ChunkDecoder {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let carried: Uint8Array | undefined;
  let first = true;
  return {
    encoding: 'utf-8',
    decode(chunk) {
      let bytes = chunk;
      if (carried !== undefined) {
        bytes = new Uint8Array(carried.length + chunk.length);
        bytes.set(carried);
        bytes.set(chunk, carried.length);
        carried = undefined;
      }
      const end = wholeCharactersEnd(bytes);
      if (end < bytes.length) carried = bytes.slice(end);
      let text = decoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
      if (first && text !== '') {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      return text;
    },
    end() {
      const rest = carried === undefined ? '' : decoder.decode(carried);
      carried = undefined;
      return rest;
    },
  };
}
