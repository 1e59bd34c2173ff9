/**
 * The IndexNow key file: where it is for a host, which URLs it covers, and whether it is there as
 * engines will check it (IN-002, IN-003). An engine refuses a whole request (403) when its key file
 * is wrong, so it is checked before the first request for a host, on the URLs' own origin:
 * `{scheme}://{host}/{key}.txt`, or the location given (--key-location), which covers only URLs
 * in its folder and below. It must answer 200 without a redirect, with the key as its body (white
 * space around it allowed: a file saved with a final newline is still the key, engines read it so).
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import { HttpError, isHtmlContentType, type HttpClient } from '../http/client.js';

/** Bytes read of a key file: a key is at most 128 characters. */
const KEY_FILE_BYTES = 1024;

export interface KeyFile {
  /** Where the key file is. */
  url: string;
  /** True when named by --key-location (sent in each request as keyLocation). */
  named: boolean;
}

/** The key file for URLs at `origin`: a location named for its host, or `{origin}/{key}.txt`. */
export function keyFileFor(origin: string, key: string, named: readonly string[]): KeyFile {
  const host = new URL(origin).host;
  const location = named.find((url) => new URL(url).host === host);
  return location === undefined ? { url: `${origin}/${key}.txt`, named: false } : { url: location, named: true };
}

/** True when the key file covers `url`: on its origin, in its folder or below (for a named location). */
export function covers(keyFile: KeyFile, url: string): boolean {
  const file = new URL(keyFile.url);
  const page = new URL(url);
  if (file.host !== page.host) return false;
  if (!keyFile.named) return true;
  const folder = file.pathname.slice(0, file.pathname.lastIndexOf('/') + 1);
  return page.pathname.startsWith(folder);
}

/** Fetches the key file as an engine would; undefined when it is right, else what is wrong (IN-002). */
export async function checkKeyFile(
  http: HttpClient,
  keyFile: KeyFile,
  key: string,
  signal?: AbortSignal,
): Promise<Diagnostic | undefined> {
  const wrong = (why: string) =>
    diagnostic('IN-002', `the key file ${keyFile.url} ${why}; engines will refuse the submissions (403)`, {
      url: keyFile.url,
    });
  let response;
  try {
    response = await http.get(keyFile.url, { accept: 'text/plain, */*;q=0.5', maxBytes: KEY_FILE_BYTES, signal });
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    return wrong(`could not be fetched: ${error.message}`);
  }
  try {
    if (response.redirects.length > 0)
      return wrong(`redirects to ${response.url}: it must answer 200 itself, engines do not follow`);
    if (response.status !== 200) return wrong(`answered HTTP ${response.status}, not 200`);
    let text = '';
    for await (const chunk of response.body) text += Buffer.from(chunk).toString('utf8');
    if (isHtmlContentType(response.headers['content-type']) || /^\s*</.test(text))
      return wrong('is an HTML page: publish a plain text file holding only the key');
    if (text.trim() !== key)
      return wrong(
        `holds ${JSON.stringify(text.trim().slice(0, 60))}${text.trim().length > 60 ? '…' : ''}, not the key`,
      );
    return undefined;
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind === 'aborted') throw error;
    return wrong(`broke off: ${error.message}`);
  } finally {
    response.discard();
  }
}
