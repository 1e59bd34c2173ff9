/**
 * The summary of a diff: as an object (`diff --json` ends its output with it) and as the few
 * lines `diff` prints on stderr.
 */
import { forTerminal } from '../core/terminal.js';
import type { DiffCounts } from '../diff/diff.js';
import { ENTRY_FIELDS } from '../diff/fields.js';
import { countOf, formatNumber } from './format.js';

export interface DiffSide {
  /** What the command line named. */
  source: string;
  /** Documents read, distinct page URLs, URLs listed again, and whether every document was read whole. */
  documents: number;
  urls: number;
  duplicates: number;
  complete: boolean;
}

export interface DiffSummary {
  old: DiffSide;
  new: DiffSide;
  added: number;
  removed: number;
  changed: number;
  moved: number;
  unchanged: number;
  /** Changed URLs by field that changed. */
  fields: DiffCounts['fields'];
  /** Removed URLs whose redirects could not be checked (with --check-redirects). */
  unchecked?: number;
}

export function diffSummary(
  counts: DiffCounts,
  sides: { old: Omit<DiffSide, 'urls' | 'duplicates'>; new: Omit<DiffSide, 'urls' | 'duplicates'> },
): DiffSummary {
  const { added, removed, changed, moved, unchanged, fields, unchecked } = counts;
  return {
    old: side(sides.old, counts.old),
    new: side(sides.new, counts.new),
    added,
    removed,
    changed,
    moved,
    unchanged,
    fields,
    ...(unchecked === undefined ? {} : { unchecked }),
  };
}

function side(
  { source, documents, complete }: Omit<DiffSide, 'urls' | 'duplicates'>,
  { urls, duplicates }: DiffCounts['old'],
): DiffSide {
  return { source, documents, urls, duplicates, complete };
}

/** True when the sets differ. */
export function hasDifferences(summary: DiffSummary): boolean {
  return summary.added + summary.removed + summary.changed + summary.moved > 0;
}

/**
 * old  dist-v1: 120,000 URLs in 3 sitemaps
 * new  https://www.example.com/sitemap.xml: 121,500 URLs in 4 sitemaps (12 listed twice)
 * 1,600 added, 100 removed, 2,300 changed (lastmod 2,200, images 100), 10 moved; 117,600 unchanged
 */
export function formatDiffSummary(summary: DiffSummary): string {
  const side = (name: string, s: DiffSide) =>
    `${name}  ${s.source}: ${countOf(s.urls, 'URL')} in ${countOf(s.documents, 'document')}` +
    (s.duplicates > 0 ? ` (${formatNumber(s.duplicates)} more listed again)` : '') +
    (s.complete ? '' : ', not read whole');
  const fields = ENTRY_FIELDS.filter((field) => summary.fields[field] !== undefined)
    .map((field) => `${field} ${formatNumber(summary.fields[field]!)}`)
    .join(', ');
  const changes = hasDifferences(summary)
    ? [
        `${formatNumber(summary.added)} added`,
        `${formatNumber(summary.removed)} removed`,
        `${formatNumber(summary.changed)} changed${fields === '' ? '' : ` (${fields})`}`,
        ...(summary.moved > 0 || summary.unchecked !== undefined ? [`${formatNumber(summary.moved)} moved`] : []),
      ].join(', ') + `; ${formatNumber(summary.unchanged)} unchanged`
    : `no differences: ${countOf(summary.unchanged, 'URL')} the same`;
  const lines = [side('old', summary.old), side('new', summary.new), changes];
  if (summary.unchecked) lines.push(`${countOf(summary.unchecked, 'removed URL')} could not be checked for a redirect`);
  return `${lines.map(forTerminal).join('\n')}\n`;
}
