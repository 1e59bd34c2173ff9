/**
 * An audit's report as data: what `--json` prints and the terminal and HTML reports draw. Rows
 * are counted as they stream by (counts by finding, the first examples of each, the statuses,
 * indexable pages, lastmod by month); the sitemaps' own problems come from the discovery.
 */
import { RULES } from '../core/catalog.js';
import type { Severity } from '../core/diagnostics.js';
import { SITEMAPS_KEPT, type Discovery, type SitemapSummary } from './discovery.js';
import { FINDING_NAMES, ruleOf, severityOf, type Finding } from './findings.js';
import type { AuditRow } from './rows.js';
import type { StampedLastModified } from './stamped-headers.js';

export interface FindingExample {
  url: string;
  sitemap?: string;
  line?: number;
  detail: string;
}

/** One finding over all rows. */
export interface CheckReport {
  code: string;
  finding: Finding;
  severity: Severity;
  title: string;
  count: number;
  /** The first EXAMPLES of its rows, in the order listed. */
  examples: FindingExample[];
}

/** One code of the sitemaps' own problems (the validator's, the fetches', robots.txt's). */
export interface SiteCheckReport {
  code: string;
  severity: Severity;
  title: string;
  count: number;
  examples: { sitemap?: string; line?: number; column?: number; url?: string; detail: string }[];
}

/** An audit's report: what `--json` prints and the text and HTML reports draw. */
export interface AuditReport {
  /** The site audited (its origin), or the first sitemap's origin. */
  site: string;
  /** False when the audit was stopped before every URL was checked. */
  complete: boolean;
  /** The audit's clock (--now), which lastmod-future compares with. */
  now: string;
  /** When --max-urls narrowed the URLs checked: how many, of how many, chosen how. */
  sample?: { size: number; of: number; method: string };
  sitemaps: {
    count: number;
    read: number;
    failed: number;
    /** Page entries listed, repeats included. */
    entries: number;
    robots?: { url: string; sitemaps: string[] };
    /** The first SITEMAPS_KEPT sitemaps of the tree, in tree order. */
    list: SitemapSummary[];
  };
  urls: { listed: number; checked: number; indexable: number; notListed?: number };
  /** Findings of the rows and of the sitemaps, by severity. */
  summary: { errors: number; warnings: number; infos: number };
  /** The rows' findings that occurred, in report order. */
  checks: CheckReport[];
  /** The sitemaps' own problems, by code, in the order met. */
  siteChecks: SiteCheckReport[];
  charts: {
    /** Rows by status: "200", "301", "404" …, "blocked" (robots.txt), "no answer". */
    statuses: { label: string; count: number }[];
    indexable: { indexable: number; notIndexable: number };
    /** Checked URLs by the month of their lastmod (YYYY-MM), in order; and those without one. */
    lastmodByMonth: { month: string; count: number }[];
    noLastmod: number;
  };
  crawl?: { site: string; fetched: number; finished: boolean };
  /**
   * duplicate-content by group: listed URLs with the same content, the first listed first (the
   * first DUPLICATE_GROUPS groups, each with its first DUPLICATE_URLS URLs and its size).
   */
  duplicateGroups?: { count: number; urls: string[] }[];
  /**
   * Origins whose pages' Last-Modified is a build's stamp (a static server sends each file's
   * time): lastmod-stale was judged there by the pages' own dates only.
   */
  stampedLastModified?: StampedLastModified[];
}

/** The order problems are listed in: errors, then warnings, then infos. */
const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

/** Examples kept per finding and per site-wide code (the HTML report's tables show them all). */
export const EXAMPLES = 100;
/** Groups of duplicate content the report names, and URLs named per group. */
export const DUPLICATE_GROUPS = 100;
export const DUPLICATE_URLS = 20;

/** Counts rows as they go by; `report()` puts them together with the discovery. */
export class RowTally {
  private readonly counts = new Map<Finding, number>();
  private readonly examples = new Map<Finding, FindingExample[]>();
  private readonly statuses = new Map<string, number>();
  private readonly months = new Map<string, number>();
  private noLastmod = 0;
  private readonly duplicates = new Map<string, { count: number; urls: string[] }>();
  checked = 0;
  indexable = 0;
  notListed = 0;

  add(row: AuditRow): void {
    if (row.duplicateOf !== undefined) this.addDuplicate(row.duplicateOf, row.url);
    for (const finding of row.findings) {
      this.counts.set(finding, (this.counts.get(finding) ?? 0) + 1);
      let examples = this.examples.get(finding);
      if (!examples) this.examples.set(finding, (examples = []));
      if (examples.length < EXAMPLES) {
        examples.push({
          url: row.url,
          ...(row.sitemap === undefined ? {} : { sitemap: row.sitemap }),
          ...(row.line === undefined ? {} : { line: row.line }),
          detail: row.details[finding] ?? '',
        });
      }
    }
    if (row.listed === false) {
      this.notListed += 1;
      return;
    }
    this.checked += 1;
    if (row.indexable) this.indexable += 1;
    const status = statusLabel(row);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (row.lastmod === undefined) this.noLastmod += 1;
    else if (/^\d{4}-\d{2}/.test(row.lastmod)) {
      const month = row.lastmod.slice(0, 7);
      this.months.set(month, (this.months.get(month) ?? 0) + 1);
    }
  }

  private addDuplicate(first: string, url: string): void {
    let group = this.duplicates.get(first);
    if (group === undefined) {
      if (this.duplicates.size >= DUPLICATE_GROUPS) return;
      this.duplicates.set(first, (group = { count: 1, urls: [first] }));
    }
    group.count += 1;
    if (group.urls.length < DUPLICATE_URLS) group.urls.push(url);
  }

  /** The groups of duplicate content, in the order their first URLs were listed. */
  duplicateGroups(): { count: number; urls: string[] }[] {
    return [...this.duplicates.values()];
  }

  /** By severity, errors first, then in the findings' own order. */
  checks(): CheckReport[] {
    const present = FINDING_NAMES.filter((finding) => this.counts.has(finding));
    present.sort((a, b) => SEVERITY_RANK[severityOf(a)] - SEVERITY_RANK[severityOf(b)]);
    return present.map((finding) => {
      const rule = ruleOf(finding);
      return {
        code: rule.code,
        finding,
        severity: rule.severity,
        title: rule.title,
        count: this.counts.get(finding)!,
        examples: this.examples.get(finding)!,
      };
    });
  }

  charts(): AuditReport['charts'] {
    return {
      statuses: [...this.statuses]
        .sort(([a], [b]) => statusOrder(a) - statusOrder(b) || a.localeCompare(b))
        .map(([label, count]) => ({ label, count })),
      indexable: { indexable: this.indexable, notIndexable: this.checked - this.indexable },
      lastmodByMonth: [...this.months]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([month, count]) => ({ month, count })),
      noLastmod: this.noLastmod,
    };
  }
}

export interface ReportInputs {
  discovery: Discovery;
  tally: RowTally;
  listed: number;
  complete: boolean;
  now: number;
  sample?: AuditReport['sample'];
  crawl?: AuditReport['crawl'];
  stampedLastModified?: StampedLastModified[];
}

export function auditReport({
  discovery,
  tally,
  listed,
  complete,
  now,
  sample,
  crawl,
  stampedLastModified = [],
}: ReportInputs): AuditReport {
  const checks = tally.checks();
  // Worst first (errors, warnings, infos), in the order met within a severity: a report read from
  // the top, or folded after a few lines, starts with what breaks the site.
  const worstFirst = [...discovery.problems].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
  const siteChecks: SiteCheckReport[] = worstFirst.map((problem) => ({
    code: problem.code,
    severity: problem.severity,
    title: RULES[problem.code]?.title ?? problem.code,
    count: problem.count,
    examples: problem.examples.map((d) => ({
      ...(d.source === undefined ? {} : { sitemap: d.source }),
      ...(d.line === undefined ? {} : { line: d.line }),
      ...(d.column === undefined ? {} : { column: d.column }),
      ...(d.url === undefined ? {} : { url: d.url }),
      detail: d.message,
    })),
  }));
  const summary = { errors: 0, warnings: 0, infos: 0 };
  const KEY = { error: 'errors', warning: 'warnings', info: 'infos' } as const;
  for (const check of [...checks, ...siteChecks]) summary[KEY[check.severity]] += check.count;
  const count = discovery.sitemapCount ?? discovery.sitemaps.length;
  const read = discovery.sitemapsRead ?? discovery.sitemaps.filter((sitemap) => sitemap.ok).length;
  return {
    site: discovery.site,
    complete,
    now: new Date(now).toISOString(),
    ...(sample ? { sample } : {}),
    sitemaps: {
      count,
      read,
      failed: count - read,
      entries: discovery.entries,
      ...(discovery.robots ? { robots: discovery.robots } : {}),
      list: discovery.sitemaps.slice(0, SITEMAPS_KEPT),
    },
    urls: {
      listed,
      checked: tally.checked,
      indexable: tally.indexable,
      ...(crawl ? { notListed: tally.notListed } : {}),
    },
    summary,
    checks,
    siteChecks,
    charts: tally.charts(),
    ...(crawl ? { crawl } : {}),
    ...(tally.duplicateGroups().length > 0 ? { duplicateGroups: tally.duplicateGroups() } : {}),
    ...(stampedLastModified.length > 0 ? { stampedLastModified } : {}),
  };
}

/**
 * What robots.txt gets wrong that decides where sitemaps are found (ROBOTS-008: it names only
 * sitemaps on other hosts, or missing ones), said plainly under the sitemaps' line.
 */
export function robotsNamesNoOwnSitemap(report: AuditReport): string | undefined {
  return report.siteChecks.find((check) => check.code === 'ROBOTS-008')?.examples[0]?.detail;
}

/**
 * What the report says of each origin whose Last-Modified is a build's stamp, under the URLs'
 * line: why lastmod-stale did not believe it.
 */
export function stampedLastModifiedNotes(report: AuditReport): string[] {
  return (report.stampedLastModified ?? []).map(({ origin, pages, from, to, staleLeftOut }) => {
    const leftOut =
      staleLeftOut === 0
        ? ''
        : ` (${staleLeftOut.toLocaleString('en-US')} lastmod-stale finding${staleLeftOut === 1 ? '' : 's'} left out)`;
    return `Last-Modified of ${pages.toLocaleString('en-US')} pages of ${origin} is the time of one build (${from} to ${to}), not when each page changed: lastmod-stale judged them by their own dates only${leftOut}`;
  });
}

/** How many findings are at `level` or worse, rows and sitemaps together. */
export function findingsAtOrAbove(report: AuditReport, level: Severity): number {
  const { errors, warnings, infos } = report.summary;
  return level === 'error' ? errors : level === 'warning' ? errors + warnings : errors + warnings + infos;
}

function statusLabel(row: AuditRow): string {
  if (row.status !== undefined) return String(row.status);
  return row.findings.includes('robots-blocked') ? 'blocked' : 'no answer';
}

/** Statuses in numeric order, then "blocked", then "no answer". */
function statusOrder(label: string): number {
  const status = Number(label);
  return Number.isInteger(status) ? status : label === 'blocked' ? 1000 : 1001;
}
