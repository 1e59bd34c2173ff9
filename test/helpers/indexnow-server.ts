/**
 * A local IndexNow endpoint on 127.0.0.1 that implements the protocol as the engines do
 * (indexnow.org/documentation): POST /indexnow of JSON {host, key, keyLocation?, urlList}, at most
 * 10,000 URLs, each on `host` (and under the key location's folder); the key file fetched from
 * the URLs' own origin ({scheme}://{host}/{key}.txt, or keyLocation), which must answer 200
 * itself with the key as its body. A malformed request is 400, a key file that is not right 403,
 * URLs off the host or too many 422; otherwise 200, unless the test asks for another answer
 * (202, 429 with Retry-After, 500, 503, a body, or no answer at all) for the next requests.
 *
 * Every request is recorded with its batch and the answer given, for the tests to assert on.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedSubmission {
  host: string;
  key: string;
  keyLocation?: string;
  urlList: string[];
  /** The status answered; undefined for a request left without an answer. */
  status: number | undefined;
}

/** An answer the test asks for, instead of the protocol's own. */
export type ForcedAnswer =
  | { status: number; retryAfter?: number; body?: string }
  /** Reads the request and never answers (the client is to be killed meanwhile). */
  | { hang: true };

export interface IndexNowServer {
  /** The endpoint URL to give --endpoint. */
  endpoint: string;
  /** Every request received, in order (hung ones too). */
  received: ReceivedSubmission[];
  /** Answers for the next requests, used one per request, before the protocol's own. */
  answerNext(...answers: ForcedAnswer[]): void;
  /** Resolves when `count` requests have been received in all. */
  receivedCount(count: number): Promise<void>;
  close(): Promise<void>;
}

const MAX_URLS = 10_000;
const KEY = /^[A-Za-z0-9-]{8,128}$/;

export async function startIndexNowServer(): Promise<IndexNowServer> {
  const forced: ForcedAnswer[] = [];
  const received: ReceivedSubmission[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/indexnow') {
      response.writeHead(404).end();
      return;
    }
    let body: Partial<ReceivedSubmission>;
    try {
      body = JSON.parse(text) as Partial<ReceivedSubmission>;
    } catch {
      answer(response, undefined, 400, 'Bad request: the body is not JSON');
      return;
    }
    const submission: ReceivedSubmission = {
      host: String(body.host),
      key: String(body.key),
      ...(body.keyLocation === undefined ? {} : { keyLocation: String(body.keyLocation) }),
      urlList: Array.isArray(body.urlList) ? body.urlList.map(String) : [],
      status: undefined,
    };
    received.push(submission);
    for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    const next = forced.shift();
    if (next && 'hang' in next) return;
    if (next) {
      answer(response, submission, next.status, next.body ?? '', next.retryAfter);
      return;
    }
    const { status, why } = await judge(submission, request.headers['content-type']);
    answer(response, submission, status, why);
  }

  function answer(
    response: ServerResponse,
    submission: ReceivedSubmission | undefined,
    status: number,
    body: string,
    retryAfter?: number,
  ): void {
    if (submission) submission.status = status;
    response
      .writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
      })
      .end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint: `${origin}/indexnow`,
    received,
    answerNext: (...answers) => forced.push(...answers),
    receivedCount: (count) =>
      received.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The protocol's answer to a request: 400 malformed, 422 URLs or key, 403 key file, else 200. */
async function judge(
  submission: ReceivedSubmission,
  contentType: string | undefined,
): Promise<{ status: number; why: string }> {
  if (!/^application\/json/.test(contentType ?? ''))
    return { status: 400, why: 'Content-Type must be application/json' };
  const { host, key, keyLocation, urlList } = submission;
  if (urlList.length === 0) return { status: 400, why: 'urlList is empty' };
  if (!KEY.test(key)) return { status: 422, why: 'the key is not 8 to 128 letters, digits and dashes' };
  if (urlList.length > MAX_URLS) return { status: 422, why: `more than ${MAX_URLS} URLs` };
  const off = urlList.find((url) => !URL.canParse(url) || new URL(url).host !== host);
  if (off !== undefined) return { status: 422, why: `${off} is not on ${host}` };
  const location = keyLocation ?? `${new URL(urlList[0]!).origin}/${key}.txt`;
  if (keyLocation !== undefined) {
    const folder = new URL(keyLocation).pathname.replace(/[^/]*$/, '');
    const outside = urlList.find(
      (url) => !new URL(url).pathname.startsWith(folder) || new URL(url).host !== new URL(keyLocation).host,
    );
    if (outside !== undefined) return { status: 422, why: `${outside} is outside the key location's folder` };
  }
  try {
    const keyFile = await fetch(location, { redirect: 'manual' });
    const text = await keyFile.text();
    if (keyFile.status !== 200 || text.trim() !== key)
      return { status: 403, why: `the key file ${location} does not hold the key` };
  } catch {
    return { status: 403, why: `the key file ${location} could not be fetched` };
  }
  return { status: 200, why: '' };
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  request.setEncoding('utf8');
  for await (const piece of request) text += piece as string;
  return text;
}
