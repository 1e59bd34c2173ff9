/**
 * A site's build folder served as a plain static server serves it (nginx, `serve`, S3 website
 * hosting with index documents): a file at its path; a folder's URL with a trailing slash answers
 * its index.html; a folder's URL without one is redirected (301) to it; anything else is 404,
 * with the folder's 404.html when it has one. Each file comes with its modification time as
 * Last-Modified, as those servers send it: for a build folder, the time of the build. A route for
 * test/helpers/serve-site.ts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Reply, Route } from './serve-site.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/**
 * Serves the files of `dir`; with `cleanUrls`, `/page` answers page.html (as VitePress, Astro
 * and Next expect of their hosts).
 */
export function staticFolder(dir: string, { cleanUrls = false } = {}): Route {
  const root = normalize(dir);
  const file = (path: string): Reply => ({
    headers: {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'last-modified': statSync(path).mtime.toUTCString(),
    },
    body: readFileSync(path),
  });
  const notFound = (): Reply => {
    const page = join(root, '404.html');
    return existsSync(page) ? { ...file(page), status: 404 } : { status: 404, body: 'Not Found' };
  };
  return (_origin, url) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(url.pathname);
    } catch {
      return notFound();
    }
    const path = normalize(join(root, decoded));
    if (path !== root && !path.startsWith(root + sep)) return notFound();
    if (!existsSync(path)) return cleanUrls && existsSync(`${path}.html`) ? file(`${path}.html`) : notFound();
    if (statSync(path).isDirectory()) {
      if (!url.pathname.endsWith('/')) return { status: 301, headers: { location: `${url.pathname}/${url.search}` } };
      const index = join(path, 'index.html');
      return existsSync(index) ? file(index) : notFound();
    }
    return url.pathname.endsWith('/') ? notFound() : file(path);
  };
}
