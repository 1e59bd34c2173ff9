/**
 * A local file's text, chunk by chunk: read into one reused buffer and decoded as a URL list's
 * (text-decoding.ts: UTF-8, or UTF-16 with its byte order mark; a character split between two
 * reads comes whole; bytes that are not UTF-8 throw NotUtf8Error).
 *
 * Why not fs.createReadStream: it allocates a fresh buffer for every chunk and hands each read
 * to the thread pool. On a 111 MB URL list that cost 0.4 CPU s (bench/generate.bench.ts --part
 * cli), four times the reading and decoding itself. A read of 64 KiB from the page cache takes
 * microseconds, so it is done synchronously; every few chunks the event loop gets a turn, so that
 * an interruption (Ctrl-C) or a timer is not held up by a long file.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ListTextDecoder } from './text-decoding.js';

/** 64 KiB: decoded text of this size stays in V8's young generation (larger chunks cost far more). */
const CHUNK_BYTES = 64 * 1024;
/** The event loop gets a turn after this many chunks (1 MiB). */
const CHUNKS_PER_TURN = 16;

export async function* readFileText(path: string): AsyncGenerator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new ListTextDecoder();
    for (let chunks = 1; ; chunks++) {
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      // The text is a copy: the buffer can be read into again.
      const text = decoder.decode(buffer.subarray(0, read));
      if (text !== '') yield text;
      if (chunks % CHUNKS_PER_TURN === 0) await nextTurn();
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}
