/**
 * What every command shares: how its flag table (src/cli/flags.ts) is parsed, how usage errors
 * become exit code 2, and how `--help` is printed. One file per command builds on this and does only its job.
 */
import { parseArgs } from 'node:util';
import { formatFlagSections, parseArgsOptions, readFlagValues, type FlagTable, type FlagValues } from './flags.js';
import { UsageError } from './usage-error.js';

export { UsageError };

export const EXIT_OK = 0;
/** The input has errors, or the work failed. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  /** True when stdout is a terminal: human output; otherwise plain, machine-friendly output. */
  isTerminal: boolean;
  /** True when stderr is a terminal: live progress lines may redraw themselves. */
  stderrIsTerminal: boolean;
}

/**
 * A command's usage and help. Its flags are declared once in `flags` (src/cli/flags.ts), from
 * which parsing, typed values and the flag lines of --help come; the prose around them is written
 * by hand.
 */
export interface CommandSpec<F extends FlagTable = FlagTable> {
  name: string;
  summary: string;
  usage: string;
  /** What the command does: the help between the summary and the flags. */
  description: string;
  flags: F;
  /** Prose printed under a group's flags, by group. */
  notes?: Readonly<Record<string, string>>;
  /** The help after the flags: how a run ends, examples. */
  epilogue?: string;
  allowPositionals?: boolean;
}

export interface Command<F extends FlagTable = FlagTable> {
  spec: CommandSpec<F>;
  run(args: ParsedArgs<F>, io: Io): Promise<number>;
}

export interface ParsedArgs<F extends FlagTable = FlagTable> {
  /** The flags, typed, by camel-case name (`flags.maxPerRule`). */
  flags: FlagValues<F>;
  positionals: string[];
  /** -h or --help was given: the help is printed, and no flag's value was judged. */
  help: boolean;
}

/** A command with its flag table's types kept, so that `run` reads its flags typed. */
export function defineCommand<const F extends FlagTable>(command: {
  spec: CommandSpec<F>;
  run(args: ParsedArgs<F>, io: Io): Promise<number>;
}): Command<F> {
  return command;
}

/** Colours on stdout: on a terminal, unless NO_COLOR is set (https://no-color.org). */
export function useColor(io: Io): boolean {
  return io.isTerminal && !process.env.NO_COLOR;
}

/** Parses argv for a command; throws UsageError with a message a person can act on. */
export function parseCommandArgs<F extends FlagTable>(spec: CommandSpec<F>, argv: string[]): ParsedArgs<F> {
  const options = parseArgsOptions(spec.flags);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: spec.allowPositionals ?? true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional.*$/s, '');
    const unknown = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
    const near = unknown === undefined ? undefined : closest(unknown, Object.keys(options));
    throw new UsageError(
      `${message}${near === undefined ? '' : `: did you mean --${near}?`}\nRun "sitemapkit ${spec.name} --help" for usage.`,
    );
  }
  const { values, positionals } = parsed;
  // --help is answered before any flag's value is judged.
  const help = values.help === true;
  const flags = help ? {} : readFlagValues(spec.flags, values);
  return { flags: flags as FlagValues<F>, positionals, help };
}

/**
 * The name among `names` nearest to a mistyped `word` (at most 2 edits, or a third of its length
 * when longer; a prefix counts as near), as git suggests a command: undefined when none is near.
 */
export function closest(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const distance = name.startsWith(word) && word.length >= 3 ? 1 : editDistance(word, name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** Damerau–Levenshtein distance (a swap of two neighbours is one edit: --gizp → --gzip). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  return rows[a.length]![b.length]!;
}

/**
 * The help of a command: usage, summary, its own text, then the exit codes, the same for every
 * command (src/cli/problem-options.ts says why), so no command can forget or contradict them.
 */
export function formatHelp(spec: CommandSpec): string {
  const body = [spec.description, formatFlagSections(spec.flags, spec.notes), spec.epilogue ?? '']
    .map((part) => part.replace(/^\n+|\s+$/g, ''))
    .filter((part) => part !== '')
    .join('\n\n');
  const problems = 'fail-on' in spec.flags;
  return `Usage: ${spec.usage}\n\n${spec.summary}\n\n${body}\n\n${exitCodesHelp(problems)}\n`;
}

/** The exit-code policy as a command's help states it; commands that report problems add --fail-on. */
export function exitCodesHelp(problems: boolean): string {
  return `Exit codes (the same for every sitemapkit command):
  0  ${problems ? 'the work was done and found no problem at or above --fail-on' : 'the work was done'}
  1  ${problems ? 'a problem at or above --fail-on (default: error) was found, or the work failed' : 'the work failed'}
  2  bad usage: an unknown flag, a missing or wrong argument`;
}
