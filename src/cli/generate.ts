/**
 * `sitemapkit generate INPUT… --base-url URL --out DIR`: URL lists or a site's build directory
 * → published sitemaps. Flags and printing only; the work is in input/ and generate/.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatDiagnostic, type Diagnostic } from '../core/index.js';
import { GenerateError, writeSitemaps, type GeneratorInput, type WriteSummary } from '../generate/index.js';
import { URL_LIST_FORMATS, readUrlList, type UrlListFormat } from '../input/index.js';
import { readSiteDirectory } from '../input/site-directory.js';
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  booleanFlag,
  listFlag,
  stringFlag,
  type Command,
  type Io,
} from './command.js';
import { OUTPUT_OPTIONS, OUTPUT_OPTIONS_HELP, readOutputOptions, type OutputOptions } from './output-options.js';
import { countOf, formatBytes } from '../report/format.js';

/** Warnings of one code printed before the rest are only counted (a list of duplicates can be long). */
const WARNINGS_SHOWN_PER_CODE = 20;

export const command: Command = {
  spec: {
    name: 'generate',
    summary:
      'Turn URL lists or a site build directory into sitemaps: sharded, optionally gzipped, with an index when needed.',
    usage: 'sitemapkit generate INPUT… --base-url URL --out DIR [options]',
    help: `
Inputs (any number, read in order):
  FILE.txt               one URL per line; blank lines and # comments are skipped
  FILE.jsonl             one entry object per line: {"loc":…,"lastmod":…,"images":[…],…}
  FILE.csv               a header row naming the columns loc, lastmod, changefreq, priority
  -                      standard input (format from --input-format, or sniffed)
  DIR                    a site's build output: every .html file becomes a URL (index.html → its
                         directory URL), lastmod from the file time; noindex pages are left out

Relative URLs resolve against --base-url. Bad lines are reported as file:line and skipped; the
run still writes everything valid and exits 1. Duplicate URLs are written once.

Input:
  --input-format F       txt, jsonl or csv, for "-" and files without a known extension
  --exclude GLOB         leave out build-directory paths matching GLOB (repeatable), e.g. "drafts/**"
  --strict               stop at the first bad line; the output directory is left untouched
  --keep-duplicates      skip duplicate detection, for inputs known to be unique: it costs 8
                         bytes per URL (about 130 MB at 10 million URLs); off, memory stays flat

${OUTPUT_OPTIONS_HELP}

Printing:
  --json                 print the summary as one JSON object
  -q, --quiet            print only the robots.txt line(s) and problems

Examples:
  sitemapkit generate urls.txt --base-url https://www.example.com/ --out public
  sitemapkit generate dist/ --base-url https://www.example.com/ --out dist --exclude "drafts/**" --gzip
  cat urls.jsonl | sitemapkit generate - --base-url https://www.example.com/ --out out --max-urls 10000
`,
    options: {
      ...OUTPUT_OPTIONS,
      'input-format': { type: 'string' },
      exclude: { type: 'string', multiple: true },
      strict: { type: 'boolean' },
      'keep-duplicates': { type: 'boolean' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    },
  },

  async run(args, io) {
    if (args.positionals.length === 0)
      throw new UsageError('give at least one INPUT: a URL list file, "-" for standard input, or a build directory');
    const output = readOutputOptions(args);
    const inputFormat = readInputFormat(stringFlag(args, 'input-format'));
    const exclude = listFlag(args, 'exclude');
    for (const path of args.positionals) {
      if (path !== '-' && !(await stat(path).catch(() => undefined))) throw new UsageError(`input not found: ${path}`);
    }
    const problems = new ProblemPrinter(io);
    // Ctrl-C (or a service manager's TERM) stops the run cleanly: the temporary files are
    // removed and the published sitemaps stay as they were.
    const interruption = new AbortController();
    const interrupt = (signal: NodeJS.Signals): void => {
      interruption.abort(`interrupted by ${signal}`);
      // A read of standard input may be waiting for data that will never come: end it.
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    };
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    let summary: WriteSummary;
    try {
      summary = await writeSitemaps(inputsOf(args.positionals, { output, inputFormat, exclude, io }), {
        ...output,
        strict: booleanFlag(args, 'strict'),
        dedupe: !booleanFlag(args, 'keep-duplicates'),
        signal: interruption.signal,
        onProblem: (problem) => problems.print(problem),
        onProgress: ({ urls, files }) => {
          if (io.stderrIsTerminal) io.stderr.write(`\r${urls.toLocaleString('en-US')} URLs, ${files} files…`);
        },
      });
    } catch (error) {
      if (!(error instanceof GenerateError) && !interruption.signal.aborted) throw error;
      if (error instanceof GenerateError && error.diagnostic) problems.print(error.diagnostic);
      const why = interruption.signal.aborted ? String(interruption.signal.reason) : (error as Error).message;
      io.stderr.write(`sitemapkit generate: ${why}\nNothing was written; ${output.outDir} is unchanged.\n`);
      return EXIT_FAILED;
    } finally {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    }
    if (io.stderrIsTerminal) io.stderr.write('\r\u001b[K');
    problems.finish();
    if (booleanFlag(args, 'json')) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else io.stdout.write(describe(summary, output, booleanFlag(args, 'quiet')));
    return summary.problems.errors > 0 ? EXIT_FAILED : EXIT_OK;
  },
};

function readInputFormat(raw: string | undefined): UrlListFormat | undefined {
  if (raw === undefined) return undefined;
  if (!(URL_LIST_FORMATS as readonly string[]).includes(raw))
    throw new UsageError(`--input-format must be one of ${URL_LIST_FORMATS.join(', ')}, not "${raw}"`);
  return raw as UrlListFormat;
}

/** Every input in order, as one stream for the writer. */
async function* inputsOf(
  paths: string[],
  context: { output: OutputOptions; inputFormat: UrlListFormat | undefined; exclude: string[]; io: Io },
): AsyncGenerator<GeneratorInput> {
  for (const path of paths) {
    if (path !== '-' && (await stat(path).catch(() => undefined))?.isDirectory()) {
      // Each page named by its file, so a problem with it points at the file to fix.
      yield* readSiteDirectory(path, { baseUrl: context.output.baseUrl, exclude: context.exclude });
    } else {
      yield* readUrlList(path, {
        ...(context.inputFormat ? { format: context.inputFormat } : {}),
        stdin: context.io.stdin,
      });
    }
  }
}

/** Prints problems as `file:line:column: severity CODE message`, counting repetitive warnings. */
class ProblemPrinter {
  private readonly shown = new Map<string, number>();
  private readonly hidden = new Map<string, number>();

  constructor(private readonly io: Io) {}

  print(problem: Diagnostic): void {
    const count = this.shown.get(problem.code) ?? 0;
    if (problem.severity !== 'error' && count >= WARNINGS_SHOWN_PER_CODE) {
      this.hidden.set(problem.code, (this.hidden.get(problem.code) ?? 0) + 1);
      return;
    }
    this.shown.set(problem.code, count + 1);
    this.io.stderr.write(`${formatDiagnostic(problem)}\n`);
  }

  finish(): void {
    for (const [code, count] of this.hidden)
      this.io.stderr.write(`… and ${count.toLocaleString('en-US')} more ${code} warnings\n`);
  }
}

function describe(summary: WriteSummary, output: OutputOptions, quiet: boolean): string {
  const lines: string[] = [];
  if (!quiet) {
    lines.push(
      `Wrote ${countOf(summary.urls, 'URL')} in ${countOf(summary.files.length, 'file')}${summary.index ? ' and an index' : ''} to ${resolve(output.outDir)}`,
    );
    const width = Math.max(...summary.files.map((file) => file.name.length), summary.index?.name.length ?? 0);
    for (const file of summary.files) {
      const size =
        file.gzipBytes === undefined
          ? formatBytes(file.bytes)
          : `${formatBytes(file.bytes)} (${formatBytes(file.gzipBytes)} gzipped)`;
      lines.push(
        `  ${file.name.padEnd(width)}  ${countOf(file.urls, 'URL').padStart(11)}  ${size}${file.lastmod ? `  newest ${file.lastmod}` : ''}`,
      );
    }
    if (summary.index)
      lines.push(`  ${summary.index.name.padEnd(width)}  index of ${countOf(summary.files.length, 'file')}`);
    if (summary.duplicates > 0) lines.push(`${countOf(summary.duplicates, 'duplicate URL')} written once`);
    if (summary.skipped > 0)
      lines.push(`${countOf(summary.skipped, 'entry', 'entries')} skipped because of errors (listed above)`);
    // The other errors left out a field of an entry that was written.
    const fieldErrors = summary.problems.errors - summary.skipped;
    if (fieldErrors > 0) lines.push(`${countOf(fieldErrors, 'field')} left out because of errors (listed above)`);
    if (summary.removed.length > 0) lines.push(`Removed stale files of a previous run: ${summary.removed.join(', ')}`);
    lines.push('', 'Add to robots.txt:');
  }
  lines.push(...summary.robotsTxt);
  return `${lines.join('\n')}\n`;
}
