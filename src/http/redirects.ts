/**
 * Redirects followed by hand: at most `maxRedirects` hops, each recorded, a loop refused at the
 * first URL met twice, a target that is not http(s) refused. The body of each redirect is dropped
 * unread; the final answer, and any failure on the way, carries the whole chain. A POST is not
 * followed: a redirect is its answer (an API that moved is the caller's to report, not to guess).
 */
import { HttpError, type HttpErrorKind } from './errors.js';
import type { Layer, Redirect } from './types.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function followRedirects(maxRedirects: number): Layer {
  return (next) => async (request) => {
    if (request.method === 'POST') return next(request);
    const redirects: Redirect[] = [];
    const visited = new Set<string>([request.url]);
    const failure = (kind: HttpErrorKind, message: string) => new HttpError(kind, message, request.url, [...redirects]);
    let current = request.url;
    for (;;) {
      let hop;
      try {
        hop = await next({ ...request, url: current });
      } catch (error) {
        if (!(error instanceof HttpError) || redirects.length === 0) throw error;
        throw new HttpError(error.kind, error.message, request.url, [...redirects], error.attempts);
      }
      const location = hop.headers.location;
      if (!REDIRECT_STATUSES.has(hop.status) || location === undefined)
        return { ...hop, requestedUrl: request.url, redirects };
      hop.discard();
      const target = resolveRedirect(location, current);
      if (target === undefined)
        throw failure('bad-redirect', `${current} redirects to "${location}", which is not an http(s) URL`);
      redirects.push({ from: current, to: target, status: hop.status });
      if (visited.has(target))
        throw failure('redirect-loop', `redirect loop: ${redirects.map((r) => r.from).join(' → ')} → ${target}`);
      if (redirects.length > maxRedirects)
        throw failure('too-many-redirects', `more than ${maxRedirects} redirects, starting at ${request.url}`);
      visited.add(target);
      current = target;
    }
  };
}

function resolveRedirect(location: string, base: string): string | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next.href : undefined;
  } catch {
    return undefined;
  }
}
