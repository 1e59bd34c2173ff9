/**
 * How a sitemap is fetched by URL, decided once for `tree`, `validate` and `parse`: the request
 * (sitemap Accept header, the transfer capped just above the parser's own cap) and the transport
 * rules of the catalog (docs/rules.md, FETCH): the URL must answer 200 (FETCH-001), without a login
 * (FETCH-004), and should not redirect (FETCH-002); a body that breaks off is FETCH-001 (or
 * FETCH-005 when its Content-Encoding does not decode), after the entries read before the break.
 *
 * The requests themselves are not made here: this module names what it needs (SitemapFetcher)
 * and is handed it, so that validate/ and the Web-only entry (web.ts) can use these rules with
 * any fetcher. The public API and the CLI give it the shared HttpClient (client.ts).
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import { RetryLater } from '../pool/index.js';
import { statusReason } from './status-reasons.js';

/** What fetching a sitemap needs of an HTTP layer; HttpClient (src/http/client.ts) is one. */
export interface SitemapFetcher {
  /**
   * GETs `url`, following redirects. When no response comes, throws an Error whose message says
   * what went wrong and names the URL (see FetchFailure for what else it may carry).
   */
  get(
    url: string,
    options?: { signal?: AbortSignal; maxBytes?: number; headers?: Readonly<Record<string, string>> },
  ): Promise<FetchedResponse>;
}

/** The response a {@link SitemapFetcher} gives: status, headers, redirects and the body. */
export interface FetchedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** Each redirect followed, in order; `from` and `to` are absolute. */
  redirects: readonly FollowedRedirect[];
  /** Attempts made; and why an answer worth retrying (429, 5xx) was not retried, when it was not. */
  attempts?: number;
  notRetried?: string;
  /** The body, Content-Encoding undone; throws an Error naming the URL if the transfer breaks off. */
  body: AsyncIterable<Uint8Array>;
  /** Bytes on the wire so far, and whether reading stopped at maxBytes. */
  transfer: { readonly wireBytes: number; readonly truncated: boolean };
  /** Lets go of the body (unread, or after reading it). */
  discard(): void;
}

export interface FollowedRedirect {
  from: string;
  to: string;
  status: number;
}

/** What a failure of the HTTP layer may say about itself (HttpError says all of it). */
interface FetchFailure {
  message: string;
  /** `aborted` (the caller stopped it) and `content-encoding` (FETCH-005) matter here. */
  kind?: string;
  /** True when the same request would fail again (a name that does not resolve, a TLS mismatch…). */
  permanent?: boolean;
  /** True for the timeouts and a body too slow to wait for. */
  timeout?: boolean;
  redirects?: readonly FollowedRedirect[];
  attempts?: number;
}

export interface SitemapFetchOptions {
  signal?: AbortSignal | undefined;
  /**
   * A conditional request's headers (If-None-Match, If-Modified-Since): a 304 then means the
   * document did not change since it was read (`notModified`), not a failure.
   */
  conditional?: Readonly<Record<string, string>> | undefined;
  /** Decompressed bytes the parser will read (its limits.maxBytes); the transfer stops a little above. */
  maxBytes?: number | undefined;
}

interface FetchedCommon {
  /** The URL asked for, and the one that answered after redirects (the same when there were none). */
  url: string;
  finalUrl: string;
  /** Final HTTP status, when a response came. */
  status?: number;
  redirects: readonly FollowedRedirect[];
  /** The transport rules' findings so far: FETCH-002, or why there is nothing to read. */
  diagnostics: Diagnostic[];
}

/** No document to read: no answer, not 200, a login wall. */
export interface SitemapUnavailable extends FetchedCommon {
  ok: false;
  /**
   * Worth another try later (a refused or broken connection, 429, 5xx), as opposed to a 404, a
   * name that does not resolve, or a timeout (whose time is spent already).
   */
  transient: boolean;
  /** The HTTP layer's name for the failure when no response came (`dns`, `not-tls`, `connect`…). */
  kind?: string;
  /** A 304 to a conditional request: the document is as it was when last read (no diagnostic). */
  notModified?: true;
}

/** A 200 whose body is to be read through the parser. */
export interface SitemapBody extends FetchedCommon {
  ok: true;
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body; a transfer that breaks off throws TransferError, carrying its diagnostic. */
  body: AsyncIterable<Uint8Array>;
  /** Bytes received on the wire so far, and whether the transfer stopped at its cap. */
  transfer: FetchedResponse['transfer'];
  /**
   * What only the end of the read shows: a transfer cut at its cap that the parser did not report
   * (FETCH-006). `reported` says whether the parser already reported a code.
   */
  finish(reported: (code: string) => boolean): Diagnostic[];
  /** Lets go of the body (call it in a `finally`). */
  release(): void;
}

export type FetchedSitemap = SitemapUnavailable | SitemapBody;

/** A response body that broke off while the document was read. */
export class TransferError extends Error {
  constructor(
    readonly diagnostic: Diagnostic,
    /** Worth reading again later (a reset, a short body), as opposed to a timeout or a body that does not decode. */
    readonly transient: boolean,
  ) {
    super(diagnostic.message);
    this.name = 'TransferError';
  }
}

// Which codes mean a document was not read to its end is decided once, in core/outcome.ts.
export { DATA_LOSS_CODES } from '../core/outcome.js';

/** The transfer reads this much past the parser's cap, so that the parser's own FETCH-006 comes first. */
const TRANSFER_CAP_MARGIN = 256 * 1024;

/**
 * Fetches `url` and applies the transport rules; the body is handed on only for a 200.
 * A work pool's RetryLater and the caller's abort pass through; every other failure becomes a
 * diagnostic.
 */
export async function fetchSitemap(
  http: SitemapFetcher,
  url: string,
  options: SitemapFetchOptions = {},
): Promise<FetchedSitemap> {
  let response: FetchedResponse;
  try {
    response = await http.get(url, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes + TRANSFER_CAP_MARGIN }),
      ...(options.conditional === undefined ? {} : { headers: options.conditional }),
    });
  } catch (error) {
    if (error instanceof RetryLater || (error as FetchFailure).kind === 'aborted') throw error;
    const failure = error as FetchFailure;
    const redirects = failure.redirects ?? [];
    return {
      ok: false,
      url,
      finalUrl: redirects.at(-1)?.to ?? url,
      redirects,
      diagnostics: [...redirected(url, redirects), diagnostic('FETCH-001', unreachable(failure), { source: url })],
      transient: mayPass(failure),
      ...(failure.kind === undefined ? {} : { kind: failure.kind }),
    };
  }
  const diagnostics = redirected(url, response.redirects);
  const common = { url, finalUrl: response.url, redirects: response.redirects, diagnostics };
  const refuse = (code: string, message: string, transient: boolean): SitemapUnavailable => {
    response.discard();
    diagnostics.push(diagnostic(code, message, { source: url }));
    return { ok: false, ...common, status: response.status, transient };
  };
  if (response.status === 304 && options.conditional !== undefined) {
    response.discard();
    return { ok: false, ...common, status: 304, transient: false, notModified: true };
  }
  const at = response.url === url ? '' : ` (at ${response.url})`;
  if (response.status === 401 || response.status === 403) {
    return refuse(
      'FETCH-004',
      `answered HTTP ${response.status}${at}: crawlers cannot log in; serve the sitemap without authentication`,
      false,
    );
  }
  if (response.status !== 200) {
    const reason = statusReason(response.status);
    const tries = (response.attempts ?? 1) > 1 ? ` after ${response.attempts} attempts` : '';
    const why = response.notRetried ? `; ${response.notRetried}` : '';
    return refuse(
      'FETCH-001',
      `answered HTTP ${response.status}${reason ? ` ${reason}` : ''}${at}${tries}: a sitemap must answer 200${why}`,
      response.status === 429 || response.status >= 500,
    );
  }
  return {
    ok: true,
    ...common,
    status: response.status,
    headers: response.headers,
    body: reportingBreaks(response, url),
    transfer: response.transfer,
    finish: (reported) =>
      response.transfer.truncated && !reported('FETCH-006')
        ? [
            diagnostic(
              'FETCH-006',
              `reading stopped at ${options.maxBytes} bytes; the protocol allows 52,428,800 uncompressed`,
              { source: url },
            ),
          ]
        : [],
    release: () => response.discard(),
  };
}

/** FETCH-002 for a sitemap URL that redirects: crawlers may not follow, and the chain costs them. */
function redirected(url: string, redirects: readonly FollowedRedirect[]): Diagnostic[] {
  if (redirects.length === 0) return [];
  const hops = redirects.map((hop) => `${hop.status} → ${hop.to}`).join(', ');
  const final = redirects.at(-1)!.to;
  return [
    diagnostic(
      'FETCH-002',
      `${url} redirects in ${redirects.length} hop${redirects.length === 1 ? '' : 's'} (${hops}); submit and link the final URL ${final} instead`,
      { source: url },
    ),
  ];
}

/** A failure that another try later may not meet: not permanent, and not a timeout, which took its time already. */
function mayPass(failure: FetchFailure): boolean {
  return failure.permanent !== true && failure.timeout !== true;
}

/** Why no response came (the HTTP layer's message says what to do), after how many attempts. */
function unreachable(failure: FetchFailure): string {
  const tries = (failure.attempts ?? 1) > 1 ? ` (after ${failure.attempts} attempts)` : '';
  const advice = failure.redirects && failure.redirects.length > 0 ? '; fix the redirects' : '';
  return `${failure.message}${tries}${advice}`;
}

/** The body, its failures marked as the transfer's (not the parser's, nor a file's), with what they mean. */
async function* reportingBreaks(response: FetchedResponse, url: string): AsyncGenerator<Uint8Array> {
  try {
    yield* response.body;
  } catch (error) {
    const failure = error as FetchFailure;
    if (failure.kind === 'aborted') throw error;
    if (failure.kind === 'content-encoding')
      throw new TransferError(diagnostic('FETCH-005', failure.message, { source: url }), false);
    const read = response.transfer.wireBytes;
    throw new TransferError(
      diagnostic(
        'FETCH-001',
        `${failure.message}; the transfer broke off after ${read.toLocaleString('en-US')} bytes, the entries before it were kept`,
        { source: url },
      ),
      mayPass(failure),
    );
  }
}
