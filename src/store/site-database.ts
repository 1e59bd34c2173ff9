/** Where the state of one site's crawl lives: one SQLite file per site under the state directory. */
import { join } from 'node:path';

/** `.sitemapkit/` in the working directory unless `--state` says otherwise. */
export const DEFAULT_STATE_DIR = '.sitemapkit';

/** `https://Example.com:8080/x` → `<stateDir>/crawl-https-example.com-8080.sqlite`. */
export function siteDatabasePath(stateDir: string, siteUrl: string): string {
  const url = new URL(siteUrl);
  const port = url.port === '' ? '' : `-${url.port}`;
  const host = url.hostname.replace(/[^A-Za-z0-9.-]/g, '_');
  return join(stateDir, `crawl-${url.protocol.replace(':', '')}-${host}${port}.sqlite`);
}
