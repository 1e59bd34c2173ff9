/**
 * Every way a request can fail, as one error type with a kind and a plain sentence that names the
 * URL and says what to do; and which of them are worth trying again.
 */
import type { Redirect } from './types.js';

/**
 * What went wrong with a request, so callers can tell a host that does not resolve from a timeout
 * or a TLS mismatch.
 */
export type HttpErrorKind =
  /** The host name does not resolve. */
  | 'dns'
  | 'connect'
  | 'connect-timeout'
  | 'first-byte-timeout'
  | 'idle-timeout'
  /** The body came slower than the minimum transfer rate. */
  | 'too-slow'
  /** The document's total time, retries included, ran out. */
  | 'deadline'
  | 'network'
  /** An https URL whose server speaks plain HTTP. */
  | 'not-tls'
  /** A certificate or handshake the TLS client refuses. */
  | 'tls'
  | 'header-overflow'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'bad-redirect'
  | 'content-encoding'
  /** A host of a public site's links that resolves to a private address (see address-guard.ts). */
  | 'private-address'
  | 'aborted';

/** The code of a connection the address guard refused at its lookup (address-guard.ts). */
export const PRIVATE_ADDRESS_CODE = 'ERR_SITEMAPKIT_PRIVATE_ADDRESS';

/** Failures that the same request will meet again: retrying them only wastes the user's time. */
const PERMANENT: ReadonlySet<HttpErrorKind> = new Set<HttpErrorKind>([
  'dns',
  'not-tls',
  'tls',
  'header-overflow',
  'too-many-redirects',
  'redirect-loop',
  'bad-redirect',
  'content-encoding',
  'private-address',
  'deadline',
  'aborted',
]);

const TIMEOUTS: ReadonlySet<HttpErrorKind> = new Set<HttpErrorKind>([
  'connect-timeout',
  'first-byte-timeout',
  'idle-timeout',
  'too-slow',
]);

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

  /** The same failure after `attempts` attempts and these redirects, with `note` added to the message. */
  after(attempts: number, redirects: readonly Redirect[] = this.redirects, note = ''): HttpError {
    return new HttpError(this.kind, `${this.message}${note}`, this.url, redirects, attempts);
  }

  /** True when trying again cannot help (a name that does not resolve, a TLS mismatch, a redirect loop…). */
  get permanent(): boolean {
    return PERMANENT.has(this.kind);
  }

  /** True for the timeouts, which are retried at most once. */
  get timeout(): boolean {
    return TIMEOUTS.has(this.kind);
  }
}

/** The answer's headers did not all come in time (undici's timer, or ours that trickles cannot stretch). */
export function firstByteTimeout(url: string): HttpError {
  return new HttpError('first-byte-timeout', `${url} sent no complete response headers in time`, url);
}

/** The same URL over plain http: what to try when an https server does not speak TLS. */
export function overHttp(url: string): string {
  const plain = new URL(url);
  plain.protocol = 'http:';
  return plain.href;
}

/** Error codes of the TLS client that mean a certificate it will not trust. */
const CERTIFICATE_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * Turns whatever undici or the platform threw into an HttpError that says what happened.
 * `signal` is the request's: when it aborted, its reason tells a deadline from the caller's abort.
 */
export function classifyError(error: unknown, url: string, signal?: AbortSignal): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string })?.code ?? '';
  const name = (error as Error)?.name ?? '';
  const detail = (error as Error)?.message ?? String(error);
  const make = (kind: HttpErrorKind, message: string) => new HttpError(kind, message, url);
  const target = new URL(url);
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof HttpError) return reason;
    if ((reason as Error)?.name === 'TimeoutError') return make('deadline', `${url} did not finish in time`);
    return make('aborted', `the request to ${url} was stopped`);
  }
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR')
    return make('aborted', `the request to ${url} was stopped`);
  if (code === PRIVATE_ADDRESS_CODE) return make('private-address', `${url}: ${detail}`);
  if (code === 'ENOTFOUND')
    return make('dns', `the host ${target.hostname} does not resolve (ENOTFOUND): check the address`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return make('connect-timeout', `could not connect to ${target.origin} in time: is the server up?`);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return make('first-byte-timeout', firstByteTimeout(url).message);
  if (code === 'UND_ERR_BODY_TIMEOUT') return make('idle-timeout', `${url} stopped sending data mid-body`);
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return make('header-overflow', `${url} answered with response headers too large to read (over 16 KiB)`);
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(detail))
    return make('not-tls', `the server at ${target.origin} does not speak TLS; try ${overHttp(url)}`);
  if (CERTIFICATE_CODES.has(code))
    return make('tls', `the TLS certificate of ${target.host} is not trusted (${code}: ${detail})`);
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO')
    return make('tls', `the TLS handshake with ${target.host} failed (${code}: ${detail})`);
  if (['ECONNREFUSED', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code))
    return make('connect', `could not connect to ${target.origin} (${code}): is the server up?`);
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
    return make(
      'network',
      `${url}: the connection broke off (${code === 'ECONNRESET' ? 'reset' : 'closed by the server'})`,
    );
  if (code.startsWith('HPE_'))
    return make('network', `${url}: the response breaks the HTTP/1.1 protocol (${detail.replace(/^.*?\(|\)$/g, '')})`);
  return make('network', `${url}: ${detail}${code ? ` (${code})` : ''}`);
}
