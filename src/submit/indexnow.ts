/**
 * The IndexNow protocol (indexnow.org/documentation; docs/rules.md IN-001…IN-005): one POST of
 * JSON `{host, key, keyLocation?, urlList}` per batch of at most 10,000 URLs of one host, to one
 * endpoint (engines share what one of them accepts), and what its answer means.
 *
 * 200 and 202 are accepted (202: the key is still being checked). 400, 403 and 422 mean the same
 * request will fail again: never retried, explained. 429 and 5xx are retried by the HTTP client
 * with backoff, honouring Retry-After, within --max-wait; an answer still 429 or 5xx after that
 * is a failure for this run. The first 2 KB of any other answer's body are kept to be shown.
 */
import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { HttpError, type HttpClient } from '../http/client.js';

/** The shared endpoint: what it accepts reaches Bing, Yandex, Naver, Seznam, Yep and the others. */
export const DEFAULT_ENDPOINT = 'https://api.indexnow.org/indexnow';
/** URLs per request, at most (IN-004). */
export const MAX_URLS_PER_REQUEST = 10_000;
/** Bytes of an error answer's body kept to be shown. */
const ERROR_BODY_BYTES = 2048;

/** 8 to 128 letters, digits and dashes (IN-001). */
const KEY = /^[A-Za-z0-9-]{8,128}$/;

export function isValidKey(key: string): boolean {
  return KEY.test(key);
}

/** A new key: 32 hexadecimal characters from the system's random source. */
export function newKey(): string {
  return randomBytes(16).toString('hex');
}

export interface IndexNowRequest {
  host: string;
  key: string;
  keyLocation?: string | undefined;
  urlList: readonly string[];
}

export interface IndexNowAnswer {
  /** The HTTP status, when an answer came. */
  status: number | undefined;
  accepted: boolean;
  /** Whether the same request may pass later (429, 5xx, no answer), as opposed to 400, 403, 422. */
  transient: boolean;
  /** One sentence: what the answer means, and what to do. */
  meaning: string;
  /** The first 2 KB of the body of an answer not accepted. */
  body?: string;
  /** Attempts made (retries of 429 and 5xx included). */
  attempts: number;
}

/** Sends one batch; never throws for what the endpoint or the network does (that is the answer). */
export async function submitBatch(
  http: HttpClient,
  endpoint: string,
  request: IndexNowRequest,
  options: { keyFile: string; signal?: AbortSignal | undefined },
): Promise<IndexNowAnswer> {
  const { keyFile, signal } = options;
  if (request.urlList.length > MAX_URLS_PER_REQUEST)
    throw new Error(`an IndexNow request holds at most ${MAX_URLS_PER_REQUEST} URLs, not ${request.urlList.length}`);
  const body = JSON.stringify({
    host: request.host,
    key: request.key,
    ...(request.keyLocation === undefined ? {} : { keyLocation: request.keyLocation }),
    urlList: request.urlList,
  });
  let response;
  try {
    response = await http.post(endpoint, body, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
      maxBytes: ERROR_BODY_BYTES,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    return {
      status: undefined,
      accepted: false,
      transient: true,
      meaning: `no answer from ${endpoint}: ${error.message}; the URLs stay due for the next run`,
      attempts: error.attempts,
    };
  }
  const status = response.status;
  const accepted = status === 200 || status === 202;
  let text = '';
  try {
    if (!accepted) for await (const chunk of response.body) text += Buffer.from(chunk).toString('utf8');
  } catch {
    // A body that breaks off: what came is shown.
  } finally {
    response.discard();
  }
  const retriedOut = response.notRetried ? ` (${response.notRetried})` : '';
  return {
    status,
    accepted,
    transient: status === 429 || status >= 500,
    meaning: `${meaningOf(status, { host: request.host, keyFile, inFolder: request.keyLocation !== undefined })}${response.attempts > 1 ? ` after ${response.attempts} attempts` : ''}${retriedOut}`,
    ...(accepted || text === '' ? {} : { body: text.slice(0, ERROR_BODY_BYTES) }),
    attempts: response.attempts,
  };
}

/**
 * What an IndexNow status means for a request about `host`, whose key file is `keyFile` (in a
 * folder named by keyLocation: `inFolder`), in a sentence.
 */
export function meaningOf(status: number, request: { host: string; keyFile: string; inFolder: boolean }): string {
  const name = `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
  switch (status) {
    case 200:
      return `${name}: accepted`;
    case 202:
      return `${name}: accepted; the engine is still checking the key file`;
    case 400:
      return `${name}: the engine found the request malformed; not retried (report it: sitemapkit sends the protocol's JSON)`;
    case 403:
      return `${name}: the key is not valid: the engine could not find the key file at ${request.keyFile}, or it does not hold exactly the key; not retried`;
    case 422:
      return `${name}: URLs not on ${request.host}${request.inFolder ? " or outside the key file's folder" : ''}, or the key does not match the host's key file; not retried`;
    case 429:
      return `${name}: the engine asks to slow down (too many requests); the URLs stay due for the next run`;
    default:
      return status >= 500
        ? `${name}: the engine failed; the URLs stay due for the next run`
        : `${name}: not an answer of the protocol (200, 202, 400, 403, 422, 429); check --endpoint`;
  }
}
