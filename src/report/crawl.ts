/** The crawl report: pages fetched, listed, and left out by reason with examples; text or JSON. */
import type { CrawlSummary } from '../crawl/summary.js';
import type { LeftOutReason } from '../crawl/types.js';
import type { WriteSummary } from '../generate/types.js';
import { countOf, formatNumber } from './format.js';

export interface CrawlReport extends CrawlSummary {
  durationMs: number;
  /** The sitemaps written from the listed pages, when they were. */
  sitemaps?: { files: { name: string; url: string; urls: number }[]; index?: string; robotsTxt: string[] };
}

const REASON_TITLES: Record<LeftOutReason, string> = {
  redirected: 'redirected (the target is crawled instead)',
  'meta-refresh': 'meta refresh to another URL (the target is crawled instead)',
  'js-redirect': 'JavaScript redirect (the target is crawled instead)',
  'http-error': 'HTTP error (4xx/5xx)',
  'fetch-error': 'no response (connection, timeout, redirect loop)',
  'non-html': 'not HTML',
  noindex: 'noindex (robots meta or X-Robots-Tag)',
  canonicalised: 'canonical points elsewhere (the canonical is crawled instead)',
  'robots-blocked': 'blocked by robots.txt',
  'out-of-scope': 'out of scope (other host, --include/--exclude)',
  'max-pages': 'not fetched: --max-pages reached',
  'max-depth': 'not fetched: deeper than --max-depth',
};

export function crawlReport(summary: CrawlSummary, durationMs: number, written?: WriteSummary): CrawlReport {
  const report: CrawlReport = { ...summary, durationMs };
  if (written !== undefined) {
    report.sitemaps = {
      files: written.files.map(({ name, url, urls }) => ({ name, url, urls })),
      ...(written.index === undefined ? {} : { index: written.index.name }),
      robotsTxt: written.robotsTxt,
    };
  }
  return report;
}

export function formatCrawlReportJson(report: CrawlReport): string {
  return `${JSON.stringify(report)}\n`;
}

export function formatCrawlReportText(report: CrawlReport): string {
  const leftOutTotal = report.leftOut.reduce((sum, group) => sum + group.count, 0);
  const seconds = (report.durationMs / 1000).toFixed(1);
  const lines = [
    `Crawled ${report.startUrl}${report.finished ? '' : ' (stopped before the end)'} in ${seconds} s`,
    `  ${formatNumber(report.fetched)} fetched, ${formatNumber(report.listed)} listed, ${formatNumber(leftOutTotal)} left out`,
  ];
  if (report.leftOut.length > 0) lines.push('', 'Left out:');
  for (const group of report.leftOut) {
    lines.push(`  ${formatNumber(group.count).padStart(6)}  ${REASON_TITLES[group.reason]}`);
    for (const example of group.examples)
      lines.push(`          ${example.url}${example.detail ? `  (${example.detail})` : ''}`);
    if (group.count > group.examples.length)
      lines.push(`          … and ${formatNumber(group.count - group.examples.length)} more`);
  }
  if (report.blockedForEngines !== undefined) {
    const { count: blocked, examples } = report.blockedForEngines;
    lines.push(
      '',
      `Listed, but robots.txt keeps search engines out (URL-010, "Sitemap contains URLs which are blocked by robots.txt"):`,
    );
    lines.push(`  ${formatNumber(blocked).padStart(6)}  listed pages`);
    for (const example of examples) lines.push(`          ${example.url}  (${example.detail})`);
    if (blocked > examples.length) lines.push(`          … and ${formatNumber(blocked - examples.length)} more`);
  }
  if (report.sitemaps !== undefined) {
    lines.push('', 'Sitemaps:');
    for (const file of report.sitemaps.files) lines.push(`  ${file.name}  ${countOf(file.urls, 'URL')}`);
    if (report.sitemaps.index !== undefined) lines.push(`  ${report.sitemaps.index}  (index)`);
    lines.push('', 'Add to robots.txt:', ...report.sitemaps.robotsTxt.map((line) => `  ${line}`));
  }
  return `${lines.join('\n')}\n`;
}

/** The live progress line: "1,234 fetched · 56 queued · 1,100 listed · 42.0 pages/s · 3 errors". */
export function formatCrawlProgress(
  progress: { fetched: number; queued: number; listed: number; errors: number },
  elapsedMs: number,
): string {
  const rate = elapsedMs > 0 ? (progress.fetched * 1000) / elapsedMs : 0;
  return `${formatNumber(progress.fetched)} fetched · ${formatNumber(progress.queued)} queued · ${formatNumber(progress.listed)} listed · ${rate.toFixed(1)} pages/s · ${formatNumber(progress.errors)} errors`;
}
