/**
 * URL rules of the protocol (docs/rules.md): `loc` is an absolute http(s) URL, percent-encoded
 * (RFC 3986; IRIs become URIs per RFC 3987: non-ASCII as UTF-8 %HH, IDN hosts as punycode),
 * fewer than 2,048 characters. The field rules built on these are in rules/url.ts.
 */
import { LIMITS } from './limits.js';
import { problem, type RuleProblem } from './rules/problem.js';

/**
 * Why a URL cannot be listed: not absolute http(s) (URL-001), too long (URL-002), badly encoded
 * (URL-003).
 */
export type UrlProblem = { code: 'URL-001' | 'URL-002' | 'URL-003'; message: string };
/** The URL as a sitemap must hold it, or why it cannot be listed. */
export type UrlResult =
  | {
      ok: true;
      value: string;
      /** The host whose user name or password was removed from the URL (URL-024), when it had one. */
      userinfoRemoved?: string;
    }
  | { ok: false; problem: UrlProblem };

/** http:// or https:// and the first character of a host. */
const ABSOLUTE_HTTP = /^https?:\/\/[^/?#\s]/i;

/**
 * True when the text starts like an absolute http(s) URL: the scheme, `//` and a host (cheap; no
 * full parse). Every part of sitemapkit that tells a URL from a path, a relative reference or a
 * glob asks here.
 */
export function looksAbsoluteHttp(text: string): boolean {
  return ABSOLUTE_HTTP.test(text);
}

/**
 * Turns a URL as a person or a file gives it into the URI a sitemap must hold: resolved against
 * `base` when relative, spaces and non-ASCII characters percent-encoded, the host in punycode.
 * Refuses anything that is not http(s) or that is too long once encoded (URL-002: over 2,048
 * characters is an error; a URL of exactly 2,048 is only a warning, judged by urlLengthProblem).
 * A user name and password are removed (`userinfoRemoved` names the host).
 */
export function normaliseUrl(input: string, base?: string): UrlResult {
  const text = input.trim();
  if (text === '') return { ok: false, problem: { code: 'URL-001', message: 'the URL is empty' } };
  let parsed: URL;
  try {
    parsed = base === undefined ? new URL(text) : new URL(text, base);
  } catch {
    return {
      ok: false,
      problem: {
        code: 'URL-001',
        message:
          base === undefined
            ? `"${text}" is not an absolute URL; write it with https:// and a host`
            : `"${text}" is not a valid URL`,
      },
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      ok: false,
      problem: {
        code: 'URL-001',
        message: `"${text}" uses ${parsed.protocol} ; only http and https URLs may be listed`,
      },
    };
  }
  if (parsed.hostname === '') {
    return { ok: false, problem: { code: 'URL-001', message: `"${text}" has no host` } };
  }
  // A user name or password is never written on (url-userinfo.ts): the caller says so.
  const userinfo = parsed.username !== '' || parsed.password !== '' ? parsed.host : undefined;
  // Only then: each setter serialises the URL again, and normalising is on the path of every
  // link a crawl meets.
  if (userinfo !== undefined) {
    parsed.username = '';
    parsed.password = '';
  }
  const value = parsed.href;
  const length = urlLengthProblem(value);
  if (length !== undefined && length.severity === undefined)
    return { ok: false, problem: { code: 'URL-002', message: length.message } };
  return userinfo === undefined ? { ok: true, value } : { ok: true, value, userinfoRemoved: userinfo };
}

/** Where the authority (host and port) that starts at `from` ends: at the path, query or fragment. */
export function authorityEnd(url: string, from: number): number {
  let end = from;
  while (end < url.length && !endsAuthority(url.charCodeAt(end))) end++;
  return end;
}

/** Whether a character ends a URL's authority: `/`, `?` or `#`. */
export function endsAuthority(c: number): boolean {
  return c === 0x2f || c === 0x3f || c === 0x23;
}

/** Characters RFC 3986 never allows unencoded in a URI. */
// eslint-disable-next-line no-control-regex -- control characters are among those it must find
const FORBIDDEN_CHARACTER = /[\s"<>{}|\\^`\u0000-\u001f\u007f]|[^\u0000-\u007f]/u;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/**
 * The first RFC 3986 syntax problem of a URL as written in a document (URL-003), or undefined.
 * Unlike normaliseUrl this judges the text as it stands: it does not encode anything.
 */
export function findUrlSyntaxProblem(text: string): UrlProblem | undefined {
  const forbidden = FORBIDDEN_CHARACTER.exec(text);
  if (forbidden) {
    const ch = forbidden[0];
    const shown = /\s/.test(ch) ? 'whitespace' : ch.charCodeAt(0) > 0x7f ? `non-ASCII character "${ch}"` : `"${ch}"`;
    return { code: 'URL-003', message: `the URL contains ${shown}, which must be percent-encoded` };
  }
  if (BAD_PERCENT.test(text)) {
    return { code: 'URL-003', message: 'the URL has a "%" that is not followed by two hexadecimal digits' };
  }
  return undefined;
}

/** URL-002: the protocol's limit (fewer than 2,048 characters), the schema's minimum, Yandex's limit. */
export function urlLengthProblem(url: string): RuleProblem | undefined {
  const length = url.length;
  if (length > LIMITS.maxUrlLength) {
    return problem(
      'URL-002',
      `the URL is ${length} characters long; the protocol allows at most ${LIMITS.maxUrlLength}: shorten it (fewer query parameters, shorter slugs)`,
    );
  }
  if (length === LIMITS.maxUrlLength) {
    return problem(
      'URL-002',
      `the URL is exactly ${LIMITS.maxUrlLength} characters long; the protocol asks for fewer than ${LIMITS.maxUrlLength}: shorten it`,
      'warning',
    );
  }
  if (length < LIMITS.minUrlLength) {
    return problem(
      'URL-002',
      `the URL is only ${length} characters long, below the schema's minimum of ${LIMITS.minUrlLength}: check that it is complete`,
      'warning',
    );
  }
  if (length > LIMITS.yandexMaxUrlLength) {
    return problem(
      'URL-002',
      `the URL is ${length} characters long; Yandex ignores URLs over ${LIMITS.yandexMaxUrlLength} characters: shorten it if Yandex matters to you`,
      'warning',
    );
  }
  return undefined;
}

/** Query or path parameters that carry a session, so each visit gets a new URL. */
const SESSION_PARAMETER =
  /[?&;](?:sid|s_id|sessid|sessionid|session_id|session|jsessionid|phpsessid|aspsessionid[a-z]*|cfid|cftoken|zenid|oscsid)=/i;

/** URL-007: a session ID in the URL. */
export function sessionIdProblem(url: string): RuleProblem | undefined {
  const match = SESSION_PARAMETER.exec(url);
  if (!match) return undefined;
  return problem(
    'URL-007',
    `the URL carries a session ID (${match[0].slice(1, -1)}); list the URL without it, so every crawl sees one address per page`,
  );
}

/** Where a URL's fragment starts, or -1 when it has none (a lone "#" is no fragment). */
export function fragmentStart(url: string): number {
  const hash = url.indexOf('#');
  return hash >= 0 && hash < url.length - 1 ? hash : -1;
}

/** URL-008: a fragment, which is never sent to the server. */
export function fragmentProblem(url: string): RuleProblem | undefined {
  const hash = fragmentStart(url);
  if (hash < 0) return undefined;
  return problem(
    'URL-008',
    `the fragment "${url.slice(hash)}" is never sent to the server, so crawlers ignore it; list the URL without it`,
  );
}

/**
 * Where a URL lies against a sitemap's location: within its scope, on another host, or outside its
 * folder.
 */
export type ScopeResult = 'in-scope' | 'other-host' | 'outside-directory';

/**
 * Whether `url` may be listed by the sitemap at `sitemapUrl` (docs/rules.md URL-004, URL-005): same
 * scheme, host and port, and a path at or below the sitemap's directory.
 */
export function checkScope(url: string, sitemapUrl: string): ScopeResult {
  let target: URL;
  let sitemap: URL;
  try {
    target = new URL(url);
    sitemap = new URL(sitemapUrl);
  } catch {
    return 'other-host';
  }
  if (target.protocol !== sitemap.protocol || target.host !== sitemap.host) return 'other-host';
  const directory = sitemap.pathname.slice(0, sitemap.pathname.lastIndexOf('/') + 1);
  return target.pathname.startsWith(directory) ? 'in-scope' : 'outside-directory';
}

/** `base` joined with a relative path, for printing robots.txt lines and index locations. */
export function joinUrl(base: string, path: string): string {
  return new URL(path, base.endsWith('/') ? base : `${base}/`).href;
}

/** The origin of `url` (`https://example.com`), or undefined when it is no URL. */
export function originOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).origin : undefined;
}
