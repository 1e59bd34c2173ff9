/**
 * A crawl worked here: one worker in this process on a crawl run (run/crawl-pages.ts), each page
 * committed as it ends, so kill -9 loses only the pages in flight. `sitemapkit crawl` in one
 * process and the library's {@link crawlSite} both take part this way; other processes given the
 * same queue and run name may work the same run beside it (run/session.ts).
 *
 * {@link crawlSite} is the crawl as a source of entries: it creates the run (on a queue of its own
 * in a temporary SQLite file, or on the one its caller names), works it, then yields the entries
 * of the pages to list, read from the queue in URL order, and returns how the crawl went.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UrlEntry } from '../core/entry.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../crawl/adapters.js';
import { folderUrl, normaliseCrawlUrl } from '../crawl/normalise.js';
import { paramFilter } from '../crawl/tracking-params.js';
import type { TrapLimits } from '../crawl/traps.js';
import {
  DEFAULT_CONCURRENCY,
  type CrawlProgress,
  type CrawlResult,
  type PageFetcher,
  type RobotsPolicy,
} from '../crawl/types.js';
import { HttpClient } from '../http/client.js';
import { RunStore, type WorkQueue } from '../store/run-store.js';
import { CrawlCounts } from './crawl-progress.js';
import { CrawlRunRecord } from './crawl-outputs.js';
import { crawlJob, type CrawlRunOptions, type CrawlSeams } from './crawl-pages.js';
import { takePart, type Participation, type RunPlan, type Taken } from './session.js';

/** How this process works a crawl run: its HTTP client, the seams handed in, whom to tell. */
export interface CrawlHere {
  /** Makes the HTTP client of this process's step, once the run is open. */
  http: () => HttpClient;
  /** Whether the client is this crawl's own, closed when the work ends. */
  ownsHttp: boolean;
  seams?: CrawlSeams | undefined;
  /** Told after each page, and once more at the end with the counts read from the queue. */
  onProgress?: ((progress: CrawlCounts) => void) | undefined;
  /** Stops the work; pages in flight are finished and kept. */
  signal?: AbortSignal | undefined;
}

/**
 * Creates the crawl run `who.name` in `who.store` (or joins it: a run stopped halfway continues)
 * and works it here with one worker until it is done or `here.signal` stops it. The store of the
 * result stays open for the caller, who closes it.
 */
export async function workCrawlHere<Options extends CrawlRunOptions>(
  who: Participation,
  plan: RunPlan<Options>,
  here: CrawlHere,
): Promise<Taken> {
  let counts: CrawlCounts | undefined;
  const taken = await takePart(
    who,
    plan,
    async (run, store) => {
      const http = here.http();
      const kind = crawlJob.step(run, { store, http, ...here.seams });
      const told = () => here.onProgress?.(counts!);
      counts = await CrawlCounts.of(store, run.name);
      return {
        kind: counts.counting(kind, told),
        // Each page is committed as it ends: kill -9 loses only those in flight or ended in the
        // last few ms (see WorkerOptions.commitEach).
        commitEach: true,
        pace: { concurrency: run.options.concurrency },
        ...(here.ownsHttp ? { close: () => http.close() } : {}),
      };
    },
    undefined,
    here.signal,
  );
  try {
    if (counts !== undefined) {
      await counts.refresh(taken.store, taken.run.name);
      here.onProgress?.(counts);
    }
  } catch (error) {
    await taken.store.close();
    throw error;
  }
  return taken;
}

/** What to crawl and how: the start URL, where the run lives, scope, limits and politeness. */
export interface CrawlOptions {
  /**
   * Where the crawl starts. Its scheme, host and port are the site the crawl keeps to; when the
   * start URL redirects to another origin (http → https, example.com → www.example.com), the
   * origin it lands on is part of the site.
   */
  startUrl: string;
  /**
   * Where the crawl's run lives: a SQLite file or a `postgres://` URL. A run of the same name
   * there is joined rather than started again: a crawl stopped halfway continues, and other
   * processes (on other machines, with a shared store) given the same queue and run work it too.
   * Default: a SQLite file of its own in a temporary folder, deleted once the entries are read.
   */
  queue?: string | undefined;
  /** The run's name in the queue (default `crawl`). */
  run?: string | undefined;
  /** The HTTP client of the crawl (its user-agent is the name matched in robots.txt); default one of its own. */
  http?: HttpClient | undefined;
  /** How pages are fetched; default the HTTP client's ({@link httpPageFetcher}). */
  fetcher?: PageFetcher | undefined;
  /** How robots.txt is asked; default the HTTP client's ({@link robotsTxtPolicy}). */
  robots?: RobotsPolicy | undefined;
  /** Also start from the URLs of the sitemaps of the origin the start URL lands on. */
  useSitemaps?: boolean | undefined;
  /** Most pages to request (default: no limit); a redirect followed is a request of its own. */
  maxPages?: number | undefined;
  /** Most link hops from a seed (default: no limit). */
  maxDepth?: number | undefined;
  /** Where spider traps are cut off (see traps.ts; default DEFAULT_TRAP_LIMITS). */
  trapLimits?: { [Limit in keyof TrapLimits]?: number | undefined } | undefined;
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
  /** Query parameter name globs to remove from every URL besides TRACKING_PARAMS (`session*`). */
  stripParams?: readonly string[] | undefined;
  /** Query parameter name globs to keep although TRACKING_PARAMS or stripParams name them. */
  keepParams?: readonly string[] | undefined;
  /** Decoded bytes read of a page at most, with the default fetcher (default DEFAULT_MAX_PAGE_BYTES). */
  maxPageBytes?: number | undefined;
  /**
   * Requests in flight at once to a host (default 4). Pages waiting for a retry's backoff are not
   * in flight: the queue holds them, however many.
   */
  concurrency?: number | undefined;
  /** Least time between two requests to a host, in ms; robots.txt's Crawl-delay raises it. */
  delayMs?: number | undefined;
  /** Called as the crawl advances (often: throttle any drawing). */
  onProgress?: ((progress: CrawlProgress) => void) | undefined;
  /** Stops the crawl early; pages in flight are finished first. */
  signal?: AbortSignal | undefined;
}

/** The run's name when `CrawlOptions.run` names none. */
export const CRAWL_RUN = 'crawl';

/**
 * Crawls a site from `options.startUrl`, judging every page it reaches, then yields the entries
 * of the pages to list (in URL order, without the images that stand on most pages, and without a
 * lastmod that is a build's stamp: see CrawlRunRecord.lastmodStamp) and returns
 * how the crawl went. Stopped by the signal, it yields the pages listed so far, and its result
 * says it did not finish.
 *
 * @example
 * ```ts
 * const crawl = crawlSite({ startUrl: 'https://www.example.com/' });
 * await writeSitemaps(crawl, { outDir: 'public', baseUrl: 'https://www.example.com/' });
 * ```
 */
export async function* crawlSite(options: CrawlOptions): AsyncGenerator<UrlEntry, CrawlResult, undefined> {
  const temporary = options.queue === undefined ? mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-')) : undefined;
  try {
    const taken = await startCrawl(options, options.queue ?? join(temporary!, 'crawl.sqlite'));
    try {
      const record = new CrawlRunRecord(taken.store, taken.run);
      const { origins: _origins, ...result } = await record.result();
      yield* record.listedEntries();
      return result;
    } finally {
      await taken.store.close();
    }
  } finally {
    if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
  }
}

/**
 * Crawls as {@link crawlSite} does into the queue named, where the run's every URL and outcome
 * stay to be read ({@link readCrawlRun}), and resolves with how the crawl went.
 */
export async function crawlSiteInto(options: CrawlOptions & { queue: string }): Promise<CrawlResult> {
  const taken = await startCrawl(options, options.queue);
  try {
    const { origins: _origins, ...result } = await new CrawlRunRecord(taken.store, taken.run).result();
    return result;
  } finally {
    await taken.store.close();
  }
}

/** Reads the crawl run `run` of the queue at `queue` with `read`, then closes the queue. */
export async function readCrawlRun<T>(
  queue: string,
  read: (record: CrawlRunRecord, store: WorkQueue) => Promise<T>,
  run = CRAWL_RUN,
): Promise<T> {
  const store = await RunStore.open(queue);
  try {
    const found = await store.run(run);
    if (found === undefined) throw new Error(`no crawl "${run}" in ${store.location}`);
    return await read(new CrawlRunRecord(store, found), store);
  } finally {
    await store.close();
  }
}

async function startCrawl(options: CrawlOptions, queue: string): Promise<Taken> {
  const strip = paramFilter({ strip: options.stripParams, keep: options.keepParams });
  // A folder's index file is crawled as the folder's URL, as its links are (crawl/normalise.ts).
  const given = normaliseCrawlUrl(options.startUrl, undefined, strip);
  const startUrl = given === undefined ? undefined : folderUrl(given);
  if (startUrl === undefined) throw new Error(`"${options.startUrl}" is not an http(s) URL to crawl`);
  const { maxPages, maxDepth } = options;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const runOptions: CrawlRunOptions = {
    startUrls: [startUrl],
    include: [...(options.include ?? [])],
    exclude: [...(options.exclude ?? [])],
    keepParams: [...(options.keepParams ?? [])],
    stripParams: [...(options.stripParams ?? [])],
    trapLimits: { ...options.trapLimits },
    maxPageBytes: options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
    delayMs: options.delayMs ?? 0,
    concurrency,
    ...(maxDepth === undefined ? {} : { maxDepth }),
    ...(maxPages === undefined ? {} : { maxPages }),
    ...(options.useSitemaps === true ? { useSitemaps: true } : {}),
  };
  const { http, onProgress } = options;
  // As a crawl's state always was: a commit survives kill -9 (it is the system's), not a power cut.
  const who: Participation = { store: queue, name: options.run ?? CRAWL_RUN, workerOnly: false, durability: 'OFF' };
  return workCrawlHere(
    who,
    {
      kind: crawlJob.kind,
      options: runOptions,
      seeds: [{ url: startUrl, host: new URL(startUrl).origin, depth: 0 }],
      pace: { concurrency },
      state: 'starting',
      budget: maxPages,
    },
    {
      http: () => http ?? new HttpClient(),
      ownsHttp: http === undefined,
      seams: { fetcher: options.fetcher, robots: options.robots },
      onProgress: onProgress && ((counts) => onProgress(counts.snapshot())),
      signal: options.signal,
    },
  );
}
