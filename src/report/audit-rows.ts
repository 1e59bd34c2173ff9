/**
 * The rows of an audit in a file (`--rows`): one JSON object per line, or CSV when the name ends
 * in `.csv` (findings space-separated, their details in one cell). Rows stream to the file as the
 * audit reads them, so memory stays flat at any size.
 */
import type { AuditRow } from '../audit/rows.js';
import { csvCell } from '../core/csv.js';
import { openLineFile } from './line-file.js';

/** The CSV's columns: the JSON rows' field names, so one name means one thing in both. */
export const CSV_COLUMNS = [
  'url',
  'listed',
  'sitemap',
  'line',
  'status',
  'finalUrl',
  'finalStatus',
  'targetListed',
  'contentType',
  'indexable',
  'findings',
  'lastmod',
  'lastModified',
  'pageModified',
  'canonical',
  'duplicateOf',
  'details',
] as const;

export interface RowsFile {
  write(row: AuditRow): Promise<void>;
  /** Ends the file; resolves with the number of rows written. */
  close(): Promise<number>;
}

/** Creates (or replaces) the rows file at `path`. */
export function openRowsFile(path: string): RowsFile {
  const out = openLineFile(path);
  const csv = path.toLowerCase().endsWith('.csv');
  let count = 0;
  let started = false;
  return {
    async write(row) {
      if (csv && !started) await out.write(CSV_COLUMNS.join(','));
      started = true;
      count += 1;
      await out.write(csv ? csvRow(row) : JSON.stringify(row));
    },
    async close() {
      if (csv && !started) await out.write(CSV_COLUMNS.join(','));
      started = true;
      await out.close();
      return count;
    },
  };
}

/** One CSV line of a row: a cell per column of CSV_COLUMNS, in its order (the header's). */
function csvRow(row: AuditRow): string {
  return CSV_COLUMNS.map((column) => csvCell(cellText(row, column))).join(',');
}

function cellText(row: AuditRow, column: (typeof CSV_COLUMNS)[number]): string {
  switch (column) {
    case 'listed':
      return String(row.listed ?? true);
    case 'findings':
      return row.findings.join(' ');
    case 'details':
      return Object.entries(row.details)
        .map(([finding, detail]) => `${finding}: ${detail}`)
        .join('; ');
    default: {
      const value = row[column];
      return value === undefined ? '' : String(value);
    }
  }
}
