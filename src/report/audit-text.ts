/**
 * An audit on one screen: the site, its sitemaps, how many URLs were listed, checked and
 * indexable, each finding with its count and two examples, the sitemaps' own problems, and where
 * the full report and the rows are.
 */
import { robotsNamesNoOwnSitemap, stampedLastModifiedNotes, type AuditReport } from '../audit/report.js';
import { formatDiagnostic } from '../core/diagnostics.js';
import { forTerminal } from '../core/terminal.js';
import { countOf, formatNumber } from './format.js';
import { painter, SEVERITY_MARK } from './paint.js';

export interface AuditTextOptions {
  color?: boolean | undefined;
  /** Where the HTML report and the rows were written, when they were. */
  htmlFile?: string | undefined;
  rowsFile?: string | undefined;
  /** Where the state is, for an audit that stopped before the end. */
  stateFile?: string | undefined;
}

/** Examples shown per finding. */
const EXAMPLES = 2;
/** Site-wide codes shown one per line; the rest are summed up. */
const SITE_CODES = 8;

/** The report on one screen, for a terminal. */
export function formatAuditText(report: AuditReport, options: AuditTextOptions = {}): string {
  const paint = painter(options.color ?? false);
  const lines: string[] = [];
  const { sitemaps, urls, summary } = report;
  const state = report.complete ? '' : `  ${paint('error', 'stopped before the end')}`;
  lines.push(`${paint('bold', `Audit of ${forTerminal(report.site)}`)}  ${paint('dim', `at ${report.now}`)}${state}`);
  const robots = sitemaps.robots ? ` · robots.txt declares ${countOf(sitemaps.robots.sitemaps.length, 'sitemap')}` : '';
  lines.push(
    `Sitemaps  ${formatNumber(sitemaps.count)} (${formatNumber(sitemaps.read)} read, ${formatNumber(sitemaps.failed)} failed) · ${countOf(sitemaps.entries, 'entry', 'entries')}${robots}`,
  );
  const noOwnSitemap = robotsNamesNoOwnSitemap(report);
  if (noOwnSitemap !== undefined)
    lines.push(`          ${paint('warning', `${SEVERITY_MARK.warning} ${noOwnSitemap}`)}`);
  const share = urls.checked > 0 ? ` (${percent(urls.indexable, urls.checked)})` : '';
  const notListed = urls.notListed === undefined ? '' : ` · ${formatNumber(urls.notListed)} indexable not listed`;
  lines.push(
    `URLs      ${formatNumber(urls.listed)} listed · ${formatNumber(urls.checked)} checked · ${formatNumber(urls.indexable)} indexable${share}${notListed}`,
  );
  if (report.sample) lines.push(paint('dim', `          sample: ${report.sample.method}`));
  for (const note of stampedLastModifiedNotes(report)) lines.push(paint('dim', `          ${forTerminal(note)}`));
  const totals = [
    paint(summary.errors > 0 ? 'error' : 'dim', countOf(summary.errors, 'error')),
    paint(summary.warnings > 0 ? 'warning' : 'dim', countOf(summary.warnings, 'warning')),
    paint(summary.infos > 0 ? 'info' : 'dim', countOf(summary.infos, 'info')),
  ];
  lines.push(`Findings  ${totals.join(' · ')}`);

  if (report.checks.length > 0) {
    lines.push('');
    const width = Math.max(...report.checks.map((check) => check.finding.length));
    for (const check of report.checks) {
      const head = `${SEVERITY_MARK[check.severity]} ${check.finding.padEnd(width)}  ${check.code.padEnd(8)}`;
      lines.push(`  ${paint(check.severity, head)} ${paint('bold', formatNumber(check.count))}  ${check.title}`);
      if (check.finding === 'duplicate-content' && report.duplicateGroups) {
        lines.push(...duplicateLines(report.duplicateGroups, paint));
        continue;
      }
      for (const example of check.examples.slice(0, EXAMPLES))
        lines.push(`      ${forTerminal(example.url)}  ${paint('dim', forTerminal(example.detail))}`);
      if (check.count > EXAMPLES) lines.push(paint('dim', `      … ${formatNumber(check.count - EXAMPLES)} more`));
    }
  }
  if (report.siteChecks.length > 0) {
    lines.push('', 'The sitemaps themselves');
    // Worst first (the report's order); errors are never folded away, only the rest past SITE_CODES.
    const shown = report.siteChecks.filter((check, i) => i < SITE_CODES || check.severity === 'error');
    for (const check of shown) {
      const [example] = check.examples;
      lines.push(
        `  ${paint(check.severity, `${SEVERITY_MARK[check.severity]} ${check.code.padEnd(9)}`)} ${paint('bold', formatNumber(check.count))}  ${check.title}`,
      );
      if (example) {
        const { sitemap, detail, ...place } = example;
        const d = { code: check.code, severity: check.severity, message: detail, ...place };
        lines.push(
          `      ${formatDiagnostic(d, { source: sitemap, paint: (severity, text) => paint(severity, text) })}`,
        );
      }
    }
    const rest = report.siteChecks.filter((check) => !shown.includes(check));
    if (rest.length > 0)
      lines.push(
        paint(
          'dim',
          `  … ${countOf(
            rest.reduce((sum, check) => sum + check.count, 0),
            'more problem',
          )} of ${rest.length} more codes`,
        ),
      );
  }
  if (report.checks.length === 0 && report.siteChecks.length === 0 && urls.checked > 0)
    lines.push('', paint('ok', 'Every URL checked is listed as it is served: no findings.'));
  const files = [
    ...(options.htmlFile ? [`report ${options.htmlFile}`] : []),
    ...(options.rowsFile ? [`rows ${options.rowsFile}`] : []),
  ];
  if (files.length > 0) lines.push('', files.join(' · '));
  if (!report.complete && options.stateFile)
    lines.push(paint('error', `Stopped: continue with --resume (state in ${options.stateFile})`));
  return `${lines.join('\n')}\n`;
}

/** The first groups of duplicate content, each on a line: how many URLs, and the first of them. */
function duplicateLines(
  groups: NonNullable<AuditReport['duplicateGroups']>,
  paint: ReturnType<typeof painter>,
): string[] {
  const lines = groups.slice(0, EXAMPLES).map((group) => {
    const more = group.count > 2 ? ` and ${formatNumber(group.count - 2)} more` : '';
    return `      ${group.urls.slice(0, 2).join(' = ')}${paint('dim', `${more}: the same content`)}`;
  });
  if (groups.length > EXAMPLES) lines.push(paint('dim', `      … ${countOf(groups.length - EXAMPLES, 'more group')}`));
  return lines;
}

function percent(part: number, whole: number): string {
  return `${((part * 100) / whole).toFixed(1)}%`;
}
