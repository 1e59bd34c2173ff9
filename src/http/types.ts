/**
 * The shapes the HTTP layers share. A layer takes the fetch below it and returns a fetch with one
 * more concern handled (a redirect, a retry, a decoding, a cap), as undici's interceptors wrap a
 * dispatch; HttpClient stacks them. Each layer reads only the request fields it is about.
 */
import type { HttpError } from './errors.js';
import type { RetryState } from './retries.js';

/** One redirect followed on the way to a response. */
export interface Redirect {
  from: string;
  to: string;
  status: number;
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

export interface HttpRequest {
  /** GET unless said otherwise; a POST is never redirected (its answer is the caller's to read). */
  method?: 'GET' | 'POST' | undefined;
  url: string;
  /** The body of a POST, sent again as it is with each attempt. */
  body?: string | undefined;
  /** Sent as they are (the transport adds nothing but what undici must). */
  headers: Record<string, string>;
  /** Aborts the request and its body. */
  signal?: AbortSignal | undefined;
  /**
   * When the document's time is up (the retry layer's total deadline, epoch ms): the transport
   * stops the request, or its body, then, failing with `error()`.
   */
  deadline?: { at: number; error: () => HttpError } | undefined;
  /** Decoded body bytes read before stopping (`transfer.truncated` then says so). */
  maxBytes: number;
  /** Attempts after the first one, for this request. */
  retries: number;
  /** Attempts and waits so far: lives across calls when a work pool runs the retries (see retries.ts). */
  retryState: RetryState;
  /** True when the waits between attempts are handed back to a work pool as RetryLater, not slept through. */
  deferRetries: boolean;
}

/**
 * A response of the {@link HttpClient}: status, headers, the URL that answered, the redirects
 * followed, and the body as a stream read once.
 */
export interface HttpResponse {
  /** The URL asked for, and the URL that answered after redirects. */
  requestedUrl: string;
  url: string;
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  redirects: Redirect[];
  /** Attempts made (1 when the first one answered). */
  attempts: number;
  /** Why an answer worth retrying (429, 5xx) was not retried, when it was not: "Retry-After 120 s is over --max-wait 30 s". */
  notRetried?: string;
  /** The body, Content-Encoding undone; iterate it once, or call discard(). */
  body: AsyncIterable<Uint8Array>;
  readonly transfer: Transfer;
  /** Lets go of the body unread (and of the connection it holds). */
  discard(): void;
}

export type Fetch = (request: HttpRequest) => Promise<HttpResponse>;

/** One concern of the HTTP stack, wrapped around the fetch below it. */
export type Layer = (next: Fetch) => Fetch;

/** `layers` wrapped around `base`, the first one outermost: compose(t, a, b)(r) runs a, then b, then t. */
export function compose(base: Fetch, ...layers: Layer[]): Fetch {
  return layers.reduceRight((inner, layer) => layer(inner), base);
}

/** A response whose body is `body`, everything else as in `response`. */
export function withBody(response: HttpResponse, body: AsyncIterable<Uint8Array>): HttpResponse {
  return { ...response, body };
}
