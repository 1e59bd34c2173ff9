/**
 * Rules on one `loc` as the parser kept it (docs/rules.md): length (URL-002), session IDs (URL-007)
 * and fragments (URL-008) by the URL rules of core, and scope (URL-004/005), which needs the
 * sitemap's location. Syntax (URL-001/003) is the parser's.
 */
import { pageUrlProblems } from '../core/rules/url.js';
import { urlLengthProblem } from '../core/url.js';
import type { LocatedEntry } from '../parse/types.js';
import { type Reporter } from './reporter.js';
import type { Scope } from './scope.js';

/** URL-002, URL-007 and URL-008 on a page's loc. */
export function checkPageUrl(located: LocatedEntry, report: Reporter): void {
  report.rules(pageUrlProblems(located.entry.loc), located, 'loc');
}

/** URL-002 on an index child's loc. */
export function checkChildUrl(located: LocatedEntry, report: Reporter): void {
  const length = urlLengthProblem(located.entry.loc);
  if (length) report.rules([length], located, 'loc');
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
