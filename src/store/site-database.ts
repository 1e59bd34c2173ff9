/**
 * Where state lives under the state directory: one SQLite file per site for `crawl` (and two for
 * `audit`), one ledger for `generate --state` (its sites are rows in it, so `submit --from-state`
 * reads one file).
 */
import { join } from 'node:path';

/** `.sitemapkit/` in the working directory unless `--state` says otherwise. */
export const DEFAULT_STATE_DIR = '.sitemapkit';

/** `https://Example.com:8080/x` → `<stateDir>/crawl-https-example.com-8080.sqlite`. */
export function siteDatabasePath(stateDir: string, siteUrl: string, kind = 'crawl'): string {
  const url = new URL(siteUrl);
  const port = url.port === '' ? '' : `-${url.port}`;
  const host = url.hostname.replace(/[^A-Za-z0-9.-]/g, '_');
  return join(stateDir, `${kind}-${url.protocol.replace(':', '')}-${host}${port}.sqlite`);
}

/**
 * The state of `audit` of a site (`audit-https-example.com.sqlite`), and of the crawl it makes
 * with --crawl (`audit-crawl-…`), apart from `crawl`'s own so neither spoils the other.
 */
export function auditDatabasePaths(stateDir: string, siteUrl: string): { audit: string; crawl: string } {
  return {
    audit: siteDatabasePath(stateDir, siteUrl, 'audit'),
    crawl: siteDatabasePath(stateDir, siteUrl, 'audit-crawl'),
  };
}

/** `<stateDir>/generate.sqlite`: the ledger of `generate --state`, with its runs and their changes. */
export function generateLedgerPath(stateDir: string): string {
  return join(stateDir, 'generate.sqlite');
}
