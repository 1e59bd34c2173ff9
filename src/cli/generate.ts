/**
 * `sitemapkit generate INPUT… --base-url URL --out DIR`: URL lists or a site's build directory
 * → published sitemaps. Flags and printing only; the work is in input/ and generate/.
 */
import { forTerminal } from '../core/terminal.js';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { formatDiagnostic, type Diagnostic } from '../core/index.js';
import { GenerateError } from '../generate/index.js';
// What only build directories and --state need (an HTML parser, git, SQLite) is loaded when
// used: a URL list is read without it (a tenth of a second of start-up less).
import { LeftOutPages } from '../input/left-out.js';
import { URL_LIST_FORMATS } from '../input/types.js';
import { countOf, formatFolded } from '../report/format.js';
import { formatGenerateSummary, likelyCause } from '../report/generate.js';
import {
  generateFromSources,
  type GenerateFromDirectoryOptions,
  type GenerateFromDirectorySummary,
  type SiteNote,
  type SiteSource,
} from '../site/generate-from-directory.js';
import { EXIT_FAILED, UsageError, defineCommand, type Io } from './command.js';
import { defineFlags, type FlagValues } from './flags.js';
import { HTML_SITEMAP_FLAGS, formatHtmlSitemapOutcome, readHtmlSitemapRequest } from './html-sitemap-option.js';
import { listenForInterruption } from './interrupt.js';
import { ProgressLine } from './progress.js';
import { PROBLEMS, PROBLEM_FLAGS, exitCode, type ProblemSettings } from './problem-options.js';
import { OUTPUT_FLAGS, readOutputOptions, refuseStateInsideOut, type OutputOptions } from './output-options.js';

const INPUT = 'Input';
const PRINTING = 'Printing';

const FLAGS = defineFlags({
  'input-format': {
    type: 'choice',
    value: 'F',
    choices: URL_LIST_FORMATS,
    group: INPUT,
    help: 'txt, jsonl or csv, for "-" and files without a known extension (a .txt INPUT is always a URL list here, never a text sitemap)',
  },
  exclude: {
    type: 'list',
    value: 'GLOB',
    group: INPUT,
    help: 'leave out build-directory pages whose path matches GLOB (repeatable), relative to the directory: "drafts/**" or "/drafts/**"; a GLOB that matches no page is reported',
  },
  'not-found': {
    type: 'string',
    value: 'PATH',
    group: INPUT,
    help: "the site's 404 page, relative to DIR, when no convention names it",
  },
  'git-dir': {
    type: 'string',
    value: 'PATH',
    group: INPUT,
    help: "the folder of the site's sources in a git checkout, for a build folder git does not hold: a page PATH.html (or FOLDER/index.html) is dated by the last commit of PATH.EXT (or FOLDER/index.EXT, FOLDER.EXT) below it, committed and unmodified, EXT a source extension (md, mdx, html, njk, astro, vue, svelte, tsx…)",
  },
  'keep-disallowed': {
    type: 'boolean',
    group: INPUT,
    help: "list pages the folder's robots.txt disallows (each one is warned of)",
  },
  'clean-urls': {
    type: 'boolean',
    group: INPUT,
    help: "list about.html as /about (default: vercel.json's cleanUrls)",
  },
  images: {
    type: 'boolean',
    group: INPUT,
    help: 'list the images each page shows (<img>, srcset), but not one that stands on most pages (more than half of them, at least 3): a logo',
  },
  'trailing-slash': {
    type: 'choice',
    value: 'M',
    choices: ['always', 'never', 'keep'],
    group: INPUT,
    defaultText: "vercel.json's trailingSlash, else keep",
    help: 'always, never or keep the slash of folder URLs (/blog/)',
  },
  strict: {
    type: 'boolean',
    group: INPUT,
    help: 'stop at the first bad line; the output directory is left untouched',
  },
  'keep-duplicates': {
    type: 'boolean',
    group: INPUT,
    help: 'write every URL as given, without looking for duplicates: for inputs known to be unique. Finding duplicates costs 8 bytes per URL (about 130 MB at 10 million URLs); with this flag memory stays flat',
  },
  state: {
    type: 'string',
    value: 'DIR',
    group: INPUT,
    help: 'regenerate incrementally with the ledger in DIR/generate.sqlite (made if missing; not inside --out); duplicates are then found on disk',
  },
  ...OUTPUT_FLAGS,
  ...HTML_SITEMAP_FLAGS,
  ...PROBLEM_FLAGS,
  json: {
    type: 'boolean',
    group: PRINTING,
    help: 'print the summary as one JSON object, with the problems and left-out pages',
  },
  quiet: { type: 'boolean', short: 'q', group: PRINTING, help: 'print only the robots.txt line(s) and problems' },
});

export const command = defineCommand({
  spec: {
    name: 'generate',
    summary: 'Turn URL lists or a build directory into sitemaps: sharded, gzipped, indexed.',
    usage: 'sitemapkit generate INPUT… --base-url URL --out DIR [options]',
    description: `
Inputs (any number, read in order):
  FILE.txt               one URL per line; blank lines and # comments are skipped
  FILE.jsonl             one entry object per line: {"loc":…,"lastmod":…,"images":[…],…}
  FILE.csv               a header row naming the columns loc, lastmod, changefreq, priority
  -                      standard input (format from --input-format, or sniffed)
  DIR                    a site's build output, read as a search engine would see the site
                         served from it: every .html file becomes a URL (index.html → its
                         folder URL), with its hreflang alternates. Left out, with the reason:
                         error pages (404.html, not-found.html, 404/index.html, 500.html, the
                         one the host config or --not-found names, a page titled "not found"),
                         redirect stubs (meta refresh of 5 s or less, a page that is only a
                         script setting location) and paths the host redirects (_redirects,
                         vercel.json), noindex pages (robots <meta>, X-Robots-Tag rules of
                         _headers or vercel.json), pages the folder's robots.txt disallows, and
                         pages whose canonical is another page. lastmod is the page's own date
                         (article:modified_time, JSON-LD dateModified), else its last commit (or,
                         with --git-dir, its sources' last commit), else its file time unless that
                         is the build's stamp; otherwise none

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
generate_changes) for "sitemapkit submit --from-state DIR".`,
    flags: FLAGS,
    notes: { [PROBLEMS]: '                         The same bound applies to left-out pages per reason.' },
    epilogue: `
Examples:
  sitemapkit generate urls.txt --base-url https://www.example.com/ --out public
  sitemapkit generate dist/ --base-url https://www.example.com/ --out dist --exclude "/drafts/**" --gzip
  sitemapkit generate dist/ --base-url https://www.example.com/ --out dist --state .sitemapkit
  cat urls.jsonl | sitemapkit generate - --base-url https://www.example.com/ --out out --max-urls 10000`,
  },

  async run(args, io) {
    if (args.positionals.length === 0)
      throw new UsageError('give at least one INPUT: a URL list file, "-" for standard input, or a build directory');
    const { flags } = args;
    const problems = { failOn: flags.failOn, maxPerRule: flags.maxPerRule };
    const output = readOutputOptions(flags);
    const { inputFormat, exclude, state: stateDir } = flags;
    const pages = readPageOptions(flags);
    const htmlSitemap = readHtmlSitemapRequest(flags);
    if (stateDir !== undefined) {
      refuseStateInsideOut(stateDir, output.outDir, 'ledger');
      if (flags.keepDuplicates)
        throw new UsageError(
          '--keep-duplicates cannot be used with --state: the ledger keeps one record per URL (and finds duplicates on disk, at no cost in memory)',
        );
    }
    const report = new RunReport(io, {
      output,
      ...problems,
      json: flags.json,
      quiet: flags.quiet,
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
    // A terminal sees the count grow; a log gets only the summary, which comes soon enough.
    const progress = new ProgressLine(io, { plainEveryMs: 'never' });
    const sources: SiteSource[] = [];
    for (const path of args.positionals) {
      const directory = path !== '-' && (await stat(path)).isDirectory();
      // The URL-list readers are loaded for a URL list only: a build folder's run starts without them.
      const readList = directory ? undefined : (await import('../input/url-list.js')).readUrlListBatches;
      sources.push(
        readList === undefined
          ? path
          : readList(path, { ...(inputFormat ? { format: inputFormat } : {}), stdin: io.stdin }),
      );
    }
    let summary: GenerateFromDirectorySummary;
    try {
      summary = await generateFromSources(sources, {
        ...output,
        out: output.outDir,
        exclude,
        ...pages,
        ...(stateDir === undefined ? {} : { state: stateDir }),
        ...(htmlSitemap === undefined ? {} : { htmlSitemap }),
        strict: flags.strict,
        keepDuplicates: flags.keepDuplicates,
        signal: interruption.signal,
        examplesPerReason: report.maxPerRule,
        onProblem: report.problem,
        onRead: report.itemsRead,
        onLeftOut: report.leftOut.add,
        onNote: report.note,
        onProgress: ({ urls, files }) => progress.update(() => `${countOf(urls, 'URL')}, ${countOf(files, 'file')}…`),
      });
    } catch (error) {
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
    return report.written(
      summary,
      sources.some((source) => typeof source === 'string'),
    );
  },
});

/** The build-directory flags; absent ones are left to the folder's host config. */
function readPageOptions(
  flags: FlagValues<typeof FLAGS>,
): Pick<
  GenerateFromDirectoryOptions,
  'notFound' | 'keepDisallowed' | 'cleanUrls' | 'trailingSlash' | 'images' | 'gitDir'
> {
  const { notFound, trailingSlash, gitDir } = flags;
  return {
    ...(notFound === undefined ? {} : { notFound }),
    ...(gitDir === undefined ? {} : { gitDir }),
    keepDisallowed: flags.keepDisallowed,
    ...(flags.cleanUrls ? { cleanUrls: true } : {}),
    ...(flags.images ? { images: true } : {}),
    ...(trailingSlash === undefined ? {} : { trailingSlash }),
  };
}

/**
 * What one run tells the user: problems on stderr as they come (the first --max-per-rule of each
 * code, the rest counted), what the run says once, then the summary on stdout (text, or one JSON
 * object with --json).
 */
class RunReport {
  private readonly tally: DiagnosticTally;
  readonly leftOut: LeftOutPages;
  private readonly notes: SiteNote[] = [];
  private summary: GenerateFromDirectorySummary | undefined;
  private directories = false;
  private items = 0;

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

  readonly itemsRead = (count: number): void => {
    this.items += count;
  };

  readonly note = (note: SiteNote): void => {
    this.notes.push(note);
    if (!this.options.json) this.io.stderr.write(`${note.level}: ${note.message}\n`);
  };

  get maxPerRule(): number {
    return this.options.maxPerRule;
  }

  /** The run published its sitemaps: exit 1 only for problems at or above --fail-on. */
  written(summary: GenerateFromDirectorySummary, directories: boolean): number {
    this.summary = summary;
    this.directories = directories;
    this.printProblemEnd();
    const html = summary.htmlSitemap;
    if (html?.written === false) this.io.stderr.write(formatHtmlSitemapOutcome(html, 'generate'));
    if (this.options.json) {
      const { leftOut: _leftOut, unusedExcludes: _unused, notes: _notes, itemsRead: _items, ...written } = summary;
      this.io.stdout.write(`${JSON.stringify({ written: true, ...written, ...this.json() })}\n`);
    } else {
      const { outDir } = this.options.output;
      this.io.stdout.write(
        this.options.quiet
          ? `${summary.robotsTxt.join('\n')}\n`
          : formatGenerateSummary(summary, summary.leftOut, resolve(outDir), summary.changes),
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
    this.io.stderr.write(`sitemapkit generate: ${forTerminal(why)}\nNothing was written; ${outDir} is unchanged.\n`);
    return EXIT_FAILED;
  }

  /** The problems, left-out pages and advice, as --json carries them. */
  private json() {
    const cause = this.likelyCause();
    return {
      diagnostics: this.tally.examples(),
      folded: this.tally.folded(),
      leftOut: this.summary?.leftOut ?? this.leftOut.byReason(),
      unusedExcludes: this.summary?.unusedExcludes ?? [],
      notes: this.notes,
      ...(cause === undefined ? {} : { likelyCause: cause }),
    };
  }

  /** On stderr, after the problems: what was not shown, the likely cause, the globs that matched nothing. */
  private printProblemEnd(): void {
    if (this.options.json) return;
    const lines = this.tally.folded().map(formatFolded);
    const cause = this.likelyCause();
    if (cause !== undefined) lines.push(`Likely cause: ${forTerminal(cause)}`);
    for (const pattern of this.summary?.unusedExcludes ?? []) {
      lines.push(
        this.directories
          ? `warning: --exclude ${pattern} matched no page (globs are relative to the build directory, e.g. "drafts/**")`
          : `warning: --exclude ${pattern} was not used: --exclude applies to build directories, and no INPUT is one`,
      );
    }
    if (lines.length > 0) this.io.stderr.write(`${lines.join('\n')}\n`);
  }

  private likelyCause(): string | undefined {
    return likelyCause(this.tally, this.items, this.options.output.baseUrl);
  }
}
