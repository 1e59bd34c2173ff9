/**
 * The user name and password a URL may carry before its host (`https://admin:hunter2@host/`,
 * RFC 3986's userinfo). A sitemap, a report or a store is read by others, and no engine sends
 * them: sitemapkit removes them from every URL it writes, prints or stores, and says so naming
 * the host only (URL-024), as curl and wget keep them out of what they print.
 */
import { authorityEnd } from './url.js';
import { problem, type RuleProblem } from './rules/problem.js';

const SCHEME_AND_SLASHES = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** The URL without its userinfo and the host it named, or undefined when it has none. */
export function splitUserinfo(url: string): { url: string; host: string } | undefined {
  const start = SCHEME_AND_SLASHES.exec(url)?.[0].length;
  if (start === undefined) return undefined;
  const end = authorityEnd(url, start);
  // The host follows the last "@": a password may hold an unencoded "@" of its own.
  const at = url.lastIndexOf('@', end - 1);
  if (at < start) return undefined;
  return { url: url.slice(0, start) + url.slice(at + 1), host: url.slice(at + 1, end) };
}

/** The URL without its userinfo (the same string when it has none). */
export function withoutUserinfo(url: string): string {
  return splitUserinfo(url)?.url ?? url;
}

/** URL-024: the problem to report when a URL for `host` had a user name or password, removed. */
export function userinfoProblem(host: string): RuleProblem {
  return problem(
    'URL-024',
    `the URL for ${host} carries a user name or password; it was left out (a sitemap is public, and engines never send it): list the URL without it`,
  );
}
