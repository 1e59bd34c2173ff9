import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (two folders up from dist/src or src). */
function readVersion(): string {
  for (const relative of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'sitemapkit' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

/** sitemapkit's version. */
export const VERSION = readVersion();
export const PROJECT_URL = 'https://github.com/sitemapkit/sitemapkit';
/** The User-Agent sitemapkit sends unless told otherwise. */
export const DEFAULT_USER_AGENT = `sitemapkit/${VERSION} (+${PROJECT_URL})`;
