/**
 * Sitemap pings (`--ping URL_TEMPLATE`): a GET of the template with `{sitemap}` replaced by the
 * URL-encoded sitemap URL, for the search engines that still take one. Google's and Bing's were
 * retired (2023, 2022: ENG-001, ENG-002): a template of theirs is still sent, as asked, with a
 * warning that it submits nothing.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import { HttpError, type HttpClient } from '../http/client.js';
import type { PingResult } from '../report/submit.js';

export const SITEMAP_PLACEHOLDER = '{sitemap}';

/** The ping URL of `template` for `sitemap`. */
export function pingUrl(template: string, sitemap: string): string {
  return template.replaceAll(SITEMAP_PLACEHOLDER, encodeURIComponent(sitemap));
}

/** Pings each template for each sitemap, one after the other. */
export async function ping(
  http: HttpClient,
  templates: readonly string[],
  sitemaps: readonly string[],
  options: {
    dryRun: boolean;
    signal?: AbortSignal | undefined;
    onProblem?: ((problem: Diagnostic) => void) | undefined;
  },
): Promise<PingResult[]> {
  const results: PingResult[] = [];
  for (const template of templates) {
    const retired = retiredPing(template);
    if (retired) options.onProblem?.(retired);
    for (const sitemap of sitemaps) {
      const url = pingUrl(template, sitemap);
      if (options.dryRun) {
        results.push({ url, ok: true, outcome: 'not sent: --dry-run' });
        continue;
      }
      results.push(await pingOne(http, url, options.signal));
    }
  }
  return results;
}

async function pingOne(http: HttpClient, url: string, signal: AbortSignal | undefined): Promise<PingResult> {
  try {
    const response = await http.get(url, { accept: '*/*', maxBytes: 0, ...(signal ? { signal } : {}) });
    response.discard();
    const ok = response.status >= 200 && response.status < 300;
    return {
      url,
      status: response.status,
      ok,
      outcome: `HTTP ${response.status}${ok ? '' : ': the ping was not taken'}`,
    };
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    return { url, ok: false, outcome: `no answer: ${error.message}` };
  }
}

/** ENG-001 or ENG-002 for a template of a retired ping endpoint. */
function retiredPing(template: string): Diagnostic | undefined {
  let host: string;
  try {
    host = new URL(template.replaceAll(SITEMAP_PLACEHOLDER, 'x')).hostname;
  } catch {
    return undefined;
  }
  if (/(^|\.)google\.[a-z.]+$/.test(host))
    return diagnostic(
      'ENG-001',
      `${template}: Google's sitemap ping was retired in 2023 and submits nothing (it answers 404)`,
    );
  if (/(^|\.)bing\.com$/.test(host))
    return diagnostic(
      'ENG-002',
      `${template}: Bing's sitemap ping was retired in 2022 and submits nothing; IndexNow reaches Bing`,
    );
  return undefined;
}
