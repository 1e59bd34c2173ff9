/**
 * The one HTTP layer of sitemapkit: every byte read from the network comes through `HttpClient`.
 *
 * A stack of layers over undici, each in its own module and testable alone (undici's
 * interceptors are the model), outermost first:
 *
 *   retry            attempts, backoff, Retry-After, the total deadline, the wait cap   http/retries.ts
 *   follow redirects at most 5 hops, each recorded, loops refused                        http/redirects.ts
 *   byte cap         decoded bytes read before stopping                                  http/byte-cap.ts
 *   decompress       Content-Encoding undone                                             http/decompress.ts
 *   minimum rate     a body slower than the minimum transfer rate is stopped             http/transfer-rate.ts
 *   address guard    off the public start host, private addresses refused (each hop)     http/address-guard.ts
 *   transport        one GET: connect, first-byte and idle timeouts; the deadline kept   http/transport.ts
 *                    (its agent connects through the guard's lookup: no DNS rebinding)
 *
 * Politeness (requests per host, delays, Crawl-delay) is not here: the work pool
 * (src/pool/) owns it, and the walks that fetch many URLs run through it.
 */
import type { Agent } from 'undici';
import { LinkedSignal } from '../pool/index.js';
import { DEFAULT_USER_AGENT } from '../version.js';
import { byteCap } from './byte-cap.js';
import { decompress } from './decompress.js';
import { HttpError } from './errors.js';
import { followRedirects } from './redirects.js';
import { retry, RetryState, type RetryNotice } from './retries.js';
import { createAddressGuard } from './address-guard.js';
import { minimumRate } from './transfer-rate.js';
import { transport } from './transport.js';
import { loadUndici } from './undici.js';
import { compose, type Fetch, type HttpRequest, type HttpResponse, type Transfer } from './types.js';

export { HttpError, overHttp, type HttpErrorKind } from './errors.js';
export { parseRetryAfter, RetryState, type RetryNotice } from './retries.js';
export type { HttpResponse, Redirect, Transfer } from './types.js';

/** Settings of an {@link HttpClient}; each has a default. */
export interface HttpOptions {
  /** Sent with every request (default `sitemapkit/<version> (+<project URL>)`). */
  userAgent?: string | undefined;
  /** The longest one document may take, every attempt, wait and its body included (default 60 s). */
  timeoutMs?: number | undefined;
  /** Time to open the connection (TCP and TLS), default 10 s (and never more than timeoutMs). */
  connectTimeoutMs?: number | undefined;
  /** Time from sending the request to the end of the response headers, default 20 s. */
  firstByteTimeoutMs?: number | undefined;
  /** Longest silence while the body streams, default 20 s. */
  idleTimeoutMs?: number | undefined;
  /** The least a body must bring per second, measured over `rateWindowMs` (default 1,024 bytes; 0: no minimum). */
  minBytesPerSecond?: number | undefined;
  /** The window the transfer rate is measured over (default 10 s). */
  rateWindowMs?: number | undefined;
  /** Redirects followed per request, default 5. */
  maxRedirects?: number | undefined;
  /** Extra attempts after a 429, a 5xx or a failure worth retrying, default 3 (a timeout: at most 1). */
  retries?: number | undefined;
  /** First backoff; doubled each retry, with jitter. Default 1 s. */
  backoffMs?: number | undefined;
  /** Longest backoff, default 30 s. */
  maxBackoffMs?: number | undefined;
  /** The longest total wait between the attempts of one document, Retry-After included (default 30 s). */
  maxWaitMs?: number | undefined;
  /** Told before each wait between attempts: which URL, how long and why. */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  /**
   * Request hosts that resolve to private, loopback or link-local addresses even when the first
   * host this client requested (the start) is public (default false: such hosts are refused, so a
   * site cannot make a server running sitemapkit reach its own network).
   */
  allowPrivateAddresses?: boolean | undefined;
  /** Stops every request of this client. */
  signal?: AbortSignal | undefined;
  /** Jitter source, replaceable for reproducible tests (default Math.random). */
  random?: (() => number) | undefined;
}

/** Settings of one request of an {@link HttpClient}. */
export interface RequestOptions {
  /** Decoded body bytes read before stopping (`transfer.truncated` then says so). */
  maxBytes?: number | undefined;
  /** Overrides the client's retries, e.g. 0 for probes where a failure is an answer. */
  retries?: number | undefined;
  /** The Accept header: sitemap formats unless the caller reads something else (the crawler: HTML). */
  accept?: string | undefined;
  /** Further request headers (a conditional GET's If-None-Match, a POST's Content-Type). */
  headers?: Readonly<Record<string, string>> | undefined;
  signal?: AbortSignal | undefined;
  /**
   * For a task of a work pool: instead of sleeping before a retry, throw RetryLater (the pool
   * starts the task again after the wait), counting attempts and waits in this state, which the
   * task keeps and passes again each time it runs.
   */
  deferRetries?: RetryState | undefined;
  /**
   * Attempts and waits an earlier pass over the same document spent (RetryState.laterPass): the
   * retries are slept through, within what is left of its deadline and waits.
   */
  retryState?: RetryState | undefined;
}

/** What sitemap readers accept: XML first, then text, then anything (feeds, mislabelled files). */
export const SITEMAP_ACCEPT = 'application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

const DEFAULTS = {
  timeoutMs: 60_000,
  connectTimeoutMs: 10_000,
  firstByteTimeoutMs: 20_000,
  idleTimeoutMs: 20_000,
  minBytesPerSecond: 1024,
  rateWindowMs: 10_000,
  maxRedirects: 5,
  retries: 3,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
  maxWaitMs: 30_000,
};

/**
 * The HTTP client every sitemapkit fetch goes through: deadlines, redirects, retries with backoff
 * and Retry-After, decompression, byte caps and a minimum transfer rate. Close it when done.
 */
export class HttpClient {
  readonly userAgent: string;
  private readonly settings: typeof DEFAULTS;
  /** The connections, made at the first request. */
  private agent: Promise<Agent> | undefined;
  private readonly fetch: Fetch;
  private readonly signal: AbortSignal | undefined;

  constructor(options: HttpOptions = {}) {
    this.settings = { ...DEFAULTS, ...definedOnly(options) };
    const s = this.settings;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.signal = options.signal;
    const guard = createAddressGuard({ allowPrivateAddresses: options.allowPrivateAddresses ?? false });
    // Connections resolve through the guard too: a name that rebinds to a private address is refused.
    const connect = { timeout: Math.min(s.connectTimeoutMs, s.timeoutMs), lookup: guard.lookup };
    this.fetch = compose(
      transport({
        agent: () => (this.agent ??= loadUndici().then(({ Agent }) => new Agent({ connect }))),
        firstByteTimeoutMs: Math.min(s.firstByteTimeoutMs, s.timeoutMs),
        idleTimeoutMs: Math.min(s.idleTimeoutMs, s.timeoutMs),
      }),
      retry({
        backoffMs: s.backoffMs,
        maxBackoffMs: s.maxBackoffMs,
        maxWaitMs: s.maxWaitMs,
        deadlineMs: s.timeoutMs,
        random: options.random ?? Math.random,
        onRetry: options.onRetry,
      }),
      followRedirects(s.maxRedirects),
      byteCap(),
      decompress(),
      minimumRate({ minBytesPerSecond: s.minBytesPerSecond, windowMs: s.rateWindowMs }),
      guard.layer,
    );
  }

  /** GETs `url`, following redirects and retrying; throws HttpError when no response came. */
  async get(url: string, options: RequestOptions = {}): Promise<HttpResponse> {
    return this.request({ url }, options);
  }

  /**
   * POSTs `body` to `url`, retrying as a GET is (429, 5xx, a lost connection: the caller's
   * request must be safe to send twice) but never following a redirect; throws HttpError when no
   * response came.
   */
  async post(url: string, body: string, options: RequestOptions = {}): Promise<HttpResponse> {
    return this.request({ method: 'POST', url, body }, options);
  }

  private async request(
    target: Pick<HttpRequest, 'method' | 'url' | 'body'>,
    options: RequestOptions,
  ): Promise<HttpResponse> {
    // Each attempt gets a signal of its own below (http/transport.ts): undici listens on that one.
    // The client's and the request's signals are joined by a LinkedSignal, released when the body
    // is read or dropped: AbortSignal.any kept a weak reference per request on Node 20 that was
    // never swept (about 250 bytes a request, a quarter of a gigabyte over a million).
    const joined = this.signal && options.signal ? new LinkedSignal([this.signal, options.signal]) : undefined;
    let response: HttpResponse;
    try {
      response = await this.fetch({
        ...target,
        headers: {
          'user-agent': this.userAgent,
          accept: options.accept ?? SITEMAP_ACCEPT,
          'accept-encoding': 'gzip, deflate, br',
          ...options.headers,
        },
        signal: joined?.signal ?? options.signal ?? this.signal,
        maxBytes: options.maxBytes ?? Infinity,
        retries: options.retries ?? this.settings.retries,
        retryState: options.deferRetries ?? options.retryState ?? new RetryState(),
        deferRetries: options.deferRetries !== undefined,
      });
    } catch (error) {
      joined?.release();
      throw error;
    }
    return readOnce(response, joined);
  }

  /** Closes the connections; requests still in flight fail (call it when the work is done). */
  async close(): Promise<void> {
    if (this.agent !== undefined) await (await this.agent).destroy();
  }
}

/**
 * The body readable once, its failure kept in `transfer.error`; `joined` (the request's signal
 * tied to its client's) released once the body is read to its end, fails, or is dropped.
 */
function readOnce(response: HttpResponse, joined: LinkedSignal | undefined): HttpResponse {
  let started = false;
  const { body, transfer, url } = response;
  return {
    ...response,
    body: {
      [Symbol.asyncIterator]() {
        if (started) throw new Error(`the body of ${url} can be read only once`);
        started = true;
        return recorded(body, transfer, joined)[Symbol.asyncIterator]();
      },
    },
    discard() {
      started = true;
      joined?.release();
      response.discard();
    },
  };
}

/**
 * `body`, its failure kept in `transfer.error`, `joined` released at its end. A function of the
 * module, not a closure made per response: on Node 20 a closure that is an async generator cost
 * about 15 µs at each call, more than the rest of the request's own work.
 */
async function* recorded(
  body: AsyncIterable<Uint8Array>,
  transfer: Transfer,
  joined: LinkedSignal | undefined,
): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } catch (error) {
    if (error instanceof HttpError) transfer.error = error;
    throw error;
  } finally {
    joined?.release();
  }
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
