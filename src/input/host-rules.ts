/**
 * The rule files a static host reads from the root of a build folder, read as the host does:
 * `_redirects` and `_headers` (Netlify, Cloudflare Pages), `vercel.json` (`redirects`,
 * `headers`, `cleanUrls`, `trailingSlash`), `.htaccess` (`ErrorDocument 404`) and `robots.txt`
 * (through core/robots-txt.ts, the one robots.txt matcher). A page the host redirects, or
 * serves with `X-Robots-Tag: noindex`, or that robots.txt disallows, is not one to list.
 *
 * Patterns: `_redirects` and `_headers` paths may end in a `*` splat or hold `:name`
 * placeholders (one segment); vercel.json sources are path-to-regexp patterns, of which the
 * common forms are read (`:name`, `:name*`, `:name+`, `(.*)`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeRegExp } from '../core/regexp.js';
import { parseRobotsTxt, type RobotsRules } from '../core/robots-txt.js';
import { addRobotsHeader, noDirectives } from '../html/directives.js';

/** A redirect rule of the host: which paths, and where they go. */
interface RedirectRule {
  test: RegExp;
  to: string;
  /** The file and line (or entry) that says so, for the left-out page's reason. */
  where: string;
}

interface HeaderRule {
  test: RegExp;
  where: string;
}

/** How the host serves page URLs, when its config says (vercel.json). */
export interface HostUrlForms {
  cleanUrls?: boolean;
  trailingSlash?: boolean;
}

/** What the rule files of a build folder say about its pages. */
export class HostRules {
  private constructor(
    private readonly redirects: RedirectRule[],
    private readonly noindexHeaders: HeaderRule[],
    /** robots.txt of the folder, its text by line, or undefined when it has none. */
    readonly robots: { rules: RobotsRules; lines: string[] } | undefined,
    readonly urlForms: HostUrlForms,
    /** Pages the host config serves for "not found" (relative paths), with the file that says so. */
    readonly notFoundPages: Map<string, string>,
    /** Problems reading the files (a vercel.json that is not JSON): said once, not fatal. */
    readonly problems: string[],
  ) {}

  /** Reads the rule files at the root of `dir` (those present). `baseUrl`: the folder's public URL. */
  static async read(dir: string, baseUrl: string): Promise<HostRules> {
    const redirects: RedirectRule[] = [];
    const headers: HeaderRule[] = [];
    const notFound = new Map<string, string>();
    const problems: string[] = [];
    const urlForms: HostUrlForms = {};
    const text = (name: string) => readFile(join(dir, name), 'utf8').catch(() => undefined);

    const redirectsFile = await text('_redirects');
    if (redirectsFile !== undefined) readRedirectsFile(redirectsFile, redirects, notFound);
    const headersFile = await text('_headers');
    if (headersFile !== undefined) readHeadersFile(headersFile, headers);
    const vercel = await text('vercel.json');
    if (vercel !== undefined) {
      try {
        readVercelJson(JSON.parse(vercel) as unknown, redirects, headers, urlForms);
      } catch (error) {
        problems.push(`vercel.json is not valid JSON (${(error as Error).message}): its rules are not applied`);
      }
    }
    const htaccess = await text('.htaccess');
    const errorDocument = htaccess && /^\s*ErrorDocument\s+404\s+\/?(\S+)/im.exec(htaccess);
    if (errorDocument) notFound.set(pagePathOf(errorDocument[1]!), '.htaccess ErrorDocument 404');
    const robotsText = await text('robots.txt');
    const robots =
      robotsText === undefined
        ? undefined
        : { rules: parseRobotsTxt(robotsText, new URL('/robots.txt', baseUrl).href), lines: robotsText.split(/\r?\n/) };
    return new HostRules(redirects, headers, robots, urlForms, notFound, problems);
  }

  /** True when a redirect or header rule may match a path (most folders have none: no path need be decoded). */
  get hasPathRules(): boolean {
    return this.redirects.length > 0 || this.noindexHeaders.length > 0;
  }

  /** Where the host redirects `path` (the URL's path, decoded), and which rule says so. */
  redirectOf(path: string): { to: string; where: string } | undefined {
    const rule = this.redirects.find((candidate) => candidate.test.test(path));
    return rule && { to: rule.to, where: rule.where };
  }

  /** The header rule that serves `path` with `X-Robots-Tag: noindex`, if one does. */
  noindexHeaderOf(path: string): string | undefined {
    return this.noindexHeaders.find((rule) => rule.test.test(path))?.where;
  }

  /**
   * The robots.txt line that disallows `url` for crawlers in general (the `*` group, or the group
   * of the engines sitemapkit reads for: Googlebot, Bingbot), as "line N: Disallow: …"; undefined
   * when it is allowed.
   */
  disallowingLine(url: string): string | undefined {
    if (this.robots === undefined) return undefined;
    const agent = ['*', 'Googlebot', 'Bingbot'].find((candidate) => !this.robots!.rules.isAllowed(url, candidate));
    if (agent === undefined) return undefined;
    // The rule that matches, found by asking the same matcher about each Disallow line alone.
    const { lines } = this.robots;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.replace(/#.*/, '').trim();
      const disallow = /^disallow\s*:\s*(\S.*)$/i.exec(line);
      if (!disallow) continue;
      const alone = parseRobotsTxt(`User-agent: *\nDisallow: ${disallow[1]!.trim()}\n`, 'https://robots.invalid/');
      const { pathname, search } = new URL(url);
      if (!alone.isAllowed(`https://robots.invalid${pathname}${search}`))
        return `robots.txt line ${i + 1}: ${lines[i]!.trim()} (for ${agent === '*' ? 'every crawler' : agent})`;
    }
    return `robots.txt disallows it for ${agent === '*' ? 'every crawler' : agent}`;
  }
}

/** `/docs/old /docs/new 301`; a 200 is a rewrite (the page is served), a 404 names the not-found page. */
function readRedirectsFile(text: string, redirects: RedirectRule[], notFound: Map<string, string>): void {
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/(^|\s)#.*/, '').trim();
    const [from, to, status = '301'] = line.split(/\s+/);
    if (from === undefined || to === undefined || !from.startsWith('/')) return;
    const code = Number.parseInt(status, 10);
    const where = `_redirects line ${index + 1}`;
    if (code === 404) notFound.set(pagePathOf(to), where);
    else if (code >= 300 && code < 400) redirects.push({ test: splatPattern(from), to, where });
  });
}

/** Blocks of a path line followed by indented `Name: value` lines. */
function readHeadersFile(text: string, headers: HeaderRule[]): void {
  let path: { test: RegExp; line: number } | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '' || raw.trim().startsWith('#')) return;
    if (!/^\s/.test(raw)) {
      path = raw.trim().startsWith('/') ? { test: splatPattern(raw.trim()), line: index + 1 } : undefined;
      return;
    }
    const header = /^\s*x-robots-tag\s*:\s*(.*)$/i.exec(raw);
    if (path && header && addRobotsHeader(noDirectives(), header[1]!).noindex)
      headers.push({ test: path.test, where: `_headers line ${path.line}` });
  });
}

function readVercelJson(
  config: unknown,
  redirects: RedirectRule[],
  headers: HeaderRule[],
  urlForms: HostUrlForms,
): void {
  if (config === null || typeof config !== 'object') return;
  const { redirects: redirectList, headers: headerList, cleanUrls, trailingSlash } = config as Record<string, unknown>;
  if (typeof cleanUrls === 'boolean') urlForms.cleanUrls = cleanUrls;
  if (typeof trailingSlash === 'boolean') urlForms.trailingSlash = trailingSlash;
  if (Array.isArray(redirectList)) {
    redirectList.forEach((rule: unknown, index) => {
      const { source, destination, has } = (rule ?? {}) as Record<string, unknown>;
      // A redirect only under conditions (a header, a cookie) leaves the page served otherwise.
      if (typeof source !== 'string' || typeof destination !== 'string' || has !== undefined) return;
      redirects.push({ test: pathToRegExp(source), to: destination, where: `vercel.json redirects[${index}]` });
    });
  }
  if (Array.isArray(headerList)) {
    headerList.forEach((rule: unknown, index) => {
      const { source, headers: values } = (rule ?? {}) as Record<string, unknown>;
      if (typeof source !== 'string' || !Array.isArray(values)) return;
      const noindex = values.some((value: unknown) => {
        const { key, value: text } = (value ?? {}) as Record<string, unknown>;
        return (
          typeof key === 'string' &&
          key.toLowerCase() === 'x-robots-tag' &&
          typeof text === 'string' &&
          addRobotsHeader(noDirectives(), text).noindex
        );
      });
      if (noindex) headers.push({ test: pathToRegExp(source), where: `vercel.json headers[${index}]` });
    });
  }
}

/** A `_redirects`/`_headers` path: `*` matches the rest (any characters), `:name` one segment. */
function splatPattern(pattern: string): RegExp {
  const source = pattern
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** The common path-to-regexp forms of a vercel.json source: `:name`, `:name*`, `:name+`, `(.*)`. */
function pathToRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(:[A-Za-z_][A-Za-z0-9_]*[*+?]?|\(\.\*\))/)
    .map((part) => {
      if (part === '(.*)') return '.*';
      if (!part.startsWith(':')) return escapeRegExp(part);
      if (part.endsWith('*')) return '.*';
      if (part.endsWith('+')) return '.+';
      return part.endsWith('?') ? '[^/]*' : '[^/]+';
    })
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** `/404.html` or `notfound` → the page's path relative to the folder (`404.html`, `notfound`). */
function pagePathOf(target: string): string {
  return decodeURIComponent(
    target
      .replace(/^https?:\/\/[^/]+/, '')
      .replace(/^\/+/, '')
      .replace(/[?#].*$/, ''),
  );
}
