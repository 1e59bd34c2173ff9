/**
 * Every URL a crawl left out, with its reason, the detail and the page it was found on: the list
 * of broken links, redirects and blocked pages people crawl for. JSON Lines, or CSV when the file
 * name ends in `.csv`. Rows stream from the store to the file, so memory stays flat at any size.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LeftOutUrl } from '../store/crawl-store.js';
import { csvCell } from './entries.js';

export const LEFT_OUT_COLUMNS = ['url', 'reason', 'detail', 'found_on'] as const;

/** Writes `rows` to `path` (replacing it); resolves with how many were written. */
export async function writeLeftOutFile(rows: Iterable<LeftOutUrl>, path: string): Promise<number> {
  mkdirSync(dirname(path), { recursive: true });
  const csv = path.toLowerCase().endsWith('.csv');
  const out = createWriteStream(path);
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  // A failure to write (a full disk) surfaces at the next write rather than never.
  failed.catch(() => {});
  let count = 0;
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await Promise.race([once(out, 'drain'), failed]);
  };
  if (csv) await write(LEFT_OUT_COLUMNS.join(','));
  for (const row of rows) {
    const cells = [row.url, row.outcome, row.detail ?? '', row.foundOn ?? ''];
    await write(
      csv
        ? cells.map(csvCell).join(',')
        : JSON.stringify({ url: row.url, reason: row.outcome, detail: row.detail, found_on: row.foundOn }),
    );
    count += 1;
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  return count;
}
