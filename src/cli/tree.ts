/**
 * `sitemapkit tree SITE_OR_URL`: a site's whole sitemap tree (robots.txt, well-known locations,
 * indexes) as a terminal tree, a JSON document (--json) or every URL entry as JSONL (--urls).
 */
import { once } from 'node:events';
import { entryToJsonLine } from '../report/entries.js';
import { renderTree, treeToJson } from '../report/tree.js';
import { formatBytes, formatNumber } from '../report/format.js';
import {
  fetchSitemapTree,
  resolveStart,
  walkSitemapTree,
  type SitemapTree,
  type TreeOptions,
  type TreeProgress,
} from '../discover/tree.js';
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  booleanFlag,
  integerFlag,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';
import { listenForInterruption } from './interrupt.js';
import { networkHelp, networkOptions, readNetworkOptions } from './network-options.js';
import { RUN_OPTIONS, RUN_OPTIONS_HELP } from './run-options.js';
import { runTreeSites } from './tree-sites.js';

export const command: Command = {
  spec: {
    name: 'tree',
    summary: "read a site's whole sitemap tree from robots.txt and well-known locations",
    usage:
      'sitemapkit tree SITE_OR_URL… [--json | --urls] [options]\n       sitemapkit tree --sites FILE [--urls] [--run NAME --store URL --workers N] [options]',
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

Options:
  --max-depth N        index levels followed below a root (default 5)
  -q, --quiet          no progress line or retry notice on stderr (nor, with --urls, the
                       closing count)

${networkHelp('pool')}

${RUN_OPTIONS_HELP}

A sitemap that failed for a reason that may pass (a refused or lost connection, 429, 5xx) is
read once more after the rest of the tree.

Ctrl-C (or SIGTERM) stops the walk and prints the tree read so far.

Exit status: 0 when every sitemap of the tree was read whole; 1 when one could not be found,
fetched or read to its end (its URLs are missing from the totals), when no sitemap was found, or
when the walk was stopped. With --sites: 0 when every site's tree was read whole.

Examples:
  sitemapkit tree example.com
  sitemapkit tree https://example.com/sitemap_index.xml --json > tree.json
  sitemapkit tree example.com --urls | wc -l
  sitemapkit tree --sites sites.txt --urls --workers 4 > urls.jsonl
  sitemapkit tree --sites sites.txt --run daily --store postgres://crawler@db/sitemaps --out rows.jsonl`,
    options: {
      json: { type: 'boolean' },
      urls: { type: 'boolean' },
      'max-depth': { type: 'string' },
      ...networkOptions('pool'),
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
    const input = args.positionals.length === 1 ? args.positionals[0]! : args.positionals;
    checkInputs(args.positionals);
    const progress = booleanFlag(args, 'quiet') ? undefined : new ProgressLine(io);
    // Ctrl-C or SIGTERM stops the walk; the tree read so far is still printed, marked as stopped.
    const interruption = listenForInterruption();
    const options: TreeOptions = {
      ...readOptions(args, io),
      onProgress: progress?.update,
      signal: interruption.signal,
    };
    let tree: SitemapTree;
    try {
      tree = booleanFlag(args, 'urls') ? await writeUrls(input, options, io) : await fetchSitemapTree(input, options);
    } finally {
      interruption.dispose();
      progress?.clear();
    }
    if (booleanFlag(args, 'json')) io.stdout.write(treeToJson(tree));
    else if (!booleanFlag(args, 'urls')) io.stdout.write(renderTree(tree, { color: io.isTerminal }));
    else if (!booleanFlag(args, 'quiet'))
      io.stderr.write(
        `${tree.totals.urls.toLocaleString('en-US')} URLs from ${tree.totals.read} of ${tree.totals.sitemaps} sitemaps\n`,
      );
    return tree.complete && tree.totals.read > 0 && tree.totals.failed === 0 ? EXIT_OK : EXIT_FAILED;
  },
};

/** One site, or sitemap URLs: anything else is a usage error before any request is made. */
function checkInputs(inputs: readonly string[]): void {
  for (const input of inputs) {
    let start;
    try {
      start = resolveStart(input);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (start.mode === 'site' && inputs.length > 1)
      throw new UsageError(`give one site, or sitemap URLs: ${input} is a site`);
  }
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

/** Streams every URL entry as one JSON line, in large writes, waiting when stdout is full. */
async function writeUrls(input: string | string[], options: TreeOptions, io: Io): Promise<SitemapTree> {
  const walk = walkSitemapTree(input, options);
  let pending = '';
  for await (const batch of walk.batches()) {
    for (const { entry, source } of batch) pending += `${entryToJsonLine(entry, source)}\n`;
    if (pending.length >= 64 * 1024) {
      const full = !io.stdout.write(pending);
      pending = '';
      if (full) await once(io.stdout, 'drain');
    }
  }
  if (pending !== '') io.stdout.write(pending);
  return walk.tree;
}

/**
 * "sitemaps 12/40 · 1,204,332 URLs · 88.2 MiB · 310,442 URLs/s" on stderr: redrawn in place on a
 * terminal (at most 10 times a second), otherwise a line every 10 seconds.
 */
class ProgressLine {
  private lastDraw = Date.now();
  private drawn = false;

  constructor(private readonly io: Io) {}

  readonly update = (p: TreeProgress): void => {
    const now = Date.now();
    const interval = this.io.stderrIsTerminal ? 100 : 10_000;
    if (now - this.lastDraw < interval) return;
    this.lastDraw = now;
    const rate = p.elapsedMs > 0 ? Math.round((p.urls * 1000) / p.elapsedMs) : 0;
    const line = `sitemaps ${p.nodesDone}/${p.nodesKnown} · ${formatNumber(p.urls)} URLs · ${formatBytes(p.bytesIn)} · ${formatNumber(rate)} URLs/s`;
    if (this.io.stderrIsTerminal) {
      this.io.stderr.write(`\r${line}\u001b[K`);
      this.drawn = true;
    } else {
      this.io.stderr.write(`${line}\n`);
    }
  };

  clear(): void {
    if (this.drawn) this.io.stderr.write('\r\u001b[K');
  }
}
