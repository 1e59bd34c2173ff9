/**
 * What every command shares: how flags are declared and parsed, how usage errors become exit
 * code 2, and how `--help` is printed. One file per command builds on this and does only its job.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT_OK = 0;
/** The input has errors, or the work failed. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {}

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  /** True when stdout is a terminal: human output; otherwise plain, machine-friendly output. */
  isTerminal: boolean;
  /** True when stderr is a terminal: live progress lines may redraw themselves. */
  stderrIsTerminal: boolean;
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  /** Help text below the usage line: what the command does, each flag, examples. */
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  allowPositionals?: boolean;
}

export interface Command {
  spec: CommandSpec;
  run(args: ParsedArgs, io: Io): Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** Colours on stdout: on a terminal, unless NO_COLOR is set (https://no-color.org). */
export function useColor(io: Io): boolean {
  return io.isTerminal && !process.env.NO_COLOR;
}

/** Parses argv for a command; throws UsageError with a message a person can act on. */
export function parseCommandArgs(spec: CommandSpec, argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' }, ...spec.options },
      allowPositionals: spec.allowPositionals ?? true,
      strict: true,
    });
    return { values, positionals };
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional.*$/s, '');
    const unknown = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
    const near = unknown === undefined ? undefined : closest(unknown, ['help', ...Object.keys(spec.options)]);
    throw new UsageError(
      `${message}${near === undefined ? '' : `: did you mean --${near}?`}\nRun "sitemapkit ${spec.name} --help" for usage.`,
    );
  }
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
  return `Usage: ${spec.usage}\n\n${spec.summary}\n\n${spec.help.trim()}\n\n${exitCodesHelp(spec)}\n`;
}

/** The exit-code policy as a command's help states it; commands that report problems add --fail-on. */
export function exitCodesHelp(spec: Pick<CommandSpec, 'options'>): string {
  const problems = 'fail-on' in spec.options;
  return `Exit codes (the same for every sitemapkit command):
  0  ${problems ? 'the work was done and found no problem at or above --fail-on' : 'the work was done'}
  1  ${problems ? 'a problem at or above --fail-on (default: error) was found, or the work failed' : 'the work failed'}
  2  bad usage: an unknown flag, a missing or wrong argument`;
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
