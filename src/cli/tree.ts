/**
 * `sitemapkit tree SITE_OR_URL`: a site's whole sitemap tree (robots.txt, well-known locations,
 * indexes) as a terminal tree, a JSON document (--json) or every URL entry as JSONL (--urls).
 */
import { once } from 'node:events';
import { entryToJsonLine } from '../report/entries.js';
import { renderTree, treeJsonChunks } from '../report/tree.js';
import { formatBytes, formatNumber } from '../report/format.js';
import {
  fetchSitemapTree,
  walkSitemapTree,
  type SitemapTree,
  type TreeOptions,
  type TreeProgress,
} from '../discover/tree.js';
import { ConditionalFetches } from '../discover/conditional.js';
import { SitemapMemory, sitemapMemoryPath } from '../store/sitemap-memory.js';
import {
  UsageError,
  booleanFlag,
  integerFlag,
  stringFlag,
  useColor,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';
import { listenForInterruption } from './interrupt.js';
import { LineOutput } from './line-output.js';
import { ProgressLine } from './progress.js';
import { networkHelp, networkOptions, readNetworkOptions } from './network-options.js';
import { readSiteInput } from './site-input.js';
import { readOutcomes } from '../discover/tree-model.js';
import { PROBLEM_OPTIONS, PROBLEM_OPTIONS_HELP, exitCode, readProblemOptions } from './problem-options.js';
import { RUN_OPTIONS, RUN_OPTIONS_HELP } from './run-options.js';
import { readChangedOnly, runTreeSites } from './tree-sites.js';

export const command: Command = {
  spec: {
    name: 'tree',
    summary: "Read a site's whole sitemap tree from robots.txt and well-known locations.",
    usage:
      'sitemapkit tree SITE_OR_URL… [--json | --urls [--changed-only]] [--state DIR] [options]\n       sitemapkit tree --sites FILE [--urls] [--state DIR] [--run NAME --store URL --workers N] [options]',
    help: `A site (example.com, https://example.com) is read from its robots.txt Sitemap: lines or,
when there are none, from the well-known locations (/sitemap.xml, /sitemap_index.xml, …),
probed one at a time. A sitemap URL (or several) starts the tree there. Indexes are followed
to --max-depth; each sitemap is fetched once however often it is listed.

Output:
  (default)            the tree, one line per sitemap: status, kind, counts, bytes, lastmod
                       range, time, and its problems beneath; totals at the end
  --json               the tree as one JSON document
  --urls               every URL entry of the tree as JSONL, each with "source" (its sitemap)

Many sites:
  --sites FILE         the trees of every site in FILE (one host, origin or sitemap URL a line;
                       blank lines and # comments skipped), walked by the workers of a run: JSON
                       lines on stdout, each site's summary row ("kind":"site") after its URL
                       entries (with --urls, each with "source" and "site"); each site is walked
                       once, by one worker
  --out FILE           once the run is done, every site's summary row into FILE (JSONL)
  With --state DIR (and --changed-only), each site is walked with the conditional fetches
  below; every worker keeps its memory in its own DIR/tree.sqlite (shared by the workers of
  one machine): give each machine the same DIR from run to run.

Options:
  --max-depth N        index levels followed below a root (default 5)
  --state DIR          remember each sitemap read whole (its ETag, Last-Modified and body digest,
                       in DIR/tree.sqlite) and, next time, ask with If-None-Match and
                       If-Modified-Since: a 304 or the same body marks it unchanged, its counts
                       taken from the last walk (an index's children are still walked). A
                       sitemap that fails (5xx, 408, 429…) is never taken for unchanged or empty
  --changed-only       with --urls and --state: only the entries of sitemaps that changed since
                       the last walk (a crawler's daily ingestion reads only what changed);
                       without it, --urls prints every entry and fetches every sitemap whole
  -q, --quiet          no progress line or retry notice on stderr (nor, with --urls, the
                       closing count)

${PROBLEM_OPTIONS_HELP}
                         (per sitemap; --json keeps as many of each, and counts them all)

${networkHelp('pool')}

${RUN_OPTIONS_HELP}

A sitemap that failed for a reason that may pass (a refused or lost connection, 429, 5xx) is
read once more after the rest of the tree.

Ctrl-C (or SIGTERM) stops the walk and prints the tree read so far.

The run fails (exit 1), whatever --fail-on says, when a sitemap of the tree could not be found,
fetched or read to its end (its URLs are missing from the totals), when no sitemap was found, or
when the walk was stopped; and with --fail-on error (the default) when a problem was found.
With --sites: 0 when every site's tree was read whole.

Examples:
  sitemapkit tree example.com
  sitemapkit tree https://example.com/sitemap_index.xml --json > tree.json
  sitemapkit tree example.com --urls | wc -l
  sitemapkit tree example.com --urls --state .sitemapkit --changed-only > new-and-changed.jsonl
  sitemapkit tree --sites sites.txt --urls --workers 4 > urls.jsonl
  sitemapkit tree --sites sites.txt --run daily --store postgres://crawler@db/sitemaps --out rows.jsonl`,
    options: {
      json: { type: 'boolean' },
      urls: { type: 'boolean' },
      'max-depth': { type: 'string' },
      state: { type: 'string' },
      'changed-only': { type: 'boolean' },
      ...networkOptions('pool'),
      ...PROBLEM_OPTIONS,
      quiet: { type: 'boolean', short: 'q' },
      sites: { type: 'string' },
      out: { type: 'string' },
      ...RUN_OPTIONS,
    },
  },

  async run(args, io) {
    if (args.values.sites !== undefined) return runTreeSites(args, io);
    for (const flag of ['out', 'run', 'store', 'workers', 'worker'])
      if (args.values[flag] !== undefined) throw new UsageError(`--${flag} goes with --sites FILE`);
    if (args.positionals.length === 0) throw new UsageError('give a site (example.com) or a sitemap URL');
    if (booleanFlag(args, 'json') && booleanFlag(args, 'urls'))
      throw new UsageError('--json and --urls are two different outputs; choose one');
    const input = readSiteInput(args);
    const problems = readProblemOptions(args);
    const memory = openMemory(args);
    const progress = booleanFlag(args, 'quiet') ? undefined : new ProgressLine(io);
    // Ctrl-C or SIGTERM stops the walk; the tree read so far is still printed, marked as stopped.
    const interruption = listenForInterruption();
    const options: TreeOptions = {
      ...readOptions(args, io),
      examplesPerCode: problems.maxPerRule,
      examplesPerCodeInTree: problems.maxPerRule === 0 ? 0 : undefined, // 0 asks for every problem
      onProgress: progress && ((p: TreeProgress) => progress.update(() => formatTreeProgress(p))),
      signal: interruption.signal,
      ...(memory ? { conditional: memory.conditional } : {}),
      // Entries alone, and no memory to keep the summary in: no lastmod range to work out.
      lastmodRange: !booleanFlag(args, 'urls') || memory !== undefined,
    };
    let tree: SitemapTree;
    let printed: number | undefined;
    try {
      if (booleanFlag(args, 'urls')) ({ tree, printed } = await writeUrls(input, options, io));
      else tree = await fetchSitemapTree(input, options);
    } catch (error) {
      memory?.store.close();
      throw error;
    } finally {
      interruption.dispose();
      progress?.clear();
    }
    // What was read is remembered once it is out: a run killed before loses no entry a reader did not get.
    if (memory) {
      memory.store.remember(memory.conditional.remembered(), new Date());
      memory.store.close();
    }
    if (booleanFlag(args, 'json')) await writeChunks(io.stdout, treeJsonChunks(tree));
    else if (!booleanFlag(args, 'urls'))
      io.stdout.write(renderTree(tree, { color: useColor(io), maxPerRule: problems.maxPerRule }));
    else if (!booleanFlag(args, 'quiet')) {
      const unchanged = tree.totals.unchanged ? `, ${tree.totals.unchanged} unchanged since the last walk` : '';
      io.stderr.write(
        `${(printed ?? 0).toLocaleString('en-US')} URLs from ${tree.totals.read} of ${tree.totals.sitemaps} sitemaps${unchanged}\n`,
      );
    }
    const failed = !tree.complete || tree.totals.read === 0;
    const { errors, warnings } = tree.totals;
    return exitCode({ documents: readOutcomes(tree.roots), failed, errors, warnings }, problems.failOn);
  },
};

/**
 * --state: the memory of the last walk, and the conditional fetches over it. Unchanged sitemaps
 * are skipped (conditional requests, bodies digested before they are parsed) unless --urls wants
 * every entry.
 */
function openMemory(args: ParsedArgs): { store: SitemapMemory; conditional: ConditionalFetches } | undefined {
  const stateDir = stringFlag(args, 'state');
  const changedOnly = readChangedOnly(args);
  if (stateDir === undefined) return undefined;
  const store = new SitemapMemory(sitemapMemoryPath(stateDir));
  const skipUnchanged = !booleanFlag(args, 'urls') || changedOnly;
  return { store, conditional: new ConditionalFetches({ memory: store, skipUnchanged }) };
}

function readOptions(args: ParsedArgs, io: Io): TreeOptions {
  const network = readNetworkOptions(args, io, { quiet: booleanFlag(args, 'quiet') });
  return {
    maxDepth: integerFlag(args, 'max-depth', 5, { min: 0 }),
    concurrency: network.concurrency,
    perHost: network.perHost,
    http: network.http,
  };
}

/**
 * Streams every URL entry as one JSON line, in large writes, waiting when stdout is full (and for
 * the last write to be taken); returns the tree and how many entries were printed.
 */
async function writeUrls(
  input: string | string[],
  options: TreeOptions,
  io: Io,
): Promise<{ tree: SitemapTree; printed: number }> {
  const walk = walkSitemapTree(input, options);
  const out = new LineOutput(io.stdout);
  let printed = 0;
  for await (const batch of walk.batches()) {
    for (const { entry, source } of batch) out.line(entryToJsonLine(entry, source));
    printed += batch.length;
    if (out.full) await out.flush();
  }
  await out.flush();
  return { tree: await walk.tree, printed };
}

/** "sitemaps 12/40 · 1,204,332 URLs · 88.2 MiB · 310,442 URLs/s" */
function formatTreeProgress(p: TreeProgress): string {
  const rate = p.elapsedMs > 0 ? Math.round((p.urls * 1000) / p.elapsedMs) : 0;
  return `sitemaps ${p.nodesDone}/${p.nodesKnown} · ${formatNumber(p.urls)} URLs · ${formatBytes(p.bytesIn)} · ${formatNumber(rate)} URLs/s`;
}

/** Writes `chunks` gathered into pieces of about 64 KiB, waiting while the stream is full. */
async function writeChunks(stream: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  let pending = '';
  for (const chunk of chunks) {
    pending += chunk;
    if (pending.length < 65_536) continue;
    if (!stream.write(pending)) await once(stream, 'drain');
    pending = '';
  }
  if (pending !== '') stream.write(pending);
}
