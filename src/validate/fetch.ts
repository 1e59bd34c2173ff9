/**
 * Fetching a sitemap given by URL, with the transport rules (RULES.md §1): the URL must answer 200
 * (FETCH-001), without a login (FETCH-004), and should not redirect (FETCH-002). robots.txt
 * (FETCH-003) belongs to the tree walk, which reads it anyway. Redirects are followed by hand so each hop is
 * seen; the body is handed on as a stream.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import { DEFAULT_USER_AGENT } from '../version.js';

const MAX_REDIRECTS = 10;

export type FetchOutcome =
  | { ok: true; body: ReadableStream<Uint8Array>; finalUrl: string; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };


export async function fetchSitemap(url: string, signal?: AbortSignal): Promise<FetchOutcome> {
  const diagnostics: Diagnostic[] = [];
  const fail = (message: string): FetchOutcome => {
    diagnostics.push(diagnostic('FETCH-001', message, { source: url }));
    return { ok: false, diagnostics };
  };
  const hops: string[] = [];
  let current = url;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(current, { redirect: 'manual', signal, headers: { 'user-agent': DEFAULT_USER_AGENT, accept: 'application/xml, text/xml, text/plain, */*' } });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return fail(`${current} could not be fetched (${cause?.code ?? cause?.message ?? (error as Error).message}); check the address and that the server is up`);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      hops.push(`${response.status} → ${location}`);
      if (hops.length > MAX_REDIRECTS) return fail(`${url} redirects more than ${MAX_REDIRECTS} times (${hops.slice(0, 3).join(', ')} …); fix the redirect loop`);
      current = new URL(location, current).href;
      continue;
    }
    if (hops.length > 0) {
      diagnostics.push(diagnostic('FETCH-002', `${url} redirects (${hops.join(', ')}); submit and link the final URL ${current} instead`, { source: url }));
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      diagnostics.push(diagnostic('FETCH-004', `${current} answered HTTP ${response.status}: crawlers cannot log in; serve the sitemap without authentication`, { source: url }));
      return { ok: false, diagnostics };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return fail(`${current} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}; it must answer 200 with the sitemap`);
    }
    if (response.body === null) return fail(`${current} answered 200 with no body; the response must contain the sitemap`);
    return { ok: true, body: response.body, finalUrl: current, diagnostics };
  }
}
