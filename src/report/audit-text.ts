/**
 * An audit on one screen: the site, its sitemaps, how many URLs were listed, checked and
 * indexable, each finding with its count and two examples, the sitemaps' own problems, and where
 * the full report and the rows are.
 */
import type { AuditReport } from '../audit/report.js';
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
  const share = urls.checked > 0 ? ` (${percent(urls.indexable, urls.checked)})` : '';
  const notListed = urls.notListed === undefined ? '' : ` · ${formatNumber(urls.notListed)} indexable not listed`;
  lines.push(
    `URLs      ${formatNumber(urls.listed)} listed · ${formatNumber(urls.checked)} checked · ${formatNumber(urls.indexable)} indexable${share}${notListed}`,
  );
  if (report.sample) lines.push(paint('dim', `          sample: ${report.sample.method}`));
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
      for (const example of check.examples.slice(0, EXAMPLES))
        lines.push(`      ${forTerminal(example.url)}  ${paint('dim', forTerminal(example.detail))}`);
      if (check.count > EXAMPLES) lines.push(paint('dim', `      … ${formatNumber(check.count - EXAMPLES)} more`));
    }
  }
  if (report.siteChecks.length > 0) {
    lines.push('', 'The sitemaps themselves');
    for (const check of report.siteChecks.slice(0, SITE_CODES)) {
      const [example] = check.examples;
      const place = example?.sitemap ? `${example.sitemap}${example.line === undefined ? '' : `:${example.line}`}` : '';
      lines.push(
        `  ${paint(check.severity, `${SEVERITY_MARK[check.severity]} ${check.code.padEnd(9)}`)} ${paint('bold', formatNumber(check.count))}  ${check.title}`,
      );
      if (example)
        lines.push(`      ${place ? `${forTerminal(place)}  ` : ''}${paint('dim', forTerminal(example.detail))}`);
    }
    const rest = report.siteChecks.slice(SITE_CODES);
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

function percent(part: number, whole: number): string {
  return `${((part * 100) / whole).toFixed(1)}%`;
}
