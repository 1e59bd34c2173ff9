/**
 * `sitemapkit crawl URL… --run NAME [--store URL] [--workers N]`: the crawl as a run shared by
 * workers on any number of machines (run/crawl-pages.ts). Once the run's work is done, one process
 * writes the sitemaps and the report from the store, as a crawl of one process writes them; a site
 * of several hosts gets one set of sitemaps per host, each in its own directory under --out.
 */
import { forTerminal } from '../core/terminal.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { UrlEntry } from '../core/entry.js';
import { summariseCrawl } from '../crawl/summary.js';
import { HttpClient } from '../http/client.js';
import type { WriteSummary } from '../generate/types.js';
import { writeLeftOutFile } from '../report/crawl-left-out.js';
import { crawlReport, formatCrawlReportJson, formatCrawlReportText } from '../report/crawl.js';
import { crawlRunResult, restoreCrawlRun } from '../run/crawl-outputs.js';
import { crawlJob, type CrawlRunOptions } from '../run/crawl-pages.js';
import { runOfJob } from '../run/job.js';
import { takePart } from '../run/session.js';
import { CrawlStore } from '../store/crawl-store.js';
import type { RunRecord, RunStore } from '../store/run-store.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import { DEFAULT_USER_AGENT } from '../version.js';
import { EXIT_FAILED, EXIT_OK, UsageError, type Io, type ParsedArgs } from './command.js';
import type { CRAWL_FLAGS } from './crawl-common.js';
import { judgeCrawl, publish, readCrawlRules, readStartUrls } from './crawl-common.js';
import { listenForInterruption } from './interrupt.js';
import { readNetworkOptions } from './network-options.js';
import { readOutputOptions, type OutputOptions } from './output-options.js';
import { endOfPart, readParticipation, workerCommandLine } from './run-options.js';

/** A crawl run's options as stored: the rules every worker follows, and where the outputs go. */
export interface StoredCrawl extends CrawlRunOptions {
  output: OutputOptions;
  /** True when --base-url was given (else each host's sitemaps are published at its root). */
  baseUrlGiven: boolean;
  report?: string;
  json: boolean;
}

export async function crawlOnWorkers(args: ParsedArgs<typeof CRAWL_FLAGS>, io: Io): Promise<number> {
  const { flags } = args;
  if (flags.resume)
    throw new UsageError('--resume a run resumes by itself: start the same command again with the same --run');
  // Workers take the URLs as given: a host alone is https (one process tries http after it).
  const startUrls = readStartUrls(args, { several: true, io }).map((start) => start.url);
  const network = readNetworkOptions(flags, io);
  const output = readOutputOptions(flags, { baseUrl: new URL('/', startUrls[0]).href });
  const stateDir = resolve(flags.state ?? DEFAULT_STATE_DIR);
  const who = readParticipation(flags, `crawl ${new URL(startUrls[0]!).host}`, stateDir);
  const rules = readCrawlRules(flags, network.perHost);
  const { report, maxPages } = flags;
  const options: StoredCrawl = {
    ...rules,
    ...(maxPages === undefined ? {} : { maxPages }),
    ...(flags.useSitemaps ? { useSitemaps: true } : {}),
    startUrls,
    output: { ...output, outDir: resolve(output.outDir) },
    baseUrlGiven: flags.baseUrl !== undefined,
    ...(report === undefined ? {} : { report: resolve(report) }),
    json: flags.json,
  };
  const userAgent = network.http.userAgent ?? DEFAULT_USER_AGENT;
  const seeds = startUrls.map((url) => ({ url, host: new URL(url).origin, depth: 0 }));
  const interruption = listenForInterruption();
  const started = Date.now();
  try {
    const taken = await takePart(
      who,
      { kind: 'crawl', options, seeds, pace: { concurrency: rules.concurrency }, state: 'starting', budget: maxPages },
      (run, store) => {
        const http = new HttpClient({ ...network.http, userAgent, signal: interruption.signal });
        return Promise.resolve({
          kind: crawlJob.step(run, { store, http }),
          pace: { concurrency: run.options.concurrency },
          close: () => http.close(),
        });
      },
      { workerArgs: workerCommandLine(process.argv.slice(2)), stdout: io.stdout, stderr: io.stderr },
      interruption.signal,
    );
    return await endOfPart('crawl', who, taken, io, () =>
      writeCrawlOutputs(taken.store, taken.run, io, Date.now() - started),
    );
  } finally {
    interruption.dispose();
  }
}

/**
 * Writes a done crawl run's sitemaps (one set per host with listed pages), its --report file and
 * its report on stdout, from the store. Used when the run ends, and by `run finish`.
 */
export async function writeCrawlOutputs(store: RunStore, run: RunRecord, io: Io, durationMs: number): Promise<number> {
  const { options } = runOfJob<CrawlRunOptions, StoredCrawl>(crawlJob, run);
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-run-'));
  const restored = new CrawlStore(join(dir, 'crawl.sqlite'), { fresh: true });
  try {
    const { sitemapProblems } = await restoreCrawlRun(store, run, restored);
    const result = await crawlRunResult(store, run, restored);
    const summary = summariseCrawl(restored, result);
    const verdict = judgeCrawl(result, summary);
    const published = verdict.publish ? await publishHosts(restored, options, io) : undefined;
    const leftOutFile =
      options.report === undefined
        ? undefined
        : { path: options.report, urls: await writeLeftOutFile(restored.leftOut(), options.report) };
    const report = crawlReport(summary, durationMs, published?.written, leftOutFile);
    io.stdout.write(options.json ? formatCrawlReportJson(report) : formatCrawlReportText(report));
    const problems = [
      ...verdict.problems,
      ...(published?.problem === undefined ? [] : [published.problem]),
      ...sitemapProblems,
    ];
    for (const problem of problems) io.stderr.write(`sitemapkit crawl: ${forTerminal(problem)}\n`);
    return problems.length > 0 ? EXIT_FAILED : EXIT_OK;
  } finally {
    restored.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The sitemaps of every host with listed pages: in --out itself when there is one host, else in a
 * directory per host under it (`www.example.com`, `127.0.0.1-8080`), each published at its host's root.
 */
async function publishHosts(
  restored: CrawlStore,
  options: StoredCrawl,
  io: Io,
): Promise<{ written?: WriteSummary; problem?: string }> {
  const origins = new Set<string>();
  for (const entry of restored.listedEntries()) origins.add(new URL(entry.loc).origin);
  const [only] = origins;
  if (origins.size === 1) {
    const baseUrl = options.baseUrlGiven ? options.output.baseUrl : `${only}/`;
    return publish(restored.listedEntries(), { ...options.output, baseUrl }, io);
  }
  const written: WriteSummary[] = [];
  for (const origin of [...origins].sort()) {
    const folder = new URL(origin).host.replace(':', '-');
    const outDir = join(options.output.outDir, folder);
    const result = await publish(
      onOrigin(restored.listedEntries(), origin),
      { ...options.output, outDir, baseUrl: `${origin}/` },
      io,
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

function* onOrigin(entries: Iterable<UrlEntry>, origin: string): Iterable<UrlEntry> {
  for (const entry of entries) if (entry.loc.startsWith(`${origin}/`)) yield entry;
}
