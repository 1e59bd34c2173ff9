/**
 * `sitemapkit diff OLD NEW`: what was added, removed and changed (and moved) between two sets of
 * sitemaps, as JSON lines on stdout; the summary on stderr. Flags and printing only; the work is in
 * diff/sitemap-set.ts (reading a set) and diff/.
 */
import { forTerminal } from '../core/terminal.js';
import { SitemapDiff, diffRowToJsonLine, type DiffPhase, type DiffRow } from '../diff/diff.js';
import { withMoves } from '../diff/redirects.js';
import { HttpClient } from '../http/client.js';
import { missingSource, SitemapSet } from '../diff/sitemap-set.js';
import { diffSummary, formatDiffSummary, hasDifferences } from '../report/diff.js';
import { formatNumber } from '../report/format.js';
import { EXIT_FAILED, EXIT_OK, UsageError, defineCommand, type Io } from './command.js';
import { listenForInterruption } from './interrupt.js';
import { LineOutput } from './line-output.js';
import { networkFlags, readNetworkOptions } from './network-options.js';
import { optionalBaseUrl } from './output-options.js';
import { ProblemPrinter } from './problem-printer.js';
import { PROBLEM_FLAGS } from './problem-options.js';
import { defineFlags } from './flags.js';
import { ProgressLine } from './progress.js';

const OPTIONS = 'Options';

const FLAGS = defineFlags({
  'check-redirects': {
    type: 'boolean',
    group: OPTIONS,
    help: 'request every removed URL: one that now redirects to an added URL is "moved" (and its target is not listed as added); a URL that cannot be requested stays removed, with a warning',
  },
  'exit-code': { type: 'boolean', group: OPTIONS, help: 'exit 1 when the sets differ, as "git diff --exit-code"' },
  json: {
    type: 'boolean',
    group: OPTIONS,
    help: `end the output with one more line, {"summary":{…}}: each set's source, documents, URLs, duplicates and whether it was read whole, and the counts of each change and of each field changed`,
  },
  'base-url': {
    type: 'string',
    value: 'URL',
    group: OPTIONS,
    help: 'what the relative URLs of a URL list (.jsonl, .csv) resolve against, as "sitemapkit generate --base-url" resolves them (without it, a relative URL in a list is an error)',
  },
  'temp-dir': {
    type: 'string',
    value: 'DIR',
    group: OPTIONS,
    defaultText: "the system's temporary folder",
    help: 'where the sets are sorted (about the size of both sets as JSON)',
  },
  'max-per-rule': {
    ...PROBLEM_FLAGS['max-per-rule'],
    group: OPTIONS,
    help: 'print at most N problems of each code found in the sets (0 prints all); only errors are printed',
  },
  quiet: {
    type: 'boolean',
    short: 'q',
    group: OPTIONS,
    help: 'no summary and no progress on stderr (problems are still printed)',
  },
  ...networkFlags('pool'),
});

export const command = defineCommand({
  spec: {
    name: 'diff',
    summary: 'Compare two sets of sitemaps: the URLs added, removed, changed (and moved).',
    usage: 'sitemapkit diff OLD NEW [--check-redirects] [--exit-code] [--json] [options]',
    description: `
Compares two sets of sitemaps URL by URL and prints one JSON object per line for each URL that
was added, removed or changed, in URL order:

  {"change":"added","loc":"https://…/new","new":{"lastmod":"…",…}}
  {"change":"removed","loc":"https://…/gone","old":{…}}
  {"change":"changed","loc":"https://…/a","fields":["lastmod","images"],"old":{…},"new":{…}}
  {"change":"moved","loc":"https://…/old-name","to":"https://…/new-name"}   (--check-redirects)

"old" and "new" are the entries without their loc (the shape "sitemapkit parse" prints).
"fields" names what differs: lastmod (a lastmod naming the same instant is the same),
changefreq, priority, images, videos, news, alternates. A URL listed twice in one set counts once,
as its first listing. The summary goes to stderr.

OLD and NEW are each:
  FILE                   a sitemap: XML urlset or index, text, RSS or Atom; plain or gzip. An
                         index's children are read from files beside it, by their names
  DIR                    a directory of sitemaps: its index (sitemap.xml, sitemap_index.xml,
                         plain or .gz), else every .xml, .txt and .gz file in it
  URL, SITE              a sitemap URL or a site (example.com): the whole tree, read as "sitemapkit
                         tree" reads it (robots.txt, well-known locations, indexes)
  FILE.jsonl, FILE.csv   a URL list, as "sitemapkit generate" reads it
  -                      standard input (one document), for one of the two

Memory stays bounded however large the sets: each is sorted on disk in runs (in --temp-dir),
then both are walked side by side once.`,
    flags: FLAGS,
    epilogue: `Exit status: 0 whatever the differences (1 with --exit-code when there are some); 1 when a set
could not be read whole (a file missing, a sitemap that failed to load, a transfer cut off): the
URLs it did not give would show as removed or added, so the rows are printed but not to be
trusted; 2 on bad usage.

Examples:
  sitemapkit diff public-before/ public/
  sitemapkit diff https://www.example.com/sitemap.xml public/sitemap.xml --exit-code
  sitemapkit diff old.xml.gz new.xml.gz | jq -r 'select(.change == "removed") | .loc'
  sitemapkit diff example.com staging/ --check-redirects --json`,
  },

  async run(args, io) {
    if (args.positionals.length !== 2)
      throw new UsageError('give two sets to compare: OLD NEW (files, directories, URLs, sites or -)');
    const [oldSource, newSource] = args.positionals as [string, string];
    if (oldSource === '-' && newSource === '-')
      throw new UsageError('only one of OLD and NEW can be standard input (-)');
    // A set that names nothing is failed work found before any (exit 1, as in parse and generate).
    for (const source of [oldSource, newSource]) {
      const missing = await missingSource(source);
      if (missing !== undefined) {
        io.stderr.write(`sitemapkit diff: ${forTerminal(missing)}\n`);
        return EXIT_FAILED;
      }
    }
    const { flags } = args;
    const { quiet } = flags;
    const network = readNetworkOptions(flags, io, { quiet });
    // Errors only: a diff is not a validation (sitemapkit validate shows the rest).
    const problems = new ProblemPrinter(
      io,
      flags.maxPerRule,
      (problem) => problem.severity === 'error' || problem.code === 'FETCH-001',
    );
    const progress = quiet ? undefined : new DiffProgress(io);
    const interruption = listenForInterruption(() =>
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.(),
    );
    const http = new HttpClient({ ...network.http, signal: interruption.signal });
    const setOptions = {
      http,
      concurrency: network.concurrency,
      perHost: network.perHost,
      stdin: io.stdin,
      signal: interruption.signal,
      onProblem: problems.print,
      baseUrl: optionalBaseUrl(flags.baseUrl),
    };
    const before = new SitemapSet(oldSource, setOptions);
    const after = new SitemapSet(newSource, setOptions);
    const { tempDir } = flags;
    const diff = new SitemapDiff(before, after, { tempDir, signal: interruption.signal, onProgress: progress?.phase });
    const rows = flags.checkRedirects
      ? withMoves(diff, {
          http,
          concurrency: network.concurrency,
          perHost: network.perHost,
          signal: interruption.signal,
          onProblem: problems.print,
          onProgress: progress?.checked,
        })
      : diff;
    try {
      await writeRows(rows, io);
    } catch (error) {
      if (!interruption.signal.aborted) throw error;
      progress?.clear();
      io.stderr.write(`sitemapkit diff: ${String(interruption.signal.reason)}; the rows printed are not all of them\n`);
      return EXIT_FAILED;
    } finally {
      interruption.dispose();
      await http.close();
    }
    progress?.clear();
    const summary = diffSummary(diff.counts, {
      old: { source: oldSource, documents: before.documents, complete: before.complete },
      new: { source: newSource, documents: after.documents, complete: after.complete },
    });
    if (flags.json) io.stdout.write(`${JSON.stringify({ summary })}\n`);
    problems.end();
    if (!quiet) io.stderr.write(formatDiffSummary(summary));
    const unread = [summary.old, summary.new].filter((side) => !side.complete);
    for (const side of unread)
      io.stderr.write(
        `sitemapkit diff: ${side.source} was not read whole (see above): the URLs it did not give show as ${side === summary.old ? 'added' : 'removed'}\n`,
      );
    if (unread.length > 0) return EXIT_FAILED;
    return flags.exitCode && hasDifferences(summary) ? EXIT_FAILED : EXIT_OK;
  },
});

/** The rows as JSON lines, in large writes, waiting when stdout is full. */
async function writeRows(rows: AsyncIterable<DiffRow>, io: Io): Promise<void> {
  const out = new LineOutput(io.stdout);
  for await (const row of rows) {
    out.line(diffRowToJsonLine(row));
    if (out.full) await out.flush();
  }
  await out.flush();
}

/** What the diff is doing, on the progress line. */
class DiffProgress extends ProgressLine {
  readonly phase = (phase: DiffPhase, entries: number): void => {
    this.update(() => `${phase === 'compare' ? 'comparing' : `reading ${phase}`}: ${formatNumber(entries)} URLs`);
  };

  readonly checked = (urls: number): void => {
    this.update(() => `checking redirects: ${formatNumber(urls)} removed URLs`);
  };
}
