/**
 * The audit's findings: a short name per kind of trouble with a listed URL (the vocabulary of the
 * rows, `--json` and the report), each one rule of the catalog, whose code, severity, title, why
 * and fix it takes. The order here is the order of the report.
 */
import { RULES, type RuleInfo } from '../core/catalog.js';
import type { Severity } from '../core/diagnostics.js';

/** Each finding's name → the code of its rule in the catalog (RULES), in report order. */
export const FINDINGS = {
  'http-4xx': 'URL-011',
  'http-5xx': 'URL-014',
  unreachable: 'URL-015',
  'robots-blocked': 'URL-010',
  noindex: 'URL-013',
  redirect: 'URL-012',
  'soft-404': 'URL-022',
  'canonical-elsewhere': 'URL-016',
  'duplicate-content': 'URL-023',
  'http-on-https': 'URL-018',
  'duplicate-listing': 'URL-006',
  'cut-off': 'URL-021',
  'lastmod-future': 'DATE-005',
  'lastmod-stale': 'DATE-008',
  'hreflang-mismatch': 'HREF-007',
  'hreflang-no-return': 'HREF-008',
  orphan: 'URL-019',
  'not-listed': 'URL-020',
  'not-html': 'URL-017',
} as const;

/** A finding's name, as rows, `--json` and the report say it. */
export type Finding = keyof typeof FINDINGS;

export const FINDING_NAMES = Object.keys(FINDINGS) as Finding[];

/** A finding's rule, as the catalog has it. */
export function ruleOf(finding: Finding): RuleInfo & { code: string } {
  const code = FINDINGS[finding];
  return { code, ...RULES[code]! };
}

export function severityOf(finding: Finding): Severity {
  return RULES[FINDINGS[finding]]!.severity;
}

/** Findings as one number, a bit each (for the store), and back. */
export function findingBits(findings: readonly Finding[]): number {
  let bits = 0;
  for (const finding of findings) bits |= 1 << FINDING_NAMES.indexOf(finding);
  return bits;
}

/** Findings in report order, without repeats. */
export function inReportOrder(findings: Iterable<Finding>): Finding[] {
  const present = new Set(findings);
  return FINDING_NAMES.filter((finding) => present.has(finding));
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** True when `severity` is `level` or worse. */
export function reaches(severity: Severity, level: Severity): boolean {
  return RANK[severity] >= RANK[level];
}
