/**
 * What a crawl run leaves: its sitemaps (one set per host), its --report file and its report,
 * read straight from the run's queue (the same for a crawl of one process and for a run on
 * workers, at its end or by `run finish`). Nothing is copied: the summary is one pass over the
 * run's items, the sitemaps a pass in URL order, the left-out URLs a pass in the order met.
 */
import { join } from 'node:path';
import { findLastModifiedStamp, withoutStampedLastmods, type BuildStamp } from '../core/build-stamp.js';
import { withoutCommonImagesOf } from '../core/common-images.js';
import { formatUtcDateTime } from '../core/datetime.js';
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { formatDiagnostic } from '../core/diagnostics.js';
import type { UrlEntry } from '../core/entry.js';
import { forTerminal } from '../core/terminal.js';
import { queryTwinsOf, sameBytes } from '../crawl/query-twins.js';
import { summariseCrawl, type CrawlRecord, type CrawlRow, type CrawlSummary } from '../crawl/summary.js';
import type { CrawlResult, LeftOutUrl, ListedEntry, Outcome } from '../crawl/types.js';
import { writeSitemaps } from '../generate/index.js';
import type { WriteSitemapsOptions, WriteSummary } from '../generate/types.js';
import { writeLeftOutFile } from '../report/crawl-left-out.js';
import { crawlReport, formatCrawlReportJson, formatCrawlReportText } from '../report/crawl.js';
import { formatFolded } from '../report/format.js';
import type { RunRecord, WorkQueue } from '../store/run-store.js';
import { crawlJob, isSitemapsItem, landedFact, SITEMAPS_READ, type CrawlRunOptions } from './crawl-pages.js';
import { runOfJob } from './job.js';

/** Where the sitemaps go and how they are written: the options of writeSitemaps that can be stored. */
export type SitemapsPlan = Omit<WriteSitemapsOptions, 'onProblem' | 'signal' | 'ledger'>;

/** A crawl run's options as stored: the rules every worker follows, and what its outputs are. */
export interface StoredCrawl extends CrawlRunOptions {
  output: SitemapsPlan;
  /** True when --base-url was given (else each host's sitemaps are published at its root). */
  baseUrlGiven: boolean;
  report?: string;
  json: boolean;
  /** Examples of each reason in the report, and problems of each code printed (0: all). */
  maxPerRule?: number;
}

/** Where a writer of outputs prints: the report on `stdout`, problems on `stderr`. */
export interface OutputStreams {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

/** What writing a run's outputs came to: what failed it, and the problems the sitemaps met. */
export interface OutputsWritten {
  failures: string[];
  errors: number;
  warnings: number;
}

/** Outcomes of the start URL that mean there was no site to crawl. */
const START_FAILURES = new Set(['fetch-error', 'http-error', 'server-error', 'robots-blocked']);

/**
 * Writes a crawl run's sitemaps (when it is done and has pages to list), its --report file and
 * its report, from the queue. Problems are printed on `streams.stderr` as `sitemapkit crawl: …`.
 */
export async function writeCrawlOutputs(
  store: WorkQueue,
  run: RunRecord,
  streams: OutputStreams,
  { durationMs }: { durationMs: number },
): Promise<OutputsWritten> {
  const { options } = runOfJob<CrawlRunOptions, StoredCrawl>(crawlJob, run);
  const record = new CrawlRunRecord(store, run);
  const maxPerRule = options.maxPerRule ?? 10;
  const result = await record.result();
  const summary = await summariseCrawl(record, result, { examples: maxPerRule || -1 });
  const verdict = judgeCrawl(result, summary);
  const tally = new DiagnosticTally(maxPerRule);
  const published = verdict.publish ? await publishHosts(record, options, streams, tally) : undefined;
  // The report comes whatever happened: it says why nothing was published.
  const leftOutFile =
    options.report === undefined
      ? undefined
      : { path: options.report, urls: await writeLeftOutFile(record.leftOut(), options.report) };
  const report = crawlReport(summary, durationMs, published?.written, leftOutFile);
  streams.stdout.write(options.json ? formatCrawlReportJson(report) : formatCrawlReportText(report));
  const failures = [
    ...verdict.problems,
    ...(published?.problem === undefined ? [] : [published.problem]),
    ...(await record.sitemapProblems()),
  ];
  for (const problem of failures) streams.stderr.write(`sitemapkit crawl: ${forTerminal(problem)}\n`);
  return { failures, errors: tally.errors, warnings: tally.warnings };
}

/** A crawl run as its queue holds it, read as a crawl's record: its URLs, its listed entries, its left-out URLs. */
export class CrawlRunRecord implements CrawlRecord {
  /** Listed URLs with a query that are their twin without it again (see queryDuplicates). */
  private duplicates: Promise<Map<string, string>> | undefined;

  constructor(
    private readonly store: WorkQueue,
    private readonly run: RunRecord,
  ) {}

  /** The run's name in its queue. */
  get name(): string {
    return this.run.name;
  }

  /** Every URL met, in the order met; the reading of an origin's sitemaps is work of the run, not a page. */
  async *rows(): AsyncIterable<CrawlRow> {
    const duplicates = await this.queryDuplicates();
    for await (const item of this.store.items(this.run.id))
      if (!isSitemapsItem(item.input)) yield { ...asJudged(item, duplicates), fetched: item.fetched };
  }

  stripped(): AsyncIterable<{ from: string; to: string; name: string }> {
    return this.store.stripped(this.run.id);
  }

  /**
   * The listed entries in URL order, without the images that stand on most pages, and without a
   * lastmod that is a build's stamp (see lastmodStamp; `known` when the caller found it already):
   * four passes, or three.
   */
  async *listedEntries(origin?: string, known?: { stamp: BuildStamp | undefined }): AsyncGenerator<UrlEntry> {
    const stamp = known === undefined ? (await this.lastmodStamp(origin))?.stamp : known.stamp;
    yield* withoutStampedLastmods(
      withoutCommonImagesOf(() => this.listedRows(origin)),
      stamp,
    );
  }

  /**
   * The build stamp among the listed pages' Last-Modified (core/build-stamp.ts), and how many
   * lastmods it takes away, or undefined: a static server's Last-Modified is the time the build
   * wrote the file, not when the page changed.
   */
  lastmodStamp(origin?: string): Promise<{ stamp: BuildStamp; lastmods: number } | undefined> {
    return findLastModifiedStamp(this.listedRows(origin));
  }

  /** Every URL left out, in the order met, with the page that first led to it. */
  async *leftOut(): AsyncIterable<LeftOutUrl> {
    const duplicates = await this.queryDuplicates();
    for await (const item of this.store.items(this.run.id)) {
      const { outcome, detail } = asJudged(item, duplicates);
      if (outcome !== null && outcome !== 'listed' && !isSitemapsItem(item.input))
        yield { url: item.url, outcome, detail, foundOn: item.foundOnUrl };
    }
  }

  /** The origins of the listed pages, sorted. */
  async listedOrigins(): Promise<string[]> {
    const origins = new Set<string>();
    for await (const entry of this.listedRows()) origins.add(new URL(entry.loc).origin);
    return [...origins].sort();
  }

  /** What the reading of the site's sitemaps could not read (--use-sitemaps), one problem per origin. */
  async sitemapProblems(): Promise<string[]> {
    const problems: string[] = [];
    for await (const item of this.store.items(this.run.id, { outcome: SITEMAPS_READ }))
      if (item.detail !== null) problems.push(item.detail);
    return problems;
  }

  /**
   * The run as a crawl result: its first start URL, what became of it (or of the page it landed
   * on), the origins crawled, and whether the run is done.
   */
  async result(): Promise<CrawlResult & { origins: string[] }> {
    const { options } = runOfJob(crawlJob, this.run);
    const facts = await this.store.facts(this.run.id);
    const startUrl = options.startUrls[0]!;
    const landings = options.startUrls.map((url) => facts[landedFact(url)] ?? url);
    const origins = [...new Set([...options.startUrls, ...landings].map((url) => new URL(url).origin))];
    const start = await this.store.outcomeOf(this.run.id, landings[0]!);
    const startDetail = start?.detail ?? undefined;
    return {
      startUrl,
      site: new URL(landings[0]!).origin,
      startOutcome: (start?.outcome ?? undefined) as Outcome | undefined,
      ...(startDetail === undefined ? {} : { startDetail }),
      finished: this.run.state === 'done',
      origins,
    };
  }

  private async *listedRows(origin?: string): AsyncIterable<ListedEntry> {
    const duplicates = await this.queryDuplicates();
    for await (const item of this.store.items(this.run.id, { outcome: 'listed', byUrl: true }))
      if (
        item.result !== undefined &&
        (origin === undefined || item.url.startsWith(`${origin}/`)) &&
        !duplicates.has(item.url)
      ) {
        const { bodyDigest: _digest, ...entry } = item.result as ListedEntry;
        yield entry;
      }
  }

  /**
   * The listed URLs with a query whose twin without it is listed with the same bytes
   * (crawl/query-twins.ts), each with its twin: found once, from the few URLs with a query.
   */
  private queryDuplicates(): Promise<Map<string, string>> {
    this.duplicates ??= (async () => {
      const found = new Map<string, string>();
      for await (const item of this.store.items(this.run.id, { outcome: 'listed', withQuery: true }))
        for (const twin of queryTwinsOf(item.url)) {
          const twinItem = await this.store.outcomeOf(this.run.id, twin);
          if (twinItem?.outcome !== 'listed' || !sameBytes(item.result as ListedEntry, twinItem.result as ListedEntry))
            continue;
          found.set(item.url, twin);
          break;
        }
      return found;
    })();
    return this.duplicates;
  }
}

/** An item's outcome as the outputs judge it: a listed URL that is its query twin again is a duplicate. */
function asJudged(
  item: { url: string; outcome: string | null; detail: string | null },
  duplicates: ReadonlyMap<string, string>,
): { url: string; outcome: string | null; detail: string | null } {
  const twin = item.outcome === 'listed' ? duplicates.get(item.url) : undefined;
  if (twin === undefined) return { url: item.url, outcome: item.outcome, detail: item.detail };
  return { url: item.url, outcome: 'duplicate', detail: `the same bytes as ${twin}` };
}

/**
 * Whether the sitemaps are to be written, and what makes the crawl a failure (exit 1): no start
 * page, nothing to list, pages that could not be read.
 */
export function judgeCrawl(result: CrawlResult, summary: CrawlSummary): { publish: boolean; problems: string[] } {
  if (!result.finished) return { publish: false, problems: [] };
  const start = summary.start;
  if (start === undefined || START_FAILURES.has(start.outcome))
    return {
      publish: false,
      problems: [`the start URL ${result.startUrl} could not be fetched: ${start?.detail ?? 'no answer'}`],
    };
  const problems: string[] = [];
  if (summary.listed === 0) {
    const why =
      start.outcome === 'listed' ? '' : `: the start page was left out as ${start.outcome} (${start.detail ?? ''})`;
    problems.push(`no page could be listed, so no sitemap was written${why}`);
  }
  if (summary.unread > 0)
    problems.push(
      `${summary.unread} ${summary.unread === 1 ? 'page' : 'pages'} could not be read (server error, no response or cut off); the report lists them`,
    );
  return { publish: summary.listed > 0, problems };
}

/**
 * The sitemaps of every host with listed pages: in the output directory itself when there is one
 * host, else in a directory per host under it (`www.example.com`, `127.0.0.1-8080`), each
 * published at its host's root (or at --base-url, given for a site of one host).
 */
async function publishHosts(
  record: CrawlRunRecord,
  options: StoredCrawl,
  streams: OutputStreams,
  tally: DiagnosticTally,
): Promise<{ written?: WriteSummary; problem?: string }> {
  const origins = await record.listedOrigins();
  // Stored as JSON: a date given (--now) comes back as its text.
  const output = {
    ...options.output,
    ...(options.output.now === undefined ? {} : { now: new Date(options.output.now) }),
  };
  if (origins.length === 1) {
    const baseUrl = options.baseUrlGiven ? output.baseUrl : `${origins[0]}/`;
    return publish(await honestlyDated(record, origins[0]!, streams), { ...output, baseUrl }, streams, tally);
  }
  const written: WriteSummary[] = [];
  for (const origin of origins) {
    const folder = new URL(origin).host.replace(':', '-');
    const outDir = join(options.output.outDir, folder);
    const result = await publish(
      await honestlyDated(record, origin, streams),
      { ...output, outDir, baseUrl: `${origin}/` },
      streams,
      tally,
    );
    if (result.problem !== undefined) return result;
    written.push({
      ...result.written!,
      files: result.written!.files.map((file) => ({ ...file, name: `${folder}/${file.name}` })),
    });
  }
  const { index: _index, ...first } = written[0]!;
  return {
    written: {
      ...first,
      files: written.flatMap((w) => w.files),
      robotsTxt: written.flatMap((w) => w.robotsTxt),
      urls: written.reduce((sum, w) => sum + w.urls, 0),
    },
  };
}

/** The listed entries of `origin`; that a build's stamp was left out of their lastmods is said once, on `stderr`. */
async function honestlyDated(
  record: CrawlRunRecord,
  origin: string,
  streams: OutputStreams,
): Promise<AsyncIterable<UrlEntry>> {
  const found = await record.lastmodStamp(origin);
  if (found !== undefined && found.lastmods > 0) {
    const { stamp, lastmods } = found;
    streams.stderr.write(
      `sitemapkit crawl: note: lastmod is left out of ${lastmods} page${lastmods === 1 ? '' : 's'} of ${origin}: the Last-Modified dates of ${stamp.files} pages are one build's (${formatUtcDateTime(stamp.from)} to ${formatUtcDateTime(stamp.to)}), and a build time is not when a page changed. A page is dated by its own <meta property="article:modified_time">, JSON-LD or microdata dateModified\n`,
    );
  }
  return record.listedEntries(origin, { stamp: found?.stamp });
}

/**
 * Writes the sitemaps of the listed pages, printing the first problems of each code (`tally`
 * counts them all); a failure is reported, not thrown, so the report still comes.
 */
async function publish(
  entries: AsyncIterable<UrlEntry>,
  options: SitemapsPlan,
  streams: OutputStreams,
  tally: DiagnosticTally,
): Promise<{ written?: WriteSummary; problem?: string }> {
  try {
    const written = await writeSitemaps(entries, {
      ...options,
      onProblem: (problem) => {
        if (tally.add(problem)) streams.stderr.write(`${formatDiagnostic(problem)}\n`);
      },
    });
    const folded = tally.folded().map(formatFolded);
    if (folded.length > 0) streams.stderr.write(`${folded.join('\n')}\n`);
    return { written };
  } catch (error) {
    return { problem: `the sitemaps could not be written: ${(error as Error).message}` };
  }
}
