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
  stringFlag,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';

export const command: Command = {
  spec: {
    name: 'tree',
    summary: "read a site's whole sitemap tree from robots.txt and well-known locations",
    usage: 'sitemapkit tree SITE_OR_URL… [--json | --urls] [options]',
    help: `A site (example.com, https://example.com) is read from its robots.txt Sitemap: lines or,
when there are none, from the well-known locations (/sitemap.xml, /sitemap_index.xml, …),
probed one at a time. A sitemap URL (or several) starts the tree there. Indexes are followed
to --max-depth; each sitemap is fetched once however often it is listed.

Output:
  (default)            the tree, one line per sitemap: status, kind, counts, bytes, lastmod
                       range, time, and its problems beneath; totals at the end
  --json               the tree as one JSON document
  --urls               every URL entry of the tree as JSONL, each with "source" (its sitemap)

Options:
  --max-depth N        index levels followed below a root (default 5)
  --concurrency N      requests in flight per host (default 4)
  --delay SECONDS      least time between two requests to one host (default 0)
  --timeout SECONDS    connect, first-byte and idle timeout, each (default 30)
  --retries N          retries after a connection error, 429 or 5xx (default 3)
  --user-agent UA      User-Agent to send and to match robots.txt groups with
                       (default sitemapkit/<version> (+project URL))
  -q, --quiet          no progress line on stderr (nor, with --urls, the closing count)

Exit status: 0 when sitemaps were read, 1 when no sitemap could be found or read.

Examples:
  sitemapkit tree example.com
  sitemapkit tree https://example.com/sitemap_index.xml --json > tree.json
  sitemapkit tree example.com --urls | wc -l`,
    options: {
      json: { type: 'boolean' },
      urls: { type: 'boolean' },
      'max-depth': { type: 'string' },
      concurrency: { type: 'string' },
      delay: { type: 'string' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      'user-agent': { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    },
  },

  async run(args, io) {
    if (args.positionals.length === 0) throw new UsageError('give a site (example.com) or a sitemap URL');
    if (booleanFlag(args, 'json') && booleanFlag(args, 'urls'))
      throw new UsageError('--json and --urls are two different outputs; choose one');
    const progress = booleanFlag(args, 'quiet') ? undefined : new ProgressLine(io);
    const options: TreeOptions = { ...readOptions(args), onProgress: progress?.update };
    const input = args.positionals.length === 1 ? args.positionals[0]! : args.positionals;
    checkInputs(args.positionals);
    let tree: SitemapTree;
    try {
      tree = booleanFlag(args, 'urls') ? await writeUrls(input, options, io) : await fetchSitemapTree(input, options);
    } finally {
      progress?.clear();
    }
    if (booleanFlag(args, 'json')) io.stdout.write(treeToJson(tree));
    else if (!booleanFlag(args, 'urls')) io.stdout.write(renderTree(tree, { color: io.isTerminal }));
    else if (!booleanFlag(args, 'quiet'))
      io.stderr.write(
        `${tree.totals.urls.toLocaleString('en-US')} URLs from ${tree.totals.read} of ${tree.totals.sitemaps} sitemaps\n`,
      );
    return tree.totals.read > 0 ? EXIT_OK : EXIT_FAILED;
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

function readOptions(args: ParsedArgs): TreeOptions {
  const concurrency = integerFlag(args, 'concurrency', 4);
  const timeoutMs = secondsFlag(args, 'timeout', 30) * 1000;
  return {
    maxDepth: integerFlag(args, 'max-depth', 5, { min: 0 }),
    concurrency: concurrency * 2,
    http: {
      perHostConcurrency: concurrency,
      perHostDelayMs: secondsFlag(args, 'delay', 0) * 1000,
      connectTimeoutMs: timeoutMs,
      firstByteTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      retries: integerFlag(args, 'retries', 3, { min: 0 }),
      userAgent: stringFlag(args, 'user-agent'),
    },
  };
}

function secondsFlag(args: ParsedArgs, name: string, fallback: number): number {
  const raw = stringFlag(args, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`--${name} must be a number of seconds, not "${raw}"`);
  return value;
}

/** Streams every URL entry as one JSON line, in large writes, waiting when stdout is full. */
async function writeUrls(input: string | string[], options: TreeOptions, io: Io): Promise<SitemapTree> {
  const walk = walkSitemapTree(input, options);
  let pending = '';
  for await (const batch of walk.batches()) {
    for (const entry of batch) pending += `${entryToJsonLine(entry)}\n`; // `source` is already on the entry, last
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
