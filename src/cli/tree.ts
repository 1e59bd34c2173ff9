/**
 * `sitemapkit tree SITE_OR_URL`: a site's whole sitemap tree (robots.txt, well-known locations,
 * indexes) as a terminal tree, a JSON document (--json) or every URL entry as JSONL (--urls).
 */
import { once } from 'node:events';
import { entryToJsonLine } from '../report/entries.js';
import { renderTree, treeJsonChunks } from '../report/tree.js';
import { formatBytes, formatNumber } from '../report/format.js';
import {
  fetchSitemapTreeView,
  walkSitemapTree,
  type SitemapTreeView,
  type TreeNode,
  type TreeOptions,
  type TreeProgress,
} from '../discover/tree.js';
import { ConditionalFetches } from '../discover/conditional.js';
import { SitemapMemory, sitemapMemoryPath } from '../store/sitemap-memory.js';
import { TreeSpill } from '../store/tree-spill.js';
import { UsageError, defineCommand, useColor, type Io } from './command.js';
import type { FlagValues } from './flags.js';
import { listenForInterruption } from './interrupt.js';
import { LineOutput } from './line-output.js';
import { ProgressLine } from './progress.js';
import { readNetworkOptions } from './network-options.js';
import { readSiteInput } from './site-input.js';
import { readOutcomes } from '../discover/tree-model.js';
import { PROBLEMS, exitCode } from './problem-options.js';
import { RUN_FLAGS_NOTE, WORKERS } from './run-options.js';
import { MANY_SITES, TREE_FLAGS } from './tree-flags.js';

type TreeFlags = FlagValues<typeof TREE_FLAGS>;
import { readChangedOnly, runTreeSites } from './tree-sites.js';

export const command = defineCommand({
  spec: {
    name: 'tree',
    summary: "Read a site's whole sitemap tree from robots.txt and well-known locations.",
    usage:
      'sitemapkit tree SITE_OR_URL… [--json | --urls [--changed-only]] [--state DIR] [options]\n       sitemapkit tree --sites FILE [--urls] [--state DIR] [--run NAME --store URL --workers N] [options]',
    description: `A site (example.com, https://example.com) is read from its robots.txt Sitemap: lines or,
when there are none, from the well-known locations (/sitemap.xml, /sitemap_index.xml, …),
probed one at a time. A sitemap URL (or several) starts the tree there. Indexes are followed
to --max-depth; each sitemap is fetched once however often it is listed. Without --json or
--urls, it prints the tree, one line per sitemap: status, kind, counts, bytes, lastmod range,
time, and its problems beneath; totals at the end.`,
    flags: TREE_FLAGS,
    notes: {
      [MANY_SITES]: `  With --state DIR (and --changed-only), each site is walked with the conditional fetches
  below; every worker keeps its memory in its own DIR/tree.sqlite (shared by the workers of
  one machine): give each machine the same DIR from run to run.`,
      [PROBLEMS]: '                         (per sitemap; --json keeps as many of each, and counts them all)',
      [WORKERS]: RUN_FLAGS_NOTE,
    },
    epilogue: `A sitemap that failed for a reason that may pass (a refused or lost connection, 429, 5xx) is
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
  },

  async run(args, io) {
    const { flags } = args;
    if (flags.sites !== undefined) return runTreeSites(args, flags.sites, io);
    for (const [flag, given] of [
      ['out', flags.out !== undefined],
      ['run', flags.run !== undefined],
      ['store', flags.store !== undefined],
      ['workers', flags.workers !== undefined],
      ['worker', flags.worker],
    ] as const)
      if (given) throw new UsageError(`--${flag} goes with --sites FILE`);
    if (args.positionals.length === 0) throw new UsageError('give a site (example.com) or a sitemap URL');
    if (flags.json && flags.urls) throw new UsageError('--json and --urls are two different outputs; choose one');
    const input = readSiteInput(args);
    const problems = { failOn: flags.failOn, maxPerRule: flags.maxPerRule };
    const memory = openMemory(flags);
    const progress = flags.quiet ? undefined : new ProgressLine(io);
    // Ctrl-C or SIGTERM stops the walk; the tree read so far is still printed, marked as stopped.
    const interruption = listenForInterruption();
    const options: TreeOptions = {
      ...readOptions(flags, io),
      examplesPerCode: problems.maxPerRule,
      examplesPerCodeInTree: problems.maxPerRule === 0 ? 0 : undefined, // 0 asks for every problem
      onProgress: progress && ((p: TreeProgress) => progress.update(() => formatTreeProgress(p))),
      signal: interruption.signal,
      ...(memory ? { conditional: memory.conditional } : {}),
      // A big tree's records go to a scratch file, read back as the tree is printed.
      spill: () => new TreeSpill<TreeNode>(),
      // Entries alone, and no memory to keep the summary in: no lastmod range to work out.
      lastmodRange: !flags.urls || memory !== undefined,
    };
    // The tree as the walk left it: a big one is read back from its scratch file as it is printed.
    let view: SitemapTreeView;
    let printed: number | undefined;
    try {
      if (flags.urls) ({ view, printed } = await writeUrls(input, options, io));
      else view = await fetchSitemapTreeView(input, options);
    } catch (error) {
      memory?.store.close();
      throw error;
    } finally {
      interruption.dispose();
      progress?.clear();
    }
    // What was read is remembered once it is out: a run killed before loses no entry a reader did not get.
    const { tree, childrenOf } = view;
    try {
      if (memory) {
        memory.store.remember(memory.conditional.remembered(), new Date());
        memory.store.close();
      }
      const drawing = { color: useColor(io), maxPerRule: problems.maxPerRule };
      if (flags.json) await writeChunks(io.stdout, treeJsonChunks(tree, childrenOf));
      else if (!flags.urls) io.stdout.write(renderTree(tree, drawing, childrenOf));
      else if (!flags.quiet) {
        const unchanged = tree.totals.unchanged ? `, ${tree.totals.unchanged} unchanged since the last walk` : '';
        io.stderr.write(
          `${(printed ?? 0).toLocaleString('en-US')} URLs from ${tree.totals.read} of ${tree.totals.sitemaps} sitemaps${unchanged}\n`,
        );
      }
      const failed = !tree.complete || tree.totals.read === 0;
      const { errors, warnings } = tree.totals;
      const documents = readOutcomes(tree.roots, childrenOf);
      return exitCode({ documents, failed, errors, warnings }, problems.failOn);
    } finally {
      view.close();
    }
  },
});

/**
 * --state: the memory of the last walk, and the conditional fetches over it. Unchanged sitemaps
 * are skipped (conditional requests, bodies digested before they are parsed) unless --urls wants
 * every entry.
 */
function openMemory(flags: TreeFlags): { store: SitemapMemory; conditional: ConditionalFetches } | undefined {
  const stateDir = flags.state;
  const changedOnly = readChangedOnly(flags);
  if (stateDir === undefined) return undefined;
  const store = new SitemapMemory(sitemapMemoryPath(stateDir));
  const skipUnchanged = !flags.urls || changedOnly;
  return { store, conditional: new ConditionalFetches({ memory: store, skipUnchanged }) };
}

function readOptions(flags: TreeFlags, io: Io): TreeOptions {
  const network = readNetworkOptions(flags, io, { quiet: flags.quiet });
  return {
    maxDepth: flags.maxDepth,
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
): Promise<{ view: SitemapTreeView; printed: number }> {
  const walk = walkSitemapTree(input, options);
  const out = new LineOutput(io.stdout);
  let printed = 0;
  for await (const batch of walk.batches()) {
    for (const { entry, source } of batch) out.line(entryToJsonLine(entry, source));
    printed += batch.length;
    if (out.full) await out.flush();
  }
  await out.flush();
  return { view: await walk.view, printed };
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
