/**
 * Rules on one `loc` as the parser kept it (RULES.md §3): length (URL-002), scope (URL-004/005),
 * session IDs (URL-007) and fragments (URL-008). Syntax (URL-001/003) is the parser's.
 */
import { LIMITS } from '../core/limits.js';
import type { LocatedEntry } from '../parse/types.js';
import { type Reporter } from './reporter.js';
import type { Scope } from './scope.js';

/** URL-002, for page URLs and index children alike. */
export function checkUrlLength(located: LocatedEntry, report: Reporter): void {
  const length = located.entry.loc.length;
  if (length > LIMITS.maxUrlLength) {
    report.field(
      'URL-002',
      `the URL is ${length} characters long; the protocol allows at most ${LIMITS.maxUrlLength}: shorten it (fewer query parameters, shorter slugs)`,
      located,
      'loc',
    );
  } else if (length === LIMITS.maxUrlLength) {
    report.field(
      'URL-002',
      `the URL is exactly ${LIMITS.maxUrlLength} characters long; the protocol asks for fewer than ${LIMITS.maxUrlLength}: shorten it`,
      located,
      'loc',
      'warning',
    );
  } else if (length < LIMITS.minUrlLength) {
    report.field(
      'URL-002',
      `the URL is only ${length} characters long, below the schema's minimum of ${LIMITS.minUrlLength}: check that it is complete`,
      located,
      'loc',
      'warning',
    );
  } else if (length > LIMITS.yandexMaxUrlLength) {
    report.field(
      'URL-002',
      `the URL is ${length} characters long; Yandex ignores URLs over ${LIMITS.yandexMaxUrlLength} characters: shorten it if Yandex matters to you`,
      located,
      'loc',
      'warning',
    );
  }
}

/** URL-004/005: the page is on the sitemap's host and in its directory. */
export function checkPageScope(located: LocatedEntry, scope: Scope, report: Reporter): void {
  const result = scope.check(located.entry.loc);
  if (result === 'other-host') {
    report.field(
      'URL-004',
      `the URL is not on ${scope.origin}, the origin of this sitemap: ${scope.advice()}`,
      located,
      'loc',
      scope.severity,
    );
  } else if (result === 'outside-directory') {
    report.field(
      'URL-005',
      `the URL is outside ${scope.directory}, the folder of this sitemap: ${scope.advice()}`,
      located,
      'loc',
      scope.severity,
    );
  }
}

/** Query or path parameters that carry a session, so each visit gets a new URL. */
const SESSION_PARAMETER =
  /[?&;](?:sid|s_id|sessid|sessionid|session_id|session|jsessionid|phpsessid|aspsessionid[a-z]*|cfid|cftoken|zenid|oscsid)=/i;

export function checkSessionId(located: LocatedEntry, report: Reporter): void {
  const match = SESSION_PARAMETER.exec(located.entry.loc);
  if (match) {
    report.field(
      'URL-007',
      `the URL carries a session ID (${match[0].slice(1, -1)}); list the URL without it, so every crawl sees one address per page`,
      located,
      'loc',
    );
  }
}

export function checkFragment(located: LocatedEntry, report: Reporter): void {
  const hash = located.entry.loc.indexOf('#');
  if (hash >= 0 && hash < located.entry.loc.length - 1) {
    report.field(
      'URL-008',
      `the fragment "${located.entry.loc.slice(hash)}" is never sent to the server, so crawlers ignore it; list the URL without it`,
      located,
      'loc',
    );
  }
}
