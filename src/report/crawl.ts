/**
 * The crawl report: pages fetched, listed, and left out by reason with examples, the start page's
 * outcome, the tracking parameters removed; text or JSON. Every left-out URL goes to a file of its
 * own (see ./crawl-left-out.ts).
 */
import { forTerminal } from '../core/terminal.js';
import type { CrawlSummary } from '../crawl/summary.js';
import type { LeftOutReason, Outcome } from '../crawl/types.js';
import type { TreeNode } from '../discover/tree.js';
import type { WriteSummary } from '../generate/types.js';
import { countOf, formatNumber } from './format.js';

/** The report of a crawl, as `crawl --json` prints it. */
export interface CrawlReport extends CrawlSummary {
  durationMs: number;
  /** The sitemaps written from the listed pages, when they were. */
  sitemaps?: { files: { name: string; url: string; urls: number }[]; index?: string; robotsTxt: string[] };
  /** The file every left-out URL was written to (--report), and how many it holds. */
  leftOutFile?: { path: string; urls: number };
}

const REASON_TITLES: Record<LeftOutReason, string> = {
  redirected: 'redirected (the target is crawled instead)',
  'meta-refresh': 'meta refresh to another URL (the target is crawled instead)',
  'js-redirect': 'JavaScript redirect (the target is crawled instead)',
  'http-error': 'HTTP error (4xx)',
  'server-error': 'server error (5xx, 429), tried again at the end: the page may exist',
  'fetch-error': 'no response (connection, timeout, redirect loop), tried again at the end if that may help',
  'cut-off': 'cut off by the page size limit (links past the cut are not seen)',
  'non-html': 'not HTML',
  noindex: 'noindex (robots meta or X-Robots-Tag)',
  canonicalised: 'canonical points elsewhere (the canonical is crawled instead)',
  duplicate: 'the same bytes as the URL without its query (that URL is listed instead)',
  'robots-blocked': 'blocked by robots.txt',
  'out-of-scope': 'out of scope (other host, --include/--exclude)',
  trap: 'spider trap: a URL space without end, not fetched past its limit',
  'max-pages': 'not fetched: --max-pages reached',
  'max-depth': 'not fetched: deeper than --max-depth',
};

/** The report of a crawl from its summary, its duration, what was written and the left-out file. */
export function crawlReport(
  summary: CrawlSummary,
  durationMs: number,
  written?: WriteSummary,
  leftOutFile?: { path: string; urls: number },
): CrawlReport {
  const report: CrawlReport = { ...summary, durationMs, ...(leftOutFile === undefined ? {} : { leftOutFile }) };
  if (written !== undefined) {
    report.sitemaps = {
      files: written.files.map(({ name, url, urls }) => ({ name, url, urls })),
      ...(written.index === undefined ? {} : { index: written.index.name }),
      robotsTxt: written.robotsTxt,
    };
  }
  return report;
}

/** The report as one JSON document. */
export function formatCrawlReportJson(report: CrawlReport): string {
  return `${JSON.stringify(report)}\n`;
}

/** The report for a person, as `crawl` prints it. */
export function formatCrawlReportText(report: CrawlReport): string {
  const leftOutTotal = report.leftOut.reduce((sum, group) => sum + group.count, 0);
  const seconds = (report.durationMs / 1000).toFixed(1);
  const lines = [
    `Crawled ${report.startUrl}${report.finished ? '' : ' (stopped before the end)'} in ${seconds} s`,
    `  ${formatNumber(report.fetched)} fetched, ${formatNumber(report.listed)} listed, ${formatNumber(leftOutTotal)} left out`,
  ];
  if (report.start !== undefined && report.start.outcome !== 'listed')
    lines.push(`  The start page was not listed: ${describeOutcome(report.start.outcome, report.start.detail)}`);
  if (report.unread > 0)
    lines.push(
      `  ${countOf(report.unread, 'page')} could not be read (server error, no response, cut off): the sitemaps may lack ${report.unread === 1 ? 'it' : 'them'} and the pages only they link to`,
    );
  if (report.leftOutFile !== undefined)
    lines.push(`  Every URL left out, with the page it was found on: ${report.leftOutFile.path}`);
  if (report.leftOut.length > 0) lines.push('', 'Left out:');
  for (const group of report.leftOut) {
    lines.push(`  ${formatNumber(group.count).padStart(6)}  ${REASON_TITLES[group.reason]}`);
    if (group.spaces !== undefined) lines.push(...formatSpaces(group.spaces, group.count));
    else lines.push(...formatExamples(group.examples, group.count));
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
  if (report.strippedParams !== undefined) {
    const { urls, names } = report.strippedParams;
    lines.push('', `Tracking parameters removed from ${countOf(urls, 'URL')} (--keep-param NAME keeps one):`);
    for (const name of names) {
      lines.push(`  ${formatNumber(name.urls).padStart(6)}  ${name.name}`);
      for (const example of name.examples) lines.push(`          ${example.from} → ${example.to}`);
    }
  }
  if (report.sitemaps !== undefined) {
    lines.push('', 'Sitemaps:');
    for (const file of report.sitemaps.files) lines.push(`  ${file.name}  ${countOf(file.urls, 'URL')}`);
    if (report.sitemaps.index !== undefined) lines.push(`  ${report.sitemaps.index}  (index)`);
    lines.push('', 'Add to robots.txt:', ...report.sitemaps.robotsTxt.map((line) => `  ${line}`));
  }
  return `${lines.map(forTerminal).join('\n')}\n`;
}

function formatExamples(examples: { url: string; detail: string }[], count: number): string[] {
  const lines = examples.map((example) => `          ${example.url}${example.detail ? `  (${example.detail})` : ''}`);
  if (count > examples.length) lines.push(`          … and ${formatNumber(count - examples.length)} more`);
  return lines;
}

/** One line per trap space: what stopped it, how many URLs it held, and the first met. */
function formatSpaces(spaces: { detail: string; count: number; example: string }[], count: number): string[] {
  const lines = spaces.map(
    (space) => `          ${countOf(space.count, 'URL')}: ${space.detail} (first ${space.example})`,
  );
  const shown = spaces.reduce((sum, space) => sum + space.count, 0);
  if (count > shown) lines.push(`          … and ${countOf(count - shown, 'URL')} in other trap spaces`);
  return lines;
}

/** "not HTML (application/xml)": an outcome as the report names it, with its detail. */
function describeOutcome(outcome: Outcome, detail: string | undefined): string {
  const title = outcome === 'listed' ? 'listed' : REASON_TITLES[outcome];
  return detail === undefined || detail === '' ? title : `${title} (${detail})`;
}

/**
 * The live progress line: "1,234 fetched · 56 queued · 1,100 listed · 42.0 pages/s · 3 unread", its
 * last count the pages the summary says could not be read (a 4xx answer is read: it is left out).
 * The rate counts the pages of this run only (`fetchedEarlier` were fetched before a resume).
 */
export function formatCrawlProgress(
  progress: { fetched: number; fetchedEarlier?: number; queued: number; listed: number; errors: number },
  elapsedMs: number,
): string {
  const fetchedNow = progress.fetched - (progress.fetchedEarlier ?? 0);
  const rate = elapsedMs > 0 ? (fetchedNow * 1000) / elapsedMs : 0;
  return `${formatNumber(progress.fetched)} fetched · ${formatNumber(progress.queued)} queued · ${formatNumber(progress.listed)} listed · ${rate.toFixed(1)} pages/s · ${formatNumber(progress.errors)} unread`;
}

/** Unread sitemaps named in the --use-sitemaps problem; the rest are counted. */
const UNREAD_EXAMPLES = 3;

/**
 * What `crawl --use-sitemaps` lost, when sitemaps of the site could not be read whole (each named
 * with its first error, a few of them); undefined when none.
 */
export function unreadSitemapsProblem(unread: readonly TreeNode[]): string | undefined {
  if (unread.length === 0) return undefined;
  const named = unread.slice(0, UNREAD_EXAMPLES).map((node) => {
    const error = node.diagnostics.find((d) => d.severity === 'error');
    return `${node.url}${error ? ` (${error.code} ${error.message})` : ''}`;
  });
  if (unread.length > named.length) named.push(`and ${formatNumber(unread.length - named.length)} more`);
  return forTerminal(
    `--use-sitemaps: ${countOf(unread.length, 'sitemap')} could not be read whole, so pages only listed there may be missing: ${named.join('; ')}`,
  );
}
