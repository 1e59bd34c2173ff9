/**
 * `sitemapkit generate INPUT… --base-url URL --out DIR`: URL lists or a site's build directory
 * → published sitemaps. Flags and printing only; the work is in input/ and generate/.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { formatDiagnostic, type Diagnostic } from '../core/index.js';
import { GenerateError, writeSitemaps, type GeneratorInput, type WriteSummary } from '../generate/index.js';
// What only build directories and --state need (an HTML parser, git, SQLite) is loaded when
// used: a URL list is read without it (a tenth of a second of start-up less).
import { LeftOutPages } from '../input/left-out.js';
import { URL_LIST_FORMATS, type ReadItem, type UrlListFormat } from '../input/types.js';
import { readUrlListBatches } from '../input/url-list.js';
import { countOf, formatFolded } from '../report/format.js';
import { formatGenerateSummary, likelyCause, type RecordedChanges } from '../report/generate.js';
import type { GenerateLedger } from '../store/generate-ledger.js';
import { generateLedgerPath } from '../store/site-database.js';
import { EXIT_FAILED, UsageError, booleanFlag, listFlag, stringFlag, type Command, type Io } from './command.js';
import {
  HTML_SITEMAP_OPTIONS,
  HTML_SITEMAP_OPTIONS_HELP,
  HtmlSitemapRun,
  formatHtmlSitemapOutcome,
  type HtmlSitemapOutcome,
} from './html-sitemap-option.js';
import { listenForInterruption } from './interrupt.js';
import { ProgressLine } from './progress.js';
import {
  PROBLEM_OPTIONS,
  PROBLEM_OPTIONS_HELP,
  exitCode,
  readProblemOptions,
  type ProblemSettings,
} from './problem-options.js';
import {
  OUTPUT_OPTIONS,
  OUTPUT_OPTIONS_HELP,
  readOutputOptions,
  refuseStateInsideOut,
  type OutputOptions,
} from './output-options.js';

export const command: Command = {
  spec: {
    name: 'generate',
    summary: 'Turn URL lists or a build directory into sitemaps: sharded, gzipped, indexed.',
    usage: 'sitemapkit generate INPUT… --base-url URL --out DIR [options]',
    help: `
Inputs (any number, read in order):
  FILE.txt               one URL per line; blank lines and # comments are skipped
  FILE.jsonl             one entry object per line: {"loc":…,"lastmod":…,"images":[…],…}
  FILE.csv               a header row naming the columns loc, lastmod, changefreq, priority
  -                      standard input (format from --input-format, or sniffed)
  DIR                    a site's build output: every .html file becomes a URL (index.html → its
                         directory URL), lastmod from the file time (with --state: from when
                         its content last changed). Left out, with the reason:
                         error pages (404.html, 500.html, 404/index.html), pages whose robots
                         <meta> (or googlebot/bingbot <meta>) says noindex, and pages whose
                         canonical is another page; a canonical naming the page itself in another
                         form (/about for about.html) is the URL listed

Relative URLs resolve against --base-url. Bad lines are reported as file:line (standard input
is "-") and skipped, --max-per-rule of each code, then a count; when most lines fail for one
reason, its likely cause is said once. The run still writes everything valid, and fails (exit 1)
with --fail-on error, the default. A bad field (a lastmod that is no date) is left out of the
URL written. Duplicate URLs are written once. The run fails whatever --fail-on says when
nothing could be written: an input that cannot be read, --strict, no valid URL, Ctrl-C.

The entry point is always sitemap.xml (sitemap.xml.gz with --gzip-index), however many URLs
there are, so the robots.txt line never changes: the sitemap itself when one plain XML file holds
every URL, otherwise an index of the shards (always with --gzip or --format txt). Shards are named
after their content (sitemap-0-3f2a9c1b7d4e.xml.gz): a shard that did not change is left as it is.
Publication is atomic: the new entry point is renamed into place once every shard is, and only
then are the files of the previous run removed. A run removes only files that earlier runs
recorded as their own in .sitemap-manifest.json, and the temporary folders of runs that died.

With --state DIR, runs are incremental. A ledger (DIR/generate.sqlite) remembers every URL of
the site, its shard, and digests of its entry and of its page's content. A URL stays in the shard
it was first written to; new URLs fill the last shard or a new one; a removed URL leaves its shard
smaller; a shard whose URLs did not change is not rewritten (same bytes, same modification time),
so one added or removed URL rewrites one shard and the index. A build-directory page is dated by
when its content last changed, not by its file time, which every build resets: scripts, styles,
hashed asset names (app.3f2a9c1b.js), the generator <meta> and build timestamps written to the
second do not count as changes. On the first run, a page tracked by git and unmodified is dated by
its last commit (not in a shallow clone). URL lists keep the lastmod they give. Each run prints
what was added, changed and removed, and records it in the ledger (tables generate_runs and
generate_changes) for "sitemapkit submit --from-state DIR".

Input:
  --input-format F       txt, jsonl or csv, for "-" and files without a known extension
  --exclude GLOB         leave out build-directory pages whose path matches GLOB (repeatable),
                         relative to the directory: "drafts/**" or "/drafts/**"; a GLOB that
                         matches no page is reported
  --strict               stop at the first bad line; the output directory is left untouched
  --keep-duplicates      write every URL as given, without looking for duplicates: for inputs
                         known to be unique. Finding duplicates costs 8 bytes per URL (about
                         130 MB at 10 million URLs); with this flag memory stays flat
  --state DIR            regenerate incrementally with the ledger in DIR/generate.sqlite (made
                         if missing; not inside --out); duplicates are then found on disk

${OUTPUT_OPTIONS_HELP}

${HTML_SITEMAP_OPTIONS_HELP}

${PROBLEM_OPTIONS_HELP}
                         The same bound applies to left-out pages per reason.

Printing:
  --json                 print the summary as one JSON object, with the problems and left-out pages
  -q, --quiet            print only the robots.txt line(s) and problems

Examples:
  sitemapkit generate urls.txt --base-url https://www.example.com/ --out public
  sitemapkit generate dist/ --base-url https://www.example.com/ --out dist --exclude "/drafts/**" --gzip
  sitemapkit generate dist/ --base-url https://www.example.com/ --out dist --state .sitemapkit
  cat urls.jsonl | sitemapkit generate - --base-url https://www.example.com/ --out out --max-urls 10000
`,
    options: {
      ...OUTPUT_OPTIONS,
      ...HTML_SITEMAP_OPTIONS,
      'input-format': { type: 'string' },
      exclude: { type: 'string', multiple: true },
      strict: { type: 'boolean' },
      'keep-duplicates': { type: 'boolean' },
      state: { type: 'string' },
      ...PROBLEM_OPTIONS,
      json: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    },
  },

  async run(args, io) {
    if (args.positionals.length === 0)
      throw new UsageError('give at least one INPUT: a URL list file, "-" for standard input, or a build directory');
    const problems = readProblemOptions(args);
    const output = readOutputOptions(args);
    const inputFormat = readInputFormat(stringFlag(args, 'input-format'));
    const exclude = listFlag(args, 'exclude');
    const stateDir = stringFlag(args, 'state');
    const htmlSitemap = HtmlSitemapRun.fromArgs(args);
    if (stateDir !== undefined) {
      refuseStateInsideOut(stateDir, output.outDir, 'ledger');
      if (booleanFlag(args, 'keep-duplicates'))
        throw new UsageError(
          '--keep-duplicates cannot be used with --state: the ledger keeps one record per URL (and finds duplicates on disk, at no cost in memory)',
        );
    }
    const report = new RunReport(io, {
      output,
      ...problems,
      json: booleanFlag(args, 'json'),
      quiet: booleanFlag(args, 'quiet'),
    });
    // An input that cannot be read is failed work (exit 1, as in parse and validate), found before anything is written.
    for (const path of args.positionals) {
      if (path !== '-' && !(await stat(path).catch(() => undefined)))
        return report.failed(`cannot read ${path}: no such file or directory`);
    }
    // Ctrl-C, or the TERM of a service manager, stops the run cleanly: the temporary files are
    // removed and the published sitemaps stay as they were. A read of standard input may be
    // waiting for data that will never come: it is ended too.
    const interruption = listenForInterruption(() =>
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.(),
    );
    const ledger =
      stateDir === undefined
        ? undefined
        : new (await import('../store/generate-ledger.js')).GenerateLedger(generateLedgerPath(stateDir));
    // Build directories are dated by their content with a ledger; by their last commit on its first run.
    const pages = { contentDigests: ledger !== undefined, commitTimes: ledger?.knows(output.baseUrl) === false };
    const inputs = new Inputs(args.positionals, { output, inputFormat, exclude, pages, io, report });
    // A terminal sees the count grow; a log gets only the summary, which comes soon enough.
    const progress = new ProgressLine(io, { plainEveryMs: 'never' });
    let summary: WriteSummary;
    try {
      summary = await writeSitemaps(htmlSitemap?.tap(inputs.read()) ?? inputs.read(), {
        ...output,
        strict: booleanFlag(args, 'strict'),
        dedupe: !booleanFlag(args, 'keep-duplicates'),
        ...(ledger === undefined ? {} : { ledger }),
        signal: interruption.signal,
        onProblem: report.problem,
        onProgress: ({ urls, files }) => progress.update(() => `${countOf(urls, 'URL')}, ${countOf(files, 'file')}…`),
      });
    } catch (error) {
      ledger?.close();
      progress.clear();
      if (interruption.signal.aborted) return report.failed(String(interruption.signal.reason));
      if (!(error instanceof GenerateError)) throw error;
      if (error.diagnostic === undefined) return report.failed(error.message);
      // --strict: the problem is printed once, as every problem is; the message only says why the run stopped.
      report.problem(error.diagnostic);
      return report.failed('stopped at the first error (--strict)');
    } finally {
      interruption.dispose();
    }
    progress.clear();
    const changes = ledger && summary.changes && recordedChanges(ledger, summary.changes, report.maxPerRule);
    ledger?.close();
    return report.written(summary, changes, await htmlSitemap?.write(output.outDir, summary));
  },
};

/** The run's changes as the ledger recorded them, with the first `limit` URLs of each kind (0: all). */
function recordedChanges(
  ledger: GenerateLedger,
  changes: NonNullable<WriteSummary['changes']>,
  limit: number,
): RecordedChanges {
  const first = (change: 'added' | 'changed' | 'removed') => ledger.changesOf(changes.run, change, limit || -1);
  return {
    ...changes,
    ledger: ledger.file,
    examples: { added: first('added'), changed: first('changed'), removed: first('removed') },
  };
}

function readInputFormat(raw: string | undefined): UrlListFormat | undefined {
  if (raw === undefined) return undefined;
  if (!(URL_LIST_FORMATS as readonly string[]).includes(raw))
    throw new UsageError(`--input-format must be one of ${URL_LIST_FORMATS.join(', ')}, not "${raw}"`);
  return raw as UrlListFormat;
}

/** Every input in order, as one stream for the writer; tells the report what it hands on and what build directories leave out. */
class Inputs {
  private readonly unusedExcludes = new Map<string, number>();
  private directories = 0;

  constructor(
    private readonly paths: string[],
    private readonly context: {
      output: OutputOptions;
      inputFormat: UrlListFormat | undefined;
      exclude: string[];
      /** What build-directory pages carry: content digests; lastmod from their last commit. */
      pages: { contentDigests: boolean; commitTimes: boolean };
      io: Io;
      report: RunReport;
    },
  ) {}

  /** The items, in batches where the reader gives them so (URL lists: no promise per line). */
  async *read(): AsyncGenerator<GeneratorInput | GeneratorInput[]> {
    const { output, inputFormat, exclude, io, report } = this.context;
    for (const path of this.paths) {
      if (path !== '-' && (await stat(path)).isDirectory()) {
        for await (const item of this.directory(path, output.baseUrl, exclude, report)) {
          report.itemsRead(1);
          yield item;
        }
        continue;
      }
      const format = inputFormat ? { format: inputFormat } : {};
      for await (const items of readUrlListBatches(path, { ...format, stdin: io.stdin })) {
        report.itemsRead(items.length);
        yield items;
      }
    }
    report.unusedExcludes(this.directories === 0 ? exclude : this.excludesUnusedEverywhere(), this.directories);
  }

  private async *directory(
    path: string,
    baseUrl: string,
    exclude: string[],
    report: RunReport,
  ): AsyncGenerator<ReadItem> {
    this.directories++;
    const { pages, io } = this.context;
    const { CommitTimes } = await import('../input/commit-times.js');
    const { readSiteDirectory } = await import('../input/site-directory.js');
    const commitTimes = pages.commitTimes ? CommitTimes.open(path) : undefined;
    if (commitTimes?.ok === false && commitTimes.reason === 'shallow')
      io.stderr.write(
        `warning: ${path} is in a shallow git clone, where the oldest commit present claims every file: its pages are dated by their file times (git fetch --unshallow, then a run with a new --state, dates them by their last commits)\n`,
      );
    try {
      // Each page named by its file, so a problem with it points at the file to fix.
      yield* readSiteDirectory(path, {
        baseUrl,
        exclude,
        contentDigests: pages.contentDigests,
        ...(commitTimes?.ok ? { commitTimes: commitTimes.times } : {}),
        onLeftOut: report.leftOut.add,
        onUnusedExclude: (patterns) => {
          for (const pattern of patterns) this.unusedExcludes.set(pattern, (this.unusedExcludes.get(pattern) ?? 0) + 1);
        },
      });
    } finally {
      if (commitTimes?.ok) commitTimes.times.close();
    }
  }

  /** A glob is reported when it matched nothing in any of the directories (it may be meant for one only). */
  private excludesUnusedEverywhere(): string[] {
    return [...this.unusedExcludes].filter(([, count]) => count === this.directories).map(([pattern]) => pattern);
  }
}

/**
 * What one run tells the user: problems on stderr as they come (the first --max-per-rule of each
 * code, the rest counted), then the summary on stdout (text, or one JSON object with --json).
 */
class RunReport {
  private readonly tally: DiagnosticTally;
  readonly leftOut: LeftOutPages;
  private items = 0;
  private unused: { patterns: string[]; directories: number } = { patterns: [], directories: 0 };

  constructor(
    private readonly io: Io,
    private readonly options: { output: OutputOptions; json: boolean; quiet: boolean } & ProblemSettings,
  ) {
    this.tally = new DiagnosticTally(options.maxPerRule);
    this.leftOut = new LeftOutPages(options.maxPerRule);
  }

  readonly problem = (problem: Diagnostic): void => {
    if (this.tally.add(problem) && !this.options.json) this.io.stderr.write(`${formatDiagnostic(problem)}\n`);
  };

  itemsRead(count: number): void {
    this.items += count;
  }

  unusedExcludes(patterns: string[], directories: number): void {
    this.unused = { patterns, directories };
  }

  get maxPerRule(): number {
    return this.options.maxPerRule;
  }

  /** The run published its sitemaps (and recorded its `changes` in the ledger): exit 1 only for problems at or above --fail-on. */
  written(summary: WriteSummary, changes: RecordedChanges | undefined, html?: HtmlSitemapOutcome): number {
    this.printProblemEnd();
    if (html?.written === false) this.io.stderr.write(formatHtmlSitemapOutcome(html, 'generate'));
    if (this.options.json) {
      const recorded = changes === undefined ? {} : { changes };
      const htmlSitemap = html === undefined ? {} : { htmlSitemap: html };
      this.io.stdout.write(
        `${JSON.stringify({ written: true, ...summary, ...recorded, ...htmlSitemap, ...this.json() })}\n`,
      );
    } else {
      const { outDir } = this.options.output;
      this.io.stdout.write(
        this.options.quiet
          ? `${summary.robotsTxt.join('\n')}\n`
          : formatGenerateSummary(summary, this.leftOut.byReason(), resolve(outDir), changes),
      );
      if (html?.written && !this.options.quiet) this.io.stdout.write(formatHtmlSitemapOutcome(html, 'generate'));
    }
    return html?.written === false ? EXIT_FAILED : exitCode(this.tally, this.options.failOn);
  }

  /** Nothing was published: says why, and that the output directory is as it was. */
  failed(why: string): number {
    this.printProblemEnd();
    const { outDir } = this.options.output;
    if (this.options.json) {
      const { errors, warnings } = this.tally;
      this.io.stdout.write(
        `${JSON.stringify({ written: false, error: why, problems: { errors, warnings }, ...this.json() })}\n`,
      );
    }
    this.io.stderr.write(`sitemapkit generate: ${why}\nNothing was written; ${outDir} is unchanged.\n`);
    return EXIT_FAILED;
  }

  /** The problems, left-out pages and advice, as --json carries them. */
  private json() {
    const cause = this.likelyCause();
    return {
      diagnostics: this.tally.examples(),
      folded: this.tally.folded(),
      leftOut: this.leftOut.byReason(),
      unusedExcludes: this.unused.patterns,
      ...(cause === undefined ? {} : { likelyCause: cause }),
    };
  }

  /** On stderr, after the problems: what was not shown, the likely cause, the globs that matched nothing. */
  private printProblemEnd(): void {
    if (this.options.json) return;
    const lines = this.tally.folded().map(formatFolded);
    const cause = this.likelyCause();
    if (cause !== undefined) lines.push(`Likely cause: ${cause}`);
    for (const pattern of this.unused.patterns) {
      lines.push(
        this.unused.directories === 0
          ? `warning: --exclude ${pattern} was not used: --exclude applies to build directories, and no INPUT is one`
          : `warning: --exclude ${pattern} matched no page (globs are relative to the build directory, e.g. "drafts/**")`,
      );
    }
    if (lines.length > 0) this.io.stderr.write(`${lines.join('\n')}\n`);
  }

  private likelyCause(): string | undefined {
    return likelyCause(this.tally, this.items, this.options.output.baseUrl);
  }
}
