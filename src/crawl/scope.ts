/**
 * Which URLs belong to the crawl: the scheme, host and port of the start URL (of each start URL,
 * for a site of several hosts), narrowed by
 * `--include` / `--exclude` globs. A glob that starts with "http" is matched against the whole
 * URL; any other against the path and query ("/blog/**", "/search*").
 */
import picomatch from 'picomatch';
import { looksAbsoluteHttp } from '../core/url.js';

export interface ScopeOptions {
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
}

export type ScopeVerdict = { inScope: true } | { inScope: false; why: string };

export type Scope = (url: string) => ScopeVerdict;

type Matcher = (url: URL) => boolean;

function globMatcher(pattern: string): Matcher {
  const test = picomatch(pattern, { dot: true });
  return looksAbsoluteHttp(pattern) ? (url) => test(url.href) : (url) => test(url.pathname + url.search);
}

export function createScope(startUrls: string | readonly string[], options: ScopeOptions = {}): Scope {
  const origins = new Set((typeof startUrls === 'string' ? [startUrls] : startUrls).map((url) => new URL(url).origin));
  const named = [...origins].join(' or ');
  const includes = (options.include ?? []).map((p) => ({ pattern: p, test: globMatcher(p) }));
  const excludes = (options.exclude ?? []).map((p) => ({ pattern: p, test: globMatcher(p) }));
  return (text) => {
    const url = new URL(text);
    if (!origins.has(url.origin)) return { inScope: false, why: `not on ${named}` };
    if (includes.length > 0 && !includes.some((include) => include.test(url))) {
      return { inScope: false, why: `matches no --include (${includes.map((i) => i.pattern).join(', ')})` };
    }
    const excluded = excludes.find((exclude) => exclude.test(url));
    if (excluded) return { inScope: false, why: `matches --exclude ${excluded.pattern}` };
    return { inScope: true };
  };
}
