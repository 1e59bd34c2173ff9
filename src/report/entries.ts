/**
 * Entries as text: one JSON object per line (the entry shape of docs/architecture.md, `source` last when given) or CSV
 * rows under a fixed header. Used by `parse` and by `tree --urls`.
 */
import type { Entry } from '../core/entry.js';

/**
 * One JSONL line (without the newline). Absent fields are already absent from entries. `source`
 * is appended to the text rather than spread into a copy of the entry, which cost more than the
 * rest; an entry that names a source already has it replaced.
 */
export function entryToJsonLine(entry: Entry, source?: string): string {
  if (source === undefined) return JSON.stringify(entry);
  if ('source' in entry) return JSON.stringify({ ...entry, source });
  return `${JSON.stringify(entry).slice(0, -1)},"source":${JSON.stringify(source)}}`;
}

export const ENTRY_CSV_COLUMNS = [
  'kind',
  'loc',
  'lastmod',
  'changefreq',
  'priority',
  'images',
  'videos',
  'news',
  'alternates',
  'source',
] as const;

/** The CSV header line (without the newline). */
export function entryCsvHeader(withSource = false): string {
  return (withSource ? ENTRY_CSV_COLUMNS : ENTRY_CSV_COLUMNS.slice(0, -1)).join(',');
}

/**
 * One CSV row (without the newline). Scalar fields as they are; the extensions, being lists of
 * records, as compact JSON in their cell (empty when absent).
 */
export function entryToCsvRow(entry: Entry, source?: string, withSource = source !== undefined): string {
  const url = entry.kind === 'url' ? entry : undefined;
  const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));
  const cells = [
    entry.kind,
    entry.loc,
    entry.lastmod ?? '',
    url?.changefreq ?? '',
    url?.priority === undefined ? '' : String(url.priority),
    json(url?.images),
    json(url?.videos),
    json(url?.news),
    json(url?.alternates),
  ];
  if (withSource) cells.push(source ?? '');
  return cells.map(csvCell).join(',');
}

/** RFC 4180: quoted when the value holds a comma, a quote or a line break; quotes doubled. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
