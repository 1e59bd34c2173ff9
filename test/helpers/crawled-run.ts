/**
 * A crawl of the library (`crawlSiteInto`, the run `crawlSite` makes) worked into a queue of a
 * temporary folder, then read back whole, for tests that assert what became of every URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UrlEntry } from '../../src/core/entry.js';
import { summariseCrawl, type CrawlRow, type CrawlSummary } from '../../src/crawl/summary.js';
import type { CrawlResult } from '../../src/crawl/types.js';
import { crawlSiteInto, readCrawlRun, type CrawlOptions } from '../../src/run/crawl-site.js';

/** What a crawl run came to: its result, and its queue's rows read back. */
export class CrawledRun {
  constructor(
    readonly result: CrawlResult,
    private readonly rows: CrawlRow[],
    private readonly listed: UrlEntry[],
    readonly summary: CrawlSummary,
    private readonly fetched: number,
  ) {}

  /** Every URL met, in the order met, with its outcome (null while still to do) and its detail. */
  outcomes(): Omit<CrawlRow, 'fetched'>[] {
    return this.rows.map(({ url, outcome, detail }) => ({ url, outcome, detail }));
  }

  outcomeOf(url: string): CrawlRow | undefined {
    return this.rows.find((row) => row.url === url);
  }

  /** How many URLs ended with each outcome. */
  outcomeCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { outcome } of this.rows) if (outcome !== null) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    return counts;
  }

  /** The entries of the listed pages, in URL order. */
  listedEntries(): UrlEntry[] {
    return this.listed;
  }

  /** Pages requested. */
  fetchedCount(): number {
    return this.fetched;
  }
}

/** Crawls as `crawlSite` does, into a queue of its own, and reads the run back. */
export async function crawlRun(options: Omit<CrawlOptions, 'queue'>): Promise<CrawledRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-run-'));
  const queue = join(dir, 'crawl.sqlite');
  try {
    const result = await crawlSiteInto({ ...options, queue });
    return await readCrawlRun(queue, async (record, store) => {
      const rows: CrawlRow[] = [];
      for await (const row of record.rows()) rows.push(row);
      const listed: UrlEntry[] = [];
      for await (const entry of record.listedEntries()) listed.push(entry);
      const summary = await summariseCrawl(record, result);
      const fetched = (await store.status(record.name))?.fetchedItems ?? 0;
      return new CrawledRun(result, rows, listed, summary, fetched);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
