/**
 * The one place a flag is declared: a command's flags are a table (name → type, help, group,
 * default …), and from it come the options given to node:util parseArgs, the typed values a
 * command reads (`flags.maxPerRule`, a number), the usage errors of a bad value, the flag lines
 * of `--help` and the README's flag tables (scripts/docs-flags.mjs). Shared groups (network,
 * output, problems, workers) are tables of their own that commands spread into theirs.
 */
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

interface FlagCommon {
  /** What the flag does, for --help and the README; the default is appended from `default`. */
  help: string;
  /** The heading the flag is listed under in --help ("Network", "Output" …). */
  group: string;
  /** One letter: -o for --out. */
  short?: string;
  /** The default as said in words, when it is no value of the flag ("the clock"). */
  defaultText?: string;
  /** Read but not listed: flags that sitemapkit gives its own processes (--worker). */
  hidden?: boolean;
}

/** A switch: true when given. */
export interface BooleanFlag extends FlagCommon {
  type: 'boolean';
}

/** One text value; `value` names it in the help (DIR, URL). */
export interface StringFlag extends FlagCommon {
  type: 'string';
  value: string;
  default?: string;
}

/** A repeatable text value, read as a list (empty when not given). */
export interface ListFlag extends FlagCommon {
  type: 'list';
  value: string;
}

/** A whole number (1_000 allowed), at least `min` (default 1) and at most `max`. */
export interface IntegerFlag extends FlagCommon {
  type: 'integer';
  value: string;
  default?: number;
  min?: number;
  max?: number;
  /** Why `max` is the most, said in the usage error ("the protocol's limit"). */
  maxReason?: string;
}

/** A number of seconds, fractions allowed, at least `min` (default 0; above 0 when min > 0). */
export interface SecondsFlag extends FlagCommon {
  type: 'seconds';
  value: string;
  default?: number;
  min?: number;
}

/** One of a few words. */
export interface ChoiceFlag extends FlagCommon {
  type: 'choice';
  value: string;
  choices: readonly string[];
  default?: string;
}

export type FlagSpec = BooleanFlag | StringFlag | ListFlag | IntegerFlag | SecondsFlag | ChoiceFlag;

/** A command's flags, by name as typed after the two dashes. */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** Declares a table with its literal types kept (choices, defaults), so its values are typed exactly. */
export function defineFlags<const T extends FlagTable>(table: T): T {
  return table;
}

/** 'max-per-rule' → 'maxPerRule'. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

type ValueOf<S> = S extends { type: 'boolean' }
  ? boolean
  : S extends { type: 'list' }
    ? string[]
    : S extends { type: 'integer' | 'seconds'; default: number }
      ? number
      : S extends { type: 'integer' | 'seconds' }
        ? number | undefined
        : S extends { type: 'choice'; choices: readonly (infer C)[]; default: string }
          ? C
          : S extends { type: 'choice'; choices: readonly (infer C)[] }
            ? C | undefined
            : S extends { type: 'string'; default: string }
              ? string
              : string | undefined;

/** The values of a table's flags, by camel-case name, each of its type. */
export type FlagValues<T extends FlagTable> = {
  readonly [K in keyof T & string as CamelCase<K>]: ValueOf<T[K]>;
};

/** What parseArgs is given for a table (and -h, --help for every command). */
export function parseArgsOptions(table: FlagTable): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, flag] of Object.entries(table))
    options[name] = {
      type: flag.type === 'boolean' ? 'boolean' : 'string',
      ...(flag.type === 'list' ? { multiple: true } : {}),
      ...(flag.short === undefined ? {} : { short: flag.short }),
    };
  return options;
}

export function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Turns what parseArgs read into typed values; a bad value is a UsageError naming the flag. */
export function readFlagValues<T extends FlagTable>(
  table: T,
  raw: Record<string, string | boolean | (string | boolean)[] | undefined>,
): FlagValues<T> {
  const values: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(table)) values[camelCase(name)] = readValue(name, flag, raw[name]);
  return values as FlagValues<T>;
}

function readValue(name: string, flag: FlagSpec, raw: string | boolean | (string | boolean)[] | undefined): unknown {
  if (flag.type === 'boolean') return raw === true;
  if (flag.type === 'list')
    return (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).filter(
      (v): v is string => typeof v === 'string',
    );
  if (typeof raw !== 'string') return flag.default;
  switch (flag.type) {
    case 'string':
      return raw;
    case 'integer':
      return readInteger(name, flag, raw);
    case 'seconds':
      return readSeconds(name, flag.min ?? 0, raw);
    case 'choice':
      if (!flag.choices.includes(raw)) throw new UsageError(`--${name} must be ${inWords(flag.choices)}, not "${raw}"`);
      return raw;
  }
}

function readInteger(name: string, flag: IntegerFlag, raw: string): number {
  const min = flag.min ?? 1;
  const value = Number(raw.replace(/_/g, ''));
  if (raw.trim() === '' || !Number.isInteger(value) || value < min)
    throw new UsageError(`--${name} must be a whole number of at least ${min}, not "${raw}"`);
  if (flag.max !== undefined && value > flag.max)
    throw new UsageError(
      `--${name} may be at most ${flag.max.toLocaleString('en-US')}${flag.maxReason === undefined ? '' : ` (${flag.maxReason})`}, not ${value}`,
    );
  return value;
}

function readSeconds(name: string, min: number, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min)
    throw new UsageError(`--${name} must be a number of seconds${min > 0 ? ' above 0' : ''}, not "${raw}"`);
  return value;
}

/** "error, warning or never". */
function inWords(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** Help lines are wrapped to this width; flag help starts at HELP_COLUMN. */
const WIDTH = 100;
const HELP_COLUMN = 25;

/** "-o, --out DIR" */
export function flagLabel(name: string, flag: FlagSpec): string {
  const value = flag.type === 'boolean' ? '' : ` ${flag.value}`;
  return `${flag.short === undefined ? '' : `-${flag.short}, `}--${name}${value}`;
}

/** The help of a flag with its default: "… (default 20)". */
export function flagHelp(flag: FlagSpec): string {
  if (flag.defaultText !== undefined) return `${flag.help} (default: ${flag.defaultText})`;
  const shown =
    flag.type === 'boolean' || flag.type === 'list' || flag.default === undefined
      ? undefined
      : typeof flag.default === 'number'
        ? flag.default.toLocaleString('en-US')
        : flag.default;
  return shown === undefined ? flag.help : `${flag.help} (default ${shown})`;
}

/** The flags listed by group, in the order the groups first appear in the table (hidden ones left out). */
export function flagGroups(table: FlagTable): Map<string, [string, FlagSpec][]> {
  const groups = new Map<string, [string, FlagSpec][]>();
  for (const [name, flag] of Object.entries(table)) {
    if (flag.hidden === true) continue;
    const list = groups.get(flag.group) ?? [];
    list.push([name, flag]);
    groups.set(flag.group, list);
  }
  return groups;
}

/**
 * The flag sections of --help: "Group:" then one line per flag, its help aligned at one column
 * and wrapped; `notes` (by group) are printed as written under the group's flags.
 */
export function formatFlagSections(table: FlagTable, notes: Readonly<Record<string, string>> = {}): string {
  const sections: string[] = [];
  for (const [group, flags] of flagGroups(table)) {
    const lines = [`${group}:`];
    for (const [name, flag] of flags) lines.push(...flagLines(name, flag));
    const note = notes[group];
    if (note !== undefined) lines.push(note.replace(/^\n+|\s+$/g, ''));
    sections.push(lines.join('\n'));
  }
  return sections.join('\n\n');
}

function flagLines(name: string, flag: FlagSpec): string[] {
  const label = `  ${flagLabel(name, flag)}`;
  // "(default 0)" is never split over two lines.
  const wrapped = wrap(
    flagHelp(flag).replace(/\(default:? /, (text) => text.replace(' ', '\u0001')),
    WIDTH - HELP_COLUMN,
  ).map((line) => line.replace('\u0001', ' '));
  const indent = ' '.repeat(HELP_COLUMN);
  const [first, ...rest] = wrapped;
  const head =
    label.length <= HELP_COLUMN - 2 ? [`${label.padEnd(HELP_COLUMN)}${first}`] : [label, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)];
}

/** Words into lines of at most `width` characters (a longer word gets a line of its own). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** A markdown table of a command's flags (the README's, written by scripts/docs-flags.mjs). */
export function flagsMarkdown(table: FlagTable): string {
  const rows = ['| flag | group | meaning |', '| --- | --- | --- |'];
  for (const [group, flags] of flagGroups(table))
    for (const [name, flag] of flags)
      rows.push(`| \`${flagLabel(name, flag)}\` | ${group.replace(/ \(.*$/, '')} | ${markdownText(flagHelp(flag))} |`);
  return rows.join('\n');
}

/** Text as itself in a markdown table cell: no emphasis from globs, no HTML, no cell break. */
function markdownText(text: string): string {
  return text.replace(/[\\*_`|<>[\]]/g, (char) => `\\${char}`);
}
