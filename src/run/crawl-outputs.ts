/**
 * A crawl run's record, read back from the shared store into a crawl store of this process, so
 * that its report and its sitemaps come from the same code as those of a crawl of one process.
 */
import type { UrlEntry } from '../core/entry.js';
import type { CrawlResult } from '../crawl/crawler.js';
import type { Outcome } from '../crawl/types.js';
import type { CrawlStore, RestoredUrl } from '../store/crawl-store.js';
import type { RunRecord, WorkQueue } from '../store/run-store.js';
import { crawlJob, isSitemapsItem, landedFact, SITEMAPS_READ } from './crawl-pages.js';
import { runOfJob } from './job.js';

/** Rows written per transaction. */
const BATCH = 5_000;

/**
 * Copies every URL of the run and the parameters stripped into `into` (a fresh crawl store).
 * Resolves to what the reading of the site's sitemaps could not read (--use-sitemaps), if anything.
 */
export async function restoreCrawlRun(
  store: WorkQueue,
  run: RunRecord,
  into: CrawlStore,
): Promise<{ sitemapProblems: string[] }> {
  const sitemapProblems: string[] = [];
  let batch: RestoredUrl[] = [];
  for await (const item of store.items(run.id)) {
    // The reading of an origin's sitemaps is work of the run, not a page of the site.
    if (isSitemapsItem(item.input)) {
      if (item.outcome === SITEMAPS_READ && item.detail !== null) sitemapProblems.push(item.detail);
      continue;
    }
    batch.push({
      seq: item.id,
      url: item.url,
      depth: item.depth,
      foundOn: item.foundOn,
      outcome: item.outcome,
      detail: item.detail,
      fetched: item.fetched,
      ...(item.outcome === 'listed' && item.result !== undefined ? { entry: item.result as UrlEntry } : {}),
    });
    if (batch.length >= BATCH) {
      into.restore(batch);
      batch = [];
    }
  }
  into.restore(batch);
  let group: { from: string; to: string; names: string[] } | undefined;
  for await (const row of store.stripped(run.id)) {
    if (group?.from !== row.from) {
      if (group !== undefined) into.recordStripped(group);
      group = { from: row.from, to: row.to, names: [] };
    }
    group.names.push(row.name);
  }
  if (group !== undefined) into.recordStripped(group);
  return { sitemapProblems };
}

/**
 * The run as a crawl result: its first start URL, what became of it (or of the page it landed on),
 * the origins crawled, and whether the run is done.
 */
export async function crawlRunResult(
  store: WorkQueue,
  run: RunRecord,
  restored: CrawlStore,
): Promise<CrawlResult & { origins: string[] }> {
  const { options } = runOfJob(crawlJob, run);
  const facts = await store.facts(run.id);
  const startUrl = options.startUrls[0]!;
  const landings = options.startUrls.map((url) => facts[landedFact(url)] ?? url);
  const origins = [...new Set([...options.startUrls, ...landings].map((url) => new URL(url).origin))];
  const start = restored.outcomeOf(landings[0]!);
  const startDetail = start?.detail ?? undefined;
  return {
    startUrl,
    site: new URL(landings[0]!).origin,
    startOutcome: (start?.outcome ?? undefined) as Outcome | undefined,
    ...(startDetail === undefined ? {} : { startDetail }),
    finished: run.state === 'done',
    origins,
  };
}
