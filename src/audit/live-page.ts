/**
 * The live answer for one listed URL: one GET through the shared HTTP layer (redirects, retries
 * handed back to the work pool, the byte cap, the transfer's deadline), and, for a 200 that is
 * HTML by its bytes, what the page says about itself (robots directives, canonical, hreflang, its
 * own modification date) read by html/page-head.ts. The answer is plain data: checking it
 * (./check.ts) needs no I/O, so whoever fetches (this process, or a worker elsewhere) can.
 */
import { readHead } from '../crawl/judge.js';
import { SNIFF_BYTES, whyNotHtml } from '../crawl/sniff.js';
import { HttpError, isHtmlContentType, type HttpClient, type Redirect, type RetryState } from '../http/client.js';
import { charsetOf } from '../html/one-pass.js';
import { readPageHead, type PageHead } from '../html/page-head.js';
import { contentDigestReader } from '../input/content-digest.js';

/** What asking for a listed URL gave: not asked (robots.txt), no answer, or an answer. */
export type LiveAnswer =
  /** Not fetched: robots.txt keeps the URL out, for the reason given. */
  | { kind: 'blocked'; why: string }
  /** No answer, or a body that broke off: the message says which. */
  | { kind: 'failed'; message: string; redirects: readonly Redirect[] }
  | AnsweredPage;

/** An answer, and what its page says about itself. */
export interface AnsweredPage {
  kind: 'answered';
  /** The URL that answered, after `redirects`. */
  url: string;
  status: number;
  redirects: readonly Redirect[];
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** Our clock (epoch ms) when the answer came. */
  fetchedAt: number;
  /**
   * What the page says about itself, for a 200 whose bytes are HTML: among it, its title and
   * heading, and the redirect it makes itself, read by the rules `generate DIR` and the crawler use.
   */
  page?: PageHead;
  /** Why a 200 declared HTML (or of no type) is not HTML by its bytes. */
  notHtml?: string;
  /** The decoded bytes read when the page went past the read limit. */
  cutAt?: number;
  /** The page's content digest, as `generate --state` computes it (input/content-digest.ts). */
  digest?: string;
}

/** What listed pages are asked for: HTML first, anything else accepted. */
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

/** How {@link fetchLiveAnswer} reads a page. */
export interface LiveFetchOptions {
  /** Decoded bytes of a page read at most (--max-page-bytes). */
  maxBytes: number;
  signal?: AbortSignal | undefined;
  /** A work pool's retry state for this URL: a retry's wait is handed back as RetryLater. */
  retry?: RetryState | undefined;
}

/** GETs `url` and reads what the answer says; a work pool's RetryLater and an abort pass through. */
export async function fetchLiveAnswer(http: HttpClient, url: string, options: LiveFetchOptions): Promise<LiveAnswer> {
  let response;
  try {
    response = await http.get(url, {
      accept: PAGE_ACCEPT,
      maxBytes: options.maxBytes,
      signal: options.signal,
      deferRetries: options.retry,
    });
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    return { kind: 'failed', message: error.message, redirects: error.redirects };
  }
  const answered: AnsweredPage = {
    kind: 'answered',
    url: response.url,
    status: response.status,
    redirects: response.redirects,
    headers: response.headers,
    fetchedAt: Date.now(),
  };
  const contentType = response.headers['content-type'];
  if (response.status !== 200 || (contentType !== undefined && !isHtmlContentType(contentType))) {
    response.discard();
    return answered;
  }
  const body = response.body[Symbol.asyncIterator]();
  try {
    const head = await readHead(body, SNIFF_BYTES);
    const notHtml = await whyNotHtml(Buffer.concat(head.chunks), contentType);
    if (notHtml !== undefined) return { ...answered, notHtml };
    // JSON-LD may stand anywhere: the page is read to its end (or the cap), in one pass of the
    // tokenizer for its head and its content digest.
    const digest = contentDigestReader();
    answered.page = await readPageHead(rest(head, body), response.url, {
      wholeDocument: true,
      charset: charsetOf(contentType),
      alongside: digest.handler,
    });
    if (response.transfer.truncated) answered.cutAt = options.maxBytes;
    answered.digest = digest.digest();
    return answered;
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    return { kind: 'failed', message: error.message, redirects: response.redirects };
  } finally {
    await body.return?.();
    response.discard();
  }
}

/** The chunks already read, then the rest of the body. */
async function* rest(
  head: { chunks: Uint8Array[]; done: boolean },
  body: AsyncIterator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  yield* head.chunks;
  if (head.done) return;
  for (let next = await body.next(); next.done !== true; next = await body.next()) yield next.value;
}
