/**
 * Every URL a crawl left out, with its reason, the detail and the page it was found on: the list
 * of broken links, redirects and blocked pages people crawl for. JSON Lines, or CSV when the file
 * name ends in `.csv`. Rows stream from the store to the file, so memory stays flat at any size.
 */
import type { LeftOutUrl } from '../crawl/types.js';
import { csvCell } from '../core/csv.js';
import { openLineFile } from './line-file.js';

export const LEFT_OUT_COLUMNS = ['url', 'reason', 'detail', 'found_on'] as const;

/** Writes `rows` to `path` (replacing it); resolves with how many were written. */
export async function writeLeftOutFile(
  rows: Iterable<LeftOutUrl> | AsyncIterable<LeftOutUrl>,
  path: string,
): Promise<number> {
  const csv = path.toLowerCase().endsWith('.csv');
  const out = openLineFile(path);
  let count = 0;
  if (csv) await out.write(LEFT_OUT_COLUMNS.join(','));
  for await (const row of rows) {
    const cells = [row.url, row.outcome, row.detail ?? '', row.foundOn ?? ''];
    await out.write(
      csv
        ? cells.map(csvCell).join(',')
        : JSON.stringify({ url: row.url, reason: row.outcome, detail: row.detail, found_on: row.foundOn }),
    );
    count += 1;
  }
  await out.close();
  return count;
}
