/**
 * The bottom of the HTTP stack: one request (a GET, or a POST with its body) through undici (the client behind Node's fetch), with a
 * connect timeout (the agent's), a first-byte timeout that no trickle of header bytes can stretch,
 * and an idle timeout while the body streams. The body comes back raw, counted on the wire.
 */
import type { Readable } from 'node:stream';
import { request, type Agent } from 'undici';
import { LinkedSignal } from '../../pool/index.js';
import { classifyError, firstByteTimeout } from './errors.js';
import type { Fetch, HttpResponse, Transfer } from './types.js';

export interface TransportSettings {
  agent: Agent;
  /** From sending the request to the last byte of the response headers. */
  firstByteTimeoutMs: number;
  /** Longest silence while the body streams. */
  idleTimeoutMs: number;
}

/** Body bytes buffered before the response pauses the connection. */
const BODY_BUFFER_BYTES = 16 * 1024 * 1024;

export function transport(settings: TransportSettings): Fetch {
  return async (req) => {
    // undici's own headers timeout is also set, but a timer of ours is the one a server cannot
    // keep alive by sending a header byte now and then.
    const own = new LinkedSignal(req.signal);
    const timer = setTimeout(() => own.abort(firstByteTimeout(req.url)), settings.firstByteTimeoutMs);
    const signal = own.signal;
    let answer;
    try {
      answer = await request(req.url, {
        method: req.method ?? 'GET',
        ...(req.body === undefined ? {} : { body: req.body }),
        dispatcher: settings.agent,
        headers: req.headers,
        headersTimeout: settings.firstByteTimeoutMs,
        bodyTimeout: settings.idleTimeoutMs,
        // undici (6 and 7) crashes the process when a server closes the connection while the
        // body is paused under backpressure (nodejs/undici#5360, fixed only in undici 8, which
        // needs Node 22). Buffering up to this much before pausing keeps ordinary sitemaps and
        // pages from ever pausing; the parser's own limits still bound what is read.
        highWaterMark: BODY_BUFFER_BYTES,
        signal,
      });
    } catch (error) {
      own.release();
      throw classifyError(error, req.url, signal);
    } finally {
      clearTimeout(timer);
    }
    const transfer: Transfer = { wireBytes: 0, bytes: 0, truncated: false };
    const raw = answer.body;
    // A connection that breaks before the reader starts must not crash the process: the error
    // stays on the stream, and reading it throws it.
    raw.on('error', () => {});
    return {
      requestedUrl: req.url,
      url: req.url,
      status: answer.statusCode,
      headers: flattenHeaders(answer.headers),
      redirects: [],
      attempts: 1,
      body: countedBody(raw, req.url, own, transfer),
      transfer,
      discard: () => {
        own.release();
        dropBody(raw);
      },
    } satisfies HttpResponse;
  };
}

/** The raw body, its bytes counted as they arrive and its failures classified. */
async function* countedBody(
  raw: Readable,
  url: string,
  own: LinkedSignal,
  transfer: Transfer,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of raw as AsyncIterable<Buffer>) {
      transfer.wireBytes += chunk.length;
      yield chunk;
    }
  } catch (error) {
    throw classifyError(error, url, own.signal);
  } finally {
    own.release();
    dropBody(raw);
  }
}

/** Lets go of a body without reading it. */
function dropBody(body: Readable): void {
  body.destroy();
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
