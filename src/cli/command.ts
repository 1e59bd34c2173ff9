/**
 * What every command shares: how flags are declared and parsed, how usage errors become exit
 * code 2, and how `--help` is printed. One file per command builds on this and does only its job.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
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

/** The help of a command not yet declared with a flag table: written whole by hand. */
export interface LegacyCommandSpec {
  name: string;
  summary: string;
  usage: string;
  /** Help text below the usage line: what the command does, each flag, examples. */
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  allowPositionals?: boolean;
}

export interface Command<F extends FlagTable = FlagTable> {
  spec: CommandSpec<F> | LegacyCommandSpec;
  run(args: ParsedArgs<F>, io: Io): Promise<number>;
}

export interface ParsedArgs<F extends FlagTable = FlagTable> {
  /** The flags, typed, by camel-case name (`flags.maxPerRule`). */
  flags: FlagValues<F>;
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** A command with its flag table's types kept, so that `run` reads its flags typed. */
export function defineCommand<const F extends FlagTable>(command: {
  spec: CommandSpec<F>;
  run(args: ParsedArgs<F>, io: Io): Promise<number>;
}): Command<F> {
  return command;
}

function isLegacy<F extends FlagTable>(spec: CommandSpec<F> | LegacyCommandSpec): spec is LegacyCommandSpec {
  return 'options' in spec;
}

/** Colours on stdout: on a terminal, unless NO_COLOR is set (https://no-color.org). */
export function useColor(io: Io): boolean {
  return io.isTerminal && !process.env.NO_COLOR;
}

/** Parses argv for a command; throws UsageError with a message a person can act on. */
export function parseCommandArgs<F extends FlagTable>(
  spec: CommandSpec<F> | LegacyCommandSpec,
  argv: string[],
): ParsedArgs<F> {
  const options = isLegacy(spec)
    ? { help: { type: 'boolean' as const, short: 'h' }, ...spec.options }
    : parseArgsOptions(spec.flags);
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
  const flags = isLegacy(spec) || values.help === true ? {} : readFlagValues(spec.flags, values);
  return { flags: flags as FlagValues<F>, values, positionals };
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
export function formatHelp(spec: CommandSpec | LegacyCommandSpec): string {
  const body = isLegacy(spec)
    ? spec.help.trim()
    : [spec.description, formatFlagSections(spec.flags, spec.notes), spec.epilogue ?? '']
        .map((part) => part.replace(/^\n+|\s+$/g, ''))
        .filter((part) => part !== '')
        .join('\n\n');
  const problems = 'fail-on' in (isLegacy(spec) ? spec.options : spec.flags);
  return `Usage: ${spec.usage}\n\n${spec.summary}\n\n${body}\n\n${exitCodesHelp(problems)}\n`;
}

/** The exit-code policy as a command's help states it; commands that report problems add --fail-on. */
export function exitCodesHelp(problems: boolean): string {
  return `Exit codes (the same for every sitemapkit command):
  0  ${problems ? 'the work was done and found no problem at or above --fail-on' : 'the work was done'}
  1  ${problems ? 'a problem at or above --fail-on (default: error) was found, or the work failed' : 'the work failed'}
  2  bad usage: an unknown flag, a missing or wrong argument`;
}

/**
 * The typed values of a shared flag table (network, problems …) for a command whose own flags are
 * not yet declared in a table: the bridge until every command is.
 */
export function legacyFlagValues<T extends FlagTable>(table: T, args: ParsedArgs): FlagValues<T> {
  return readFlagValues(table, args.values);
}

/** Reads a flag as a string, or undefined. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Reads a repeatable flag as a list of strings. */
export function listFlag(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** Reads a flag as a positive integer (or zero when allowed); a bad value is a usage error. */
export function integerFlag(args: ParsedArgs, name: string, fallback: number, { min = 1 } = {}): number {
  const raw = stringFlag(args, name);
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < min) {
    throw new UsageError(`--${name} must be a whole number of at least ${min}, not "${raw}"`);
  }
  return value;
}
