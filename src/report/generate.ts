/**
 * What `generate` prints: the summary of a published set (files, duplicates, skipped entries,
 * left-out pages, what was cleared up), the count of problems not shown, and the likely cause
 * when most entries failed for one reason.
 */
import { forTerminal } from '../core/terminal.js';
import type { DiagnosticTally } from '../core/diagnostic-tally.js';
import type { WriteSummary } from '../generate/types.js';
import type { LeftOutGroup, LeftOutPageReason } from '../input/index.js';
import type { RecordedChanges } from '../generate/ledger.js';
import { countOf, formatBytes, formatNumber } from './format.js';

const LEFT_OUT_TITLES: Record<LeftOutPageReason, string> = {
  excluded: 'matched --exclude',
  'error-page': 'error pages (404 and other error pages)',
  redirect: "redirects (meta refresh, script stubs, the host's redirect rules)",
  noindex: 'noindex (robots <meta> tag, X-Robots-Tag header rule)',
  disallowed: "disallowed by the folder's robots.txt",
  canonicalised: 'canonical is another page',
};

/** Reasons whose detail differs from page to page (which glob, which canonical), so it is printed. */
const DETAILED = new Set<LeftOutPageReason>(['excluded', 'error-page', 'redirect', 'disallowed', 'canonicalised']);

export type { RecordedChanges };

/** The text summary of a run, ending with the robots.txt line(s); `outDir` as it should be shown. */
export function formatGenerateSummary(
  summary: WriteSummary,
  leftOut: LeftOutGroup[],
  outDir: string,
  changes?: RecordedChanges,
): string {
  const lines: string[] = [];
  if (summary.interrupted !== undefined) {
    const { pid, started } = summary.interrupted;
    lines.push(`An earlier run (process ${pid}, started ${started}) was interrupted before it finished.`);
  }
  if (summary.leftovers.length > 0)
    lines.push(`Removed the temporary files of interrupted runs: ${summary.leftovers.join(', ')}`);
  lines.push(
    `Wrote ${countOf(summary.urls, 'URL')} in ${countOf(summary.files.length, 'file')}${summary.index ? ' and an index' : ''} to ${outDir}`,
  );
  const width = Math.max(...summary.files.map((file) => file.name.length), summary.index?.name.length ?? 0);
  const unchanged = new Set(summary.unchanged);
  for (const file of summary.files) {
    const size =
      file.gzipBytes === undefined
        ? formatBytes(file.bytes)
        : `${formatBytes(file.bytes)} (${formatBytes(file.gzipBytes)} gzipped)`;
    lines.push(
      `  ${file.name.padEnd(width)}  ${countOf(file.urls, 'URL').padStart(11)}  ${size}${file.lastmod ? `  newest ${file.lastmod}` : ''}${unchanged.has(file.name) ? '  (unchanged)' : ''}`,
    );
  }
  if (summary.index)
    lines.push(`  ${summary.index.name.padEnd(width)}  index of ${countOf(summary.files.length, 'file')}`);
  if (summary.duplicates > 0) lines.push(`${countOf(summary.duplicates, 'duplicate URL')} written once`);
  if (summary.skipped > 0)
    lines.push(`${countOf(summary.skipped, 'entry', 'entries')} skipped because of errors (listed above)`);
  // The other errors left out a field of an entry that was still written.
  const fieldErrors = summary.problems.errors - summary.skipped;
  if (fieldErrors > 0) lines.push(`${countOf(fieldErrors, 'field')} left out because of errors (listed above)`);
  lines.push(...formatLeftOut(leftOut));
  if (summary.removed.length > 0)
    lines.push(`Removed the files of the previous run that the new set replaces: ${summary.removed.join(', ')}`);
  if (changes !== undefined) lines.push(...formatChanges(changes));
  lines.push('', 'Add to robots.txt:', ...summary.robotsTxt);
  return `${lines.map(forTerminal).join('\n')}\n`;
}

/** "1 added, 1 changed, 1 removed since the last run", then the first URLs of each. */
function formatChanges(changes: RecordedChanges): string[] {
  const where = `run ${changes.run}, recorded in ${changes.ledger}`;
  if (changes.firstRun) return [`First run for this site (${where}): ${countOf(changes.added, 'URL')} added`];
  const total = changes.added + changes.changed + changes.removed;
  if (total === 0) return [`No URL added, changed or removed since the last run (${where})`];
  const counts = (['added', 'changed', 'removed'] as const).map(
    (change) => `${formatNumber(changes[change])} ${change}`,
  );
  const lines = [`Since the last run: ${counts.join(', ')} (${where})`];
  for (const change of ['added', 'changed', 'removed'] as const) {
    const examples = changes.examples[change];
    for (const loc of examples) lines.push(`  ${change.padEnd(7)}  ${loc}`);
    if (changes[change] > examples.length)
      lines.push(`  … and ${formatNumber(changes[change] - examples.length)} more ${change}`);
  }
  return lines;
}

function formatLeftOut(groups: LeftOutGroup[]): string[] {
  const total = groups.reduce((sum, group) => sum + group.count, 0);
  if (total === 0) return [];
  const lines = [`Left out ${countOf(total, 'page')}:`];
  for (const group of groups) {
    lines.push(`  ${formatNumber(group.count).padStart(6)}  ${LEFT_OUT_TITLES[group.reason]}`);
    for (const { path, detail } of group.examples)
      lines.push(`          ${path}${DETAILED.has(group.reason) ? `  (${detail})` : ''}`);
    if (group.count > group.examples.length)
      lines.push(`          … and ${formatNumber(group.count - group.examples.length)} more`);
  }
  return lines;
}

/**
 * When most of what was read (`read` entries and unreadable lines) failed for one reason, that
 * reason's usual cause, to be said once: a --base-url on the wrong host or one folder too deep,
 * or an input read in the wrong format. Undefined otherwise.
 */
export function likelyCause(tally: DiagnosticTally, read: number, baseUrl: string): string | undefined {
  const [top] = tally.byCode().sort((a, b) => b.count - a.count);
  if (top === undefined || top.severity !== 'error' || top.count * 2 <= read) return undefined;
  const share = `${formatNumber(top.count)} of ${countOf(read, 'entry', 'entries')}`;
  const example = top.examples[0]?.url;
  switch (top.code) {
    case 'URL-004': {
      const origin = example === undefined ? undefined : new URL(example).origin;
      return `${share} are on another host than --base-url ${baseUrl}${origin ? ` (the first on ${origin})` : ''}: is --base-url right? (URLs on other hosts need --allow-other-hosts and a robots.txt that lists the sitemap)`;
    }
    case 'URL-005': {
      const root = new URL('/', baseUrl).href;
      return `${share} are outside the directory of --base-url ${baseUrl}: a sitemap may list only URLs at or below its own directory; is --base-url right? (${root} would admit every URL of the host)`;
    }
    case 'INPUT-001':
      return `${share} could not be read: is the input in the format it was read as? (--input-format txt, jsonl or csv)`;
    default:
      return undefined;
  }
}
