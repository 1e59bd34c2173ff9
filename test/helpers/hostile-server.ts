/**
 * A hostile HTTP server on 127.0.0.1 (port 0) for the tests of everything that fetches: each path
 * gets a behaviour that writes raw bytes to the socket, so it can break HTTP in the ways real
 * servers do (headers a byte a second, a body that never ends, a reset or a broken chunk in the
 * middle, a short body, huge headers, a gzip bomb, Retry-After: 120, HTML for a sitemap…), and a
 * round-robin balancer with one broken backend can fail every other request of the whole site.
 *
 * Well-formed answers keep the connection alive (a client may read thousands of children over a
 * few sockets); broken ones end it as the failure demands. `close()` destroys every socket, so no
 * trickle outlives its test.
 *
 * ```ts
 * const server = await startHostileServer((origin) => ({
 *   '/robots.txt': hostile.answer(200, { 'content-type': 'text/plain' }, `Sitemap: ${origin}/slow.xml`),
 *   '/slow.xml': hostile.trickle(urlset([...]), { intervalMs: 1000 }),
 * }));
 * ```
 */
import { createServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface RawRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: Record<string, string>;
}

/** What a path does with a request: writes to the socket, ends it, or neither. */
export type Behaviour = (socket: Socket, request: RawRequest) => void;

export interface HostileServer {
  origin: string;
  url(path: string): string;
  /** Requests per path, query included. */
  hits: Map<string, number>;
  /** Every request, as its path, in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

export interface HostileOptions {
  /**
   * A round-robin balancer in front of the site with one broken backend: of every `failEvery`
   * requests (counted over the whole site, robots.txt included), the last gets `failWith` instead
   * of its route; `failEvery: 2` fails every other request, the second first.
   */
  balancer?: { failWith: Behaviour; failEvery: number };
}

export async function startHostileServer(
  routes: Record<string, Behaviour> | ((origin: string) => Record<string, Behaviour>),
  options: HostileOptions = {},
): Promise<HostileServer> {
  let table: Record<string, Behaviour> = {};
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true); // each piece goes out as written: a trickle must trickle
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    readRequests(socket, (request) => {
      running.hits.set(request.path, (running.hits.get(request.path) ?? 0) + 1);
      running.requests.push(request.path);
      const balancer = options.balancer;
      if (balancer && ++count % balancer.failEvery === 0) return balancer.failWith(socket, request);
      const behaviour = table[request.path.split('?')[0]!] ?? table[request.path] ?? hostile.notFound();
      behaviour(socket, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const running: HostileServer = {
    origin,
    url: (path) => `${origin}${path}`,
    hits: new Map(),
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  table = typeof routes === 'function' ? routes(origin) : routes;
  return running;
}

/** Calls `onRequest` for each request head on the socket (GET requests have no body). */
function readRequests(socket: Socket, onRequest: (request: RawRequest) => void): void {
  let buffered = '';
  socket.on('data', (data: Buffer) => {
    if (buffered === '' && data[0] === 0x16) {
      // A TLS ClientHello: answer as a plain HTTP server does, which is what a client speaking TLS to it meets.
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    buffered += data.toString('latin1');
    for (let end = buffered.indexOf('\r\n\r\n'); end !== -1; end = buffered.indexOf('\r\n\r\n')) {
      const head = buffered.slice(0, end);
      buffered = buffered.slice(end + 4);
      const [requestLine = '', ...lines] = head.split('\r\n');
      const [method = '', path = '/'] = requestLine.split(' ');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      onRequest({ method, path, headers });
    }
  });
}

function head(status: number, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}\r\n${lines.join('\r\n')}\r\n\r\n`;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  301: 'Moved Permanently',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const XML = 'application/xml';

/** Writes on a timer until the socket closes (or `step` says it is done). */
function every(socket: Socket, intervalMs: number, step: () => boolean | void): void {
  const timer = setInterval(() => {
    if (socket.destroyed || step() === false) clearInterval(timer);
  }, intervalMs);
  socket.on('close', () => clearInterval(timer));
}

export const hostile = {
  /** A well-formed answer; the connection stays open for the next request. */
  answer(status: number, headers: Record<string, string>, body: string | Uint8Array = ''): Behaviour {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    return (socket) => {
      socket.write(
        Buffer.concat([
          Buffer.from(head(status, { ...headers, 'content-length': bytes.length, connection: 'keep-alive' })),
          bytes,
        ]),
      );
    };
  },

  /** A sitemap served as it should be. */
  sitemap(xml: string, contentType = XML): Behaviour {
    return hostile.answer(200, { 'content-type': contentType }, xml);
  },

  /** A sitemap served with Content-Type text/html, as some CMSs do. */
  servedAsHtml(xml: string): Behaviour {
    return hostile.sitemap(xml, 'text/html; charset=utf-8');
  },

  notFound(): Behaviour {
    return hostile.answer(404, { 'content-type': 'text/plain' }, 'not found');
  },

  /** Reads the request and never answers. */
  neverAnswers(): Behaviour {
    return () => undefined;
  },

  /** A status line, then one header byte every `intervalMs`, never finishing the headers. */
  slowHeaders(intervalMs = 1000): Behaviour {
    return (socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      const header = `x-slow: ${'a'.repeat(10_000)}`;
      let sent = 0;
      every(socket, intervalMs, () => {
        socket.write(header[sent++ % header.length]!);
      });
    };
  },

  /** Headers at once, then the body `bytesPerTick` bytes every `intervalMs` (a byte a second by default). */
  trickle(body: string, { intervalMs = 1000, bytesPerTick = 1, contentType = XML } = {}): Behaviour {
    const bytes = Buffer.from(body);
    return (socket) => {
      socket.write(head(200, { 'content-type': contentType, 'content-length': bytes.length, connection: 'close' }));
      let sent = 0;
      every(socket, intervalMs, () => {
        socket.write(bytes.subarray(sent, sent + bytesPerTick));
        sent += bytesPerTick;
        if (sent >= bytes.length) {
          socket.end();
          return false;
        }
      });
    };
  },

  /** The first `afterBytes` bytes of `body` (announced whole), then silence with the connection open. */
  stall(body: string, afterBytes: number): Behaviour {
    const bytes = Buffer.from(body);
    return (socket) => {
      socket.write(head(200, { 'content-type': XML, 'content-length': bytes.length }));
      socket.write(bytes.subarray(0, afterBytes));
    };
  },

  /** `prefix`, then `filler` as fast as the client reads, for ever (no length: the body never ends). */
  endless(prefix: string, filler: string, contentType = XML): Behaviour {
    const chunk = Buffer.from(filler.repeat(Math.max(1, Math.floor(65_536 / filler.length))));
    return (socket) => {
      socket.write(head(200, { 'content-type': contentType, connection: 'close' }));
      socket.write(prefix);
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk));
      };
      socket.on('drain', pump);
      pump();
    };
  },

  /** The first `afterBytes` bytes of `body` (announced whole), then a TCP reset. */
  resetMidBody(body: string, afterBytes: number): Behaviour {
    const bytes = Buffer.from(body);
    return (socket) => {
      socket.write(head(200, { 'content-type': XML, 'content-length': bytes.length }));
      socket.write(bytes.subarray(0, afterBytes), () => setTimeout(() => socket.resetAndDestroy(), 20));
    };
  },

  /** The first `afterBytes` bytes of `body` (announced whole), then the connection closed cleanly. */
  shortBody(body: string, afterBytes: number): Behaviour {
    const bytes = Buffer.from(body);
    return (socket) => {
      socket.write(head(200, { 'content-type': XML, 'content-length': bytes.length }));
      socket.end(bytes.subarray(0, afterBytes));
    };
  },

  /** Chunked encoding: `body` up to `afterBytes` in good chunks, then a chunk size that is not hex. */
  brokenChunking(body: string, afterBytes: number): Behaviour {
    const bytes = Buffer.from(body.slice(0, afterBytes));
    return (socket) => {
      socket.write(head(200, { 'content-type': XML, 'transfer-encoding': 'chunked' }));
      for (let at = 0; at < bytes.length; at += 1000) {
        const part = bytes.subarray(at, at + 1000);
        socket.write(`${part.length.toString(16)}\r\n`);
        socket.write(part);
        socket.write('\r\n');
      }
      socket.end('zz-not-a-size\r\nbroken\r\n');
    };
  },

  /** A status worth retrying with Retry-After (503 and 120 s by default). */
  retryAfter(seconds = 120, status = 503): Behaviour {
    return hostile.answer(status, { 'content-type': 'text/plain', 'retry-after': String(seconds) }, 'try later');
  },

  /** An answer whose headers are larger than any client reads (70 KB). */
  headerOverflow(): Behaviour {
    return (socket) => {
      socket.end(`${head(200, { 'x-huge': 'a'.repeat(70_000), 'content-length': 2 })}ok`);
    };
  },

  /**
   * A gzip bomb: a urlset start and `megabytes` of spaces, a few KB compressed; as a .gz file
   * (`encoding: 'file'`) or as Content-Encoding: gzip.
   */
  gzipBomb(megabytes: number, encoding: 'file' | 'content'): Behaviour {
    const bomb = gzipBombBytes(megabytes);
    return encoding === 'file'
      ? hostile.answer(200, { 'content-type': 'application/gzip' }, bomb)
      : hostile.answer(200, { 'content-type': XML, 'content-encoding': 'gzip' }, bomb);
  },

  /** The connection closed at once, before any answer. */
  hangUp(): Behaviour {
    return (socket) => socket.destroy();
  },
};

/**
 * The bytes of a gzip bomb, about 1 KB per MiB it unpacks to: one gzip member per MiB of spaces
 * (RFC 1952 allows any number, read as one stream), so that making it never holds the megabytes,
 * which would swell the test process (and the peak memory its children inherit).
 */
export function gzipBombBytes(megabytes: number): Buffer {
  const start =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  const mebibyte = gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
  return Buffer.concat([gzipSync(start), ...Array.from({ length: megabytes }, () => mebibyte)]);
}
