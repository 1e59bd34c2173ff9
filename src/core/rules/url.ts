/**
 * URL fields (docs/rules.md): `loc`, an index child's `loc`, and the URL-typed fields of the
 * extensions. Reading a field decides whether its text is an absolute http(s) URL, either as
 * written (a sitemap reader keeps the text and reports what is wrong with it) or normalised (a
 * writer percent-encodes and punycodes it into the form a sitemap must hold). Judging a page URL
 * covers what is wrong with a URL that reads well: its length, a session ID, a fragment.
 */
import { findUrlSyntaxProblem, fragmentProblem, normaliseUrl, sessionIdProblem, urlLengthProblem } from '../url.js';
import { splitUserinfo, userinfoProblem } from '../url-userinfo.js';
import { accepted, NO_PROBLEMS, problem, refused, shown, type Checked, type RuleProblem } from './problem.js';

export interface UrlReading {
  /** 'as-written' keeps the text and reports its faults; 'normalise' turns it into a sitemap's form. */
  mode: 'as-written' | 'normalise';
  /**
   * 'page' for `loc` (any relative reference resolves against the base, as documents and URL
   * lists mean it); 'extension' for the URLs inside image, video and hreflang blocks, where a
   * value that is not a URL (free text such as "Free License", "None") is never resolved into an
   * invented one: only a path starting with "/" is taken as a reference.
   */
  field: 'page' | 'extension';
  /** Where relative references resolve: the document's URL, or the generator's base URL. */
  base?: string | undefined;
  /** The code of a value that is no absolute http(s) URL (URL-001 unless the field has its own rule). */
  code?: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const WHITESPACE = /\s/;

/** Reads a URL field's text: the URL to keep, or none, with the problems of the text. */
export function readUrl(text: string, reading: UrlReading): Checked<string> {
  const code = reading.code ?? 'URL-001';
  const value = text.trim();
  const asWritten = reading.mode === 'as-written';
  const trimmed =
    asWritten && value.length !== text.length
      ? [problem('URL-003', 'whitespace around the URL was removed; write the URL alone', 'warning')]
      : NO_PROBLEMS;
  if (value === '') return refused(problem(code, 'the URL is empty'));
  const scheme = value.startsWith('https://')
    ? 'https'
    : value.startsWith('http://')
      ? 'http'
      : SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    if (!asWritten) return normalised(value, undefined, code);
    // Even as written, a user name and password are never kept: what is read is printed and stored.
    const userinfo = splitUserinfo(value);
    const kept = userinfo?.url ?? value;
    const syntax = findUrlSyntaxProblem(kept);
    const problems = [...trimmed, ...(userinfo ? [userinfoProblem(userinfo.host)] : []), ...(syntax ? [syntax] : [])];
    return accepted(kept, problems.length > 0 ? problems : NO_PROBLEMS);
  }
  if (scheme !== undefined) {
    return refused(problem(code, `${shown(value)} is not an http(s) URL; only http and https URLs can be listed`));
  }
  // Without a base URL a path cannot be resolved either: it is kept as it stands, as free text is.
  if (reading.field === 'extension' && (!looksLikePath(value) || reading.base === undefined)) {
    const why = `${shown(value)} is not an absolute URL; write it with https:// and the host`;
    return asWritten
      ? accepted(value, [...trimmed, problem(code, `${why} (kept as written)`)])
      : refused(problem(code, why));
  }
  if (reading.base === undefined) {
    return refused(problem(code, `${shown(value)} is a relative URL and no base URL is known; write absolute URLs`));
  }
  if (!asWritten) return normalised(value, reading.base, code);
  let resolved: string;
  try {
    resolved = new URL(value, reading.base).href;
  } catch {
    return refused(problem(code, `${shown(value)} is not a valid URL`));
  }
  return accepted(resolved, [
    ...trimmed,
    problem(code, `${shown(value)} is relative; read as ${resolved} (write absolute URLs)`),
  ]);
}

/** A path or network-path reference ("/img/a.jpg", "//cdn.example.com/a.jpg"): text that can only be a URL. */
function looksLikePath(value: string): boolean {
  return value.startsWith('/') && !WHITESPACE.test(value);
}

/**
 * An http(s) URL that URL parsing would give back unchanged: a lower-case host name whose last
 * label starts with a letter (so no IPv4 shorthand), no port, and a path and query made only of
 * characters that serialisation keeps as they are.
 */
const CANONICAL_URL =
  /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*\/(?:[A-Za-z0-9\-._~!$&()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;
/** Dot segments (`/./`, `/../`, also written `%2e`) that URL parsing would remove. */
const DOT_SEGMENT = /\/\.|%2e/i;
/** Characters RFC 3986 forbids that WHATWG URL serialisation leaves raw. */
const LEFTOVER = /[|^`{}"<>\\ ]/g;

/** The URL in the form a sitemap must hold: absolute, percent-encoded, the host in punycode. */
function normalised(value: string, base: string | undefined, code: string): Checked<string> {
  // Most URLs given to a writer are canonical already, and parsing them again (the costliest
  // step per entry) would give the same text back.
  if (base === undefined && CANONICAL_URL.test(value) && !DOT_SEGMENT.test(value)) return accepted(value);
  const result = normaliseUrl(value, base);
  if (!result.ok) return refused(result.problem.code === 'URL-001' ? { ...result.problem, code } : result.problem);
  const encoded = result.value.replace(LEFTOVER, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  const syntax = findUrlSyntaxProblem(encoded);
  if (syntax) return refused(problem(syntax.code, `${shown(value)}: ${syntax.message}`));
  return accepted(
    encoded,
    result.userinfoRemoved === undefined ? NO_PROBLEMS : [userinfoProblem(result.userinfoRemoved)],
  );
}

// ── judging a page URL ─────────────────────────────────────────────────────────────────────────

/** Every judgement on a page URL that reads well: length, session ID, fragment. */
export function pageUrlProblems(url: string): readonly RuleProblem[] {
  const length = urlLengthProblem(url);
  const session = sessionIdProblem(url);
  const fragment = fragmentProblem(url);
  if (!length && !session && !fragment) return NO_PROBLEMS;
  return [length, session, fragment].filter((found): found is RuleProblem => found !== undefined);
}
