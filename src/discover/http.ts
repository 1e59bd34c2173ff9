/**
 * The one HTTP layer of sitemapkit: every byte read from the network comes through `HttpClient`.
 *
 * Built on undici (the client behind Node's fetch) for its separate connect, first-byte and idle
 * timeouts. On top of it: redirects followed by hand (at most 5, each recorded, loops refused),
 * retries with exponential backoff and jitter on connection errors, 429 and 5xx (honouring
 * Retry-After), `Content-Encoding` decoded transparently, a byte cap that stops reading instead
 * of buffering, and politeness per host (concurrency and an optional delay).
 */
import { pipeline, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, request, type Dispatcher } from 'undici';
import { DEFAULT_USER_AGENT } from '../version.js';
import { HostLimiter } from './host-limiter.js';

export interface HttpOptions {
  /** Sent with every request (default `sitemapkit/<version> (+<project URL>)`). */
  userAgent?: string | undefined;
  /** Time to open the connection (TCP and TLS), default 10 s. */
  connectTimeoutMs?: number | undefined;
  /** Time from sending the request to the response headers, default 30 s. */
  firstByteTimeoutMs?: number | undefined;
  /** Longest silence while the body streams, default 30 s. */
  idleTimeoutMs?: number | undefined;
  /** Redirects followed per request, default 5. */
  maxRedirects?: number | undefined;
  /** Extra attempts after a connection error, 429 or 5xx, default 3. */
  retries?: number | undefined;
  /** First backoff; doubled each retry, with full jitter. Default 1 s. */
  backoffMs?: number | undefined;
  /** Longest backoff, default 30 s. */
  maxBackoffMs?: number | undefined;
  /** A Retry-After longer than this is not waited for: the response is returned as it is. Default 120 s. */
  maxRetryAfterMs?: number | undefined;
  /** Requests in flight to one host (default 4). */
  perHostConcurrency?: number | undefined;
  /** Least time between the starts of two requests to one host (default 0). */
  perHostDelayMs?: number | undefined;
  /** Stops every request of this client. */
  signal?: AbortSignal | undefined;
  /** Jitter source, replaceable for reproducible tests (default Math.random). */
  random?: (() => number) | undefined;
}

export interface RequestOptions {
  /** Decoded body bytes read before stopping (`transfer.truncated` then says so). */
  maxBytes?: number | undefined;
  /** Overrides the client's retries, e.g. 0 for probes where a failure is an answer. */
  retries?: number | undefined;
  /** The Accept header: sitemap formats unless the caller reads something else (the crawler: HTML). */
  accept?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** Body bytes buffered before the response pauses the connection (see requestWithRetries). */
const BODY_BUFFER_BYTES = 16 * 1024 * 1024;

/** What sitemap readers accept: XML first, then text, then anything (feeds, mislabelled files). */
export const SITEMAP_ACCEPT = 'application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

export interface Redirect {
  from: string;
  to: string;
  status: number;
}

export type HttpErrorKind =
  | 'connect'
  | 'connect-timeout'
  | 'first-byte-timeout'
  | 'idle-timeout'
  | 'network'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'bad-redirect'
  | 'content-encoding'
  | 'aborted';

/** A request that produced no usable response, or a body that broke off. */
export class HttpError extends Error {
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    readonly url: string,
    readonly redirects: readonly Redirect[] = [],
    readonly attempts = 1,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** What has come through a response body so far. */
export interface Transfer {
  /** Bytes received on the wire (before Content-Encoding was undone). */
  wireBytes: number;
  /** Bytes handed to the reader. */
  bytes: number;
  /** True when reading stopped at `maxBytes`. */
  truncated: boolean;
  /** Why the body broke off, when it did. */
  error?: HttpError;
}

export interface HttpResponse {
  /** The URL asked for, and the URL that answered after redirects. */
  requestedUrl: string;
  url: string;
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  redirects: Redirect[];
  /** Attempts made for the final hop (1 when it succeeded at once). */
  attempts: number;
  /** The body, Content-Encoding undone; iterate it once, or call discard(). */
  body: AsyncIterable<Uint8Array>;
  readonly transfer: Transfer;
  /** Lets go of the body unread (and of the host slot it holds). */
  discard(): void;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULTS = {
  connectTimeoutMs: 10_000,
  firstByteTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  maxRedirects: 5,
  retries: 3,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 120_000,
  perHostConcurrency: 4,
  perHostDelayMs: 0,
};

export class HttpClient {
  readonly userAgent: string;
  private readonly settings: typeof DEFAULTS;
  private readonly agent: Agent;
  private readonly limiter: HostLimiter;
  private readonly random: () => number;
  private readonly signal: AbortSignal | undefined;

  constructor(options: HttpOptions = {}) {
    this.settings = { ...DEFAULTS, ...definedOnly(options) };
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.random = options.random ?? Math.random;
    this.signal = options.signal;
    this.agent = new Agent({ connect: { timeout: this.settings.connectTimeoutMs } });
    this.limiter = new HostLimiter(this.settings.perHostConcurrency, this.settings.perHostDelayMs);
  }

  /** GETs `url`, following redirects and retrying; throws HttpError when no response came. */
  async get(url: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const signal = combineSignals(this.signal, options.signal);
    const redirects: Redirect[] = [];
    const visited = new Set<string>([url]);
    let current = url;
    for (;;) {
      const hop = await this.requestWithRetries(
        current,
        options.retries ?? this.settings.retries,
        redirects,
        signal,
        options.accept ?? SITEMAP_ACCEPT,
      );
      const location = hop.headers.location;
      if (!REDIRECT_STATUSES.has(hop.status) || location === undefined) {
        return this.toResponse(url, current, hop, redirects, options.maxBytes ?? Infinity);
      }
      dropBody(hop.body);
      hop.release();
      const next = resolveRedirect(location, current);
      if (next === undefined) {
        throw new HttpError(
          'bad-redirect',
          `${current} redirects to "${location}", which is not an http(s) URL`,
          url,
          redirects,
        );
      }
      redirects.push({ from: current, to: next, status: hop.status });
      if (visited.has(next)) {
        throw new HttpError(
          'redirect-loop',
          `redirect loop: ${redirects.map((r) => r.from).join(' → ')} → ${next}`,
          url,
          redirects,
        );
      }
      if (redirects.length > this.settings.maxRedirects) {
        throw new HttpError(
          'too-many-redirects',
          `more than ${this.settings.maxRedirects} redirects, starting at ${url}`,
          url,
          redirects,
        );
      }
      visited.add(next);
      current = next;
    }
  }

  /** Closes the connections; requests still in flight fail (call it when the work is done). */
  async close(): Promise<void> {
    await this.agent.destroy();
  }

  private async requestWithRetries(
    url: string,
    retries: number,
    redirects: Redirect[],
    signal: AbortSignal | undefined,
    accept: string,
  ): Promise<Hop> {
    const host = new URL(url).host;
    for (let attempt = 1; ; attempt++) {
      const release = await this.limiter.acquire(host, signal);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(url, {
          method: 'GET',
          dispatcher: this.agent,
          headers: {
            'user-agent': this.userAgent,
            accept,
            'accept-encoding': 'gzip, deflate, br',
          },
          headersTimeout: this.settings.firstByteTimeoutMs,
          bodyTimeout: this.settings.idleTimeoutMs,
          // undici (6 and 7) crashes the process when a server closes the connection while the
          // body is paused under backpressure (nodejs/undici#5360, fixed only in undici 8, which
          // needs Node 22). Buffering up to this much before pausing keeps ordinary sitemaps and
          // pages from ever pausing; the parser's own limits still bound what is read.
          highWaterMark: BODY_BUFFER_BYTES,
          signal,
        });
      } catch (error) {
        release();
        const failure = classifyError(error, url, redirects, attempt);
        if (failure.kind === 'aborted' || attempt > retries) throw failure;
        await sleep(this.backoff(attempt), undefined, { signal });
        continue;
      }
      const headers = flattenHeaders(response.headers);
      if (attempt <= retries && isRetryableStatus(response.statusCode)) {
        const retryAfter = parseRetryAfter(headers['retry-after']);
        if (retryAfter === undefined || retryAfter <= this.settings.maxRetryAfterMs) {
          dropBody(response.body);
          release();
          await sleep(retryAfter ?? this.backoff(attempt), undefined, { signal });
          continue;
        }
      }
      return { status: response.statusCode, headers, body: response.body, release, attempts: attempt };
    }
  }

  /** Exponential backoff with full jitter: a random wait up to base·2^(attempt-1), capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.settings.maxBackoffMs, this.settings.backoffMs * 2 ** (attempt - 1));
    return Math.round(ceiling * (0.5 + this.random() / 2));
  }

  private toResponse(
    requestedUrl: string,
    url: string,
    hop: Hop,
    redirects: Redirect[],
    maxBytes: number,
  ): HttpResponse {
    const transfer: Transfer = { wireBytes: 0, bytes: 0, truncated: false };
    let started = false;
    const finish = () => {
      dropBody(hop.body);
      hop.release();
    };
    const body = readBody(hop, url, redirects, transfer, maxBytes, finish);
    return {
      requestedUrl,
      url,
      status: hop.status,
      headers: hop.headers,
      redirects,
      attempts: hop.attempts,
      transfer,
      body: {
        [Symbol.asyncIterator]() {
          if (started) throw new Error(`the body of ${url} can be read only once`);
          started = true;
          return body[Symbol.asyncIterator]();
        },
      },
      discard() {
        started = true;
        finish();
      },
    };
  }
}

interface Hop {
  status: number;
  headers: Record<string, string>;
  body: Readable;
  release: () => void;
  attempts: number;
}

/** The body as decoded chunks, counting wire and decoded bytes and stopping at the cap. */
async function* readBody(
  hop: Hop,
  url: string,
  redirects: Redirect[],
  transfer: Transfer,
  maxBytes: number,
  finish: () => void,
): AsyncGenerator<Uint8Array> {
  hop.body.on('data', (chunk: Buffer) => {
    transfer.wireBytes += chunk.length;
  });
  const decoder = decoderFor(hop.headers['content-encoding']);
  const decoded: Readable = decoder ? pipeline(hop.body, decoder, () => {}) : hop.body;
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      const room = maxBytes - transfer.bytes;
      if (chunk.length > room) {
        if (room > 0) {
          transfer.bytes += room;
          yield chunk.subarray(0, room);
        }
        transfer.truncated = true;
        return;
      }
      transfer.bytes += chunk.length;
      yield chunk;
    }
  } catch (error) {
    const failure =
      decoder && isZlibError(error)
        ? new HttpError(
            'content-encoding',
            `${url}: Content-Encoding ${hop.headers['content-encoding']} does not decode: ${(error as Error).message}`,
            url,
            redirects,
          )
        : classifyError(error, url, redirects, hop.attempts);
    transfer.error = failure;
    throw failure;
  } finally {
    decoder?.destroy();
    finish();
  }
}

/** Lets go of a body without reading it; a destroyed undici body reports an abort nobody needs. */
function dropBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function decoderFor(contentEncoding: string | undefined) {
  switch (contentEncoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

function isZlibError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/** Turns whatever undici or the platform threw into an HttpError that says what happened. */
function classifyError(error: unknown, url: string, redirects: readonly Redirect[], attempts: number): HttpError {
  const code = (error as { code?: string })?.code ?? '';
  const name = (error as Error)?.name ?? '';
  const detail = (error as Error)?.message ?? String(error);
  const make = (kind: HttpErrorKind, message: string) => new HttpError(kind, message, url, redirects, attempts);
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR')
    return make('aborted', `request to ${url} was aborted`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return make('connect-timeout', `could not connect to ${url} in time`);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return make('first-byte-timeout', `${url} sent no response in time`);
  if (code === 'UND_ERR_BODY_TIMEOUT') return make('idle-timeout', `${url} stopped sending data mid-body`);
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) {
    return make('connect', `could not connect to ${url}: ${code}`);
  }
  return make('network', `${url}: ${detail}${code ? ` (${code})` : ''}`);
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function resolveRedirect(location: string, base: string): string | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next.href : undefined;
  } catch {
    return undefined;
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function combineSignals(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}

/** The options given a value: an option set to undefined keeps its default. */
type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

function definedOnly<T extends object>(options: T): Defined<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Defined<T>;
}

/** True for `text/html` and `application/xhtml+xml` Content-Types. */
export function isHtmlContentType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}
