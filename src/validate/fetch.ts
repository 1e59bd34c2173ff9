/**
 * The transport rules for a sitemap given by URL (RULES.md §1): the URL must answer 200
 * (FETCH-001), without a login (FETCH-004), and should not redirect (FETCH-002). robots.txt
 * (FETCH-003) belongs to the tree walk, which reads it anyway.
 *
 * The requests themselves are not made here. validate/ may not import discover/, where the
 * project's one HTTP layer lives, so it names what it needs (SitemapFetcher) and is handed it:
 * the public API and the CLI give it the shared HttpClient, which has this shape.
 */
import { STATUS_CODES } from 'node:http';
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';

/** What the validator needs of an HTTP layer; HttpClient (src/discover/http.ts) is one. */
export interface SitemapFetcher {
  /**
   * GETs `url`, following redirects. When no response comes, throws an Error whose message says
   * what went wrong and names the URL; with `redirects` on it when it failed after following some.
   */
  get(url: string, options?: { signal?: AbortSignal }): Promise<FetchedResponse>;
}

export interface FetchedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Each redirect followed, in order; `to` is absolute. */
  redirects: readonly { status: number; to: string }[];
  /** The body, Content-Encoding undone; throws an Error naming the URL if the transfer breaks off. */
  body: AsyncIterable<Uint8Array>;
  /** Lets go of the body (unread, or after reading it). */
  discard(): void;
}

export type FetchOutcome =
  | { ok: true; body: AsyncIterable<Uint8Array>; finalUrl: string; diagnostics: Diagnostic[]; release: () => void }
  | { ok: false; diagnostics: Diagnostic[] };

/** A response body that broke off while the document was read. */
export class TransferError extends Error {}

/** Fetches `url` and applies the transport rules; the body is handed on only for a 200. */
export async function fetchSitemap(http: SitemapFetcher, url: string, signal?: AbortSignal): Promise<FetchOutcome> {
  let response: FetchedResponse;
  try {
    response = await http.get(url, signal ? { signal } : {});
  } catch (error) {
    return { ok: false, diagnostics: [diagnostic('FETCH-001', unreachable(error), { source: url })] };
  }
  const diagnostics: Diagnostic[] = [];
  const refuse = (code: string, message: string): FetchOutcome => {
    response.discard();
    diagnostics.push(diagnostic(code, message, { source: url }));
    return { ok: false, diagnostics };
  };
  const current = response.url;
  if (response.redirects.length > 0) {
    const hops = response.redirects.map((hop) => `${hop.status} → ${hop.to}`).join(', ');
    diagnostics.push(
      diagnostic('FETCH-002', `${url} redirects (${hops}); submit and link the final URL ${current} instead`, {
        source: url,
      }),
    );
  }
  if (response.status === 401 || response.status === 403) {
    return refuse(
      'FETCH-004',
      `${current} answered HTTP ${response.status}: crawlers cannot log in; serve the sitemap without authentication`,
    );
  }
  if (response.status !== 200) {
    const reason = STATUS_CODES[response.status];
    return refuse(
      'FETCH-001',
      `${current} answered HTTP ${response.status}${reason ? ` ${reason}` : ''}; it must answer 200 with the sitemap`,
    );
  }
  return {
    ok: true,
    body: reportingBreaks(response.body),
    finalUrl: current,
    diagnostics,
    release: () => response.discard(),
  };
}

/** Why no response came, and what to do about it. */
function unreachable(error: unknown): string {
  const redirects = (error as { redirects?: readonly unknown[] }).redirects;
  const advice =
    redirects && redirects.length > 0 ? 'fix the redirects' : 'check the address and that the server is up';
  return `${(error as Error).message}; ${advice}`;
}

/** The body, its failures marked as the transfer's (not the parser's, nor a file's). */
async function* reportingBreaks(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } catch (error) {
    throw new TransferError((error as Error).message);
  }
}
