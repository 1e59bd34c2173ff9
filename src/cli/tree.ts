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
  walkSitemapTree,
  type SitemapTree,
  type TreeOptions,
  type TreeProgress,
} from '../discover/tree.js';
import { UsageError, booleanFlag, integerFlag, useColor, type Command, type Io, type ParsedArgs } from './command.js';
import { listenForInterruption } from './interrupt.js';
import { ProgressLine } from './progress.js';
import { networkHelp, networkOptions, readNetworkOptions } from './network-options.js';
import { readSiteInput } from './site-input.js';
import { PROBLEM_OPTIONS, PROBLEM_OPTIONS_HELP, exitCode, readProblemOptions } from './problem-options.js';

export const command: Command = {
  spec: {
    name: 'tree',
    summary: "Read a site's whole sitemap tree from robots.txt and well-known locations.",
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
  -q, --quiet          no progress line or retry notice on stderr (nor, with --urls, the
                       closing count)

${PROBLEM_OPTIONS_HELP}
                         (per sitemap; --json keeps as many of each, and counts them all)

${networkHelp('pool')}

A sitemap that failed for a reason that may pass (a refused or lost connection, 429, 5xx) is
read once more after the rest of the tree.

Ctrl-C (or SIGTERM) stops the walk and prints the tree read so far.

The run fails (exit 1), whatever --fail-on says, when a sitemap of the tree could not be found,
fetched or read to its end (its URLs are missing from the totals), when no sitemap was found, or
when the walk was stopped; and with --fail-on error (the default) when a problem was found.

Examples:
  sitemapkit tree example.com
  sitemapkit tree https://example.com/sitemap_index.xml --json > tree.json
  sitemapkit tree example.com --urls | wc -l`,
    options: {
      json: { type: 'boolean' },
      urls: { type: 'boolean' },
      'max-depth': { type: 'string' },
      ...networkOptions('pool'),
      ...PROBLEM_OPTIONS,
      quiet: { type: 'boolean', short: 'q' },
    },
  },

  async run(args, io) {
    if (args.positionals.length === 0) throw new UsageError('give a site (example.com) or a sitemap URL');
    if (booleanFlag(args, 'json') && booleanFlag(args, 'urls'))
      throw new UsageError('--json and --urls are two different outputs; choose one');
    const input = readSiteInput(args);
    const problems = readProblemOptions(args);
    const progress = booleanFlag(args, 'quiet') ? undefined : new ProgressLine(io);
    // Ctrl-C or SIGTERM stops the walk; the tree read so far is still printed, marked as stopped.
    const interruption = listenForInterruption();
    const options: TreeOptions = {
      ...readOptions(args, io),
      examplesPerCode: problems.maxPerRule,
      onProgress: progress && ((p: TreeProgress) => progress.update(() => formatTreeProgress(p))),
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
    else if (!booleanFlag(args, 'urls'))
      io.stdout.write(renderTree(tree, { color: useColor(io), maxPerRule: problems.maxPerRule }));
    else if (!booleanFlag(args, 'quiet'))
      io.stderr.write(
        `${tree.totals.urls.toLocaleString('en-US')} URLs from ${tree.totals.read} of ${tree.totals.sitemaps} sitemaps\n`,
      );
    const failed = !tree.complete || tree.totals.read === 0 || tree.totals.failed > 0;
    return exitCode({ failed, errors: tree.totals.errors, warnings: tree.totals.warnings }, problems.failOn);
  },
};

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

/** "sitemaps 12/40 · 1,204,332 URLs · 88.2 MiB · 310,442 URLs/s" */
function formatTreeProgress(p: TreeProgress): string {
  const rate = p.elapsedMs > 0 ? Math.round((p.urls * 1000) / p.elapsedMs) : 0;
  return `sitemaps ${p.nodesDone}/${p.nodesKnown} · ${formatNumber(p.urls)} URLs · ${formatBytes(p.bytesIn)} · ${formatNumber(rate)} URLs/s`;
}
