/**
 * The bottom of the HTTP stack: one request (a GET, or a POST with its body) through undici (the client behind Node's fetch), with a
 * connect timeout (the agent's), a first-byte timeout that no trickle of header bytes can stretch,
 * and an idle timeout while the body streams. The body comes back raw, counted on the wire.
 */
import type { Readable } from 'node:stream';
import type { Agent } from 'undici';
import { LinkedSignal } from '../pool/index.js';
import { classifyError, firstByteTimeout } from './errors.js';
import { loadUndici, type Undici } from './undici.js';
import type { Fetch, HttpRequest, HttpResponse, Transfer } from './types.js';

export interface TransportSettings {
  /** The connections, made at the first request (./undici.ts). */
  agent: () => Promise<Agent>;
  /** From sending the request to the last byte of the response headers. */
  firstByteTimeoutMs: number;
  /** Longest silence while the body streams. */
  idleTimeoutMs: number;
}

/** Body bytes buffered before the response pauses the connection. */
const BODY_BUFFER_BYTES = 16 * 1024 * 1024;

export function transport(settings: TransportSettings): Fetch {
  let connections: Promise<{ request: Undici['request']; agent: Agent }> | undefined;
  const connect = async () => {
    const [{ request }, agent] = await Promise.all([loadUndici(), settings.agent()]);
    return { request, agent };
  };
  return async (req) => {
    // undici's own headers timeout is also set, but a timer of ours is the one a server cannot
    // keep alive by sending a header byte now and then; the same timer then keeps the deadline.
    const own = new LinkedSignal(req.signal);
    const signal = own.signal;
    const timer = new RequestTimer(own, req, settings.firstByteTimeoutMs);
    let answer;
    try {
      const { request, agent } = await (connections ??= connect());
      answer = await request(req.url, {
        method: req.method ?? 'GET',
        ...(req.body === undefined ? {} : { body: req.body }),
        dispatcher: agent,
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
      timer.stop();
      throw classifyError(error, req.url, signal);
    }
    timer.headersCame();
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
      body: countedBody(raw, req.url, timer, transfer),
      transfer,
      discard: () => {
        timer.stop();
        dropBody(raw);
      },
    } satisfies HttpResponse;
  };
}

/** The raw body, its bytes counted as they arrive and its failures classified. */
async function* countedBody(
  raw: Readable,
  url: string,
  timer: RequestTimer,
  transfer: Transfer,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of chunksToTheBreak(raw)) {
      transfer.wireBytes += chunk.length;
      yield chunk;
    }
  } catch (error) {
    throw classifyError(error, url, timer.signal);
  } finally {
    timer.stop();
    dropBody(raw);
  }
}

/**
 * The stream's chunks, and then its error, if any. Unlike the stream's own iterator, which stops
 * reading the moment the stream fails, this hands over the chunks still waiting in its buffer
 * first: the bytes that came before a connection broke are the reader's to keep (the entries in
 * them count), however slow it was to take them.
 */
async function* chunksToTheBreak(stream: Readable): AsyncGenerator<Buffer> {
  let failure: { error: unknown } | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const changed = () => {
    wake?.();
    wake = undefined;
  };
  const onError = (error: unknown) => {
    failure ??= { error };
    changed();
  };
  const onEnd = () => {
    ended = true;
    changed();
  };
  stream.on('readable', changed).on('error', onError).on('end', onEnd).on('close', changed);
  try {
    for (;;) {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) {
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (ended || stream.readableEnded) return;
      // Closed without an error or an end: destroyed by its owner (a dropped body).
      if (stream.destroyed) throw stream.errored ?? new Error('the body was dropped before its end');
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off('readable', changed).off('error', onError).off('end', onEnd).off('close', changed);
  }
}

/**
 * The one timer of a request: until the headers come, the first-byte timeout (or the deadline,
 * when it comes first); then the deadline, until the body is read or dropped. It aborts the
 * request's own signal with the error that says which ran out.
 */
class RequestTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly own: LinkedSignal,
    private readonly request: HttpRequest,
    firstByteTimeoutMs: number,
  ) {
    const untilDeadline = this.untilDeadline();
    this.timer =
      untilDeadline <= firstByteTimeoutMs
        ? setTimeout(this.deadlinePassed, untilDeadline)
        : setTimeout(() => own.abort(firstByteTimeout(request.url)), firstByteTimeoutMs);
  }

  get signal(): AbortSignal {
    return this.own.signal;
  }

  headersCame(): void {
    clearTimeout(this.timer);
    const untilDeadline = this.untilDeadline();
    // Unref'd: a body nobody reads (nor drops) must not keep the process alive until the deadline.
    this.timer = untilDeadline === Infinity ? undefined : setTimeout(this.deadlinePassed, untilDeadline).unref();
  }

  /** The request is done with: no timer, no listener on the caller's signal. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.own.release();
  }

  private untilDeadline(): number {
    const deadline = this.request.deadline;
    return deadline === undefined ? Infinity : Math.max(0, deadline.at - Date.now());
  }

  private readonly deadlinePassed = (): void => this.own.abort(this.request.deadline!.error());
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
