/**
 * Entries as text: one JSON object per line (the entry shape of docs/architecture.md, `source` last when given) or CSV
 * rows under a fixed header. Used by `parse` and by `tree --urls`.
 */
import { csvCell } from '../core/csv.js';
import { CHANGEFREQS, type Entry } from '../core/entry.js';

/** An entry's fields in DESIGN.md's order, `source` last: the CSV columns, and the order of JSON lines. */
export const ENTRY_CSV_COLUMNS = [
  'kind',
  'loc',
  'lastmod',
  'changefreq',
  'priority',
  'images',
  'videos',
  'news',
  'alternates',
  'source',
] as const;

/**
 * One JSONL line (without the newline): exactly what JSON.stringify writes for the entry, with
 * `source` last when given (an entry that names a source already has it replaced).
 *
 * An entry whose fields come in DESIGN.md's order (as the parser makes them) is written field by
 * field, its strings quoted as they are unless they hold something JSON escapes: JSON.stringify
 * was a quarter of a `tree --urls` run, and this is several times as fast. Any other object goes
 * through JSON.stringify.
 */
export function entryToJsonLine(entry: Entry, source?: string): string {
  const line = Object.getPrototypeOf(entry) === Object.prototype ? fieldByField(entry, source) : undefined;
  if (line !== undefined) return line;
  return JSON.stringify(source === undefined ? entry : { ...entry, source });
}

/** An entry's fields as the caller made them; each may hold anything (the entry may be the caller's). */
type EntryFields = { [Field in (typeof ENTRY_CSV_COLUMNS)[number]]?: unknown };

/**
 * The line of an entry whose every field is one of ENTRY_CSV_COLUMNS, in their order, read in
 * one pass over its keys; undefined for any other object, or when a field holds what
 * JSON.stringify writes otherwise.
 */
function fieldByField(entry: EntryFields, source: string | undefined): string | undefined {
  let line = '';
  let rank = -1;
  let named = source;
  for (const key in entry) {
    const value = entry[key as keyof EntryFields];
    const at = rankOf(key);
    if (at <= rank) return undefined;
    rank = at;
    if (value === undefined) continue;
    switch (key) {
      case 'kind':
        // First of all fields, when there is one.
        if (typeof value !== 'string') return undefined;
        line = `{"kind":${quotedName(value)}`;
        break;
      case 'changefreq':
        if (typeof value !== 'string') return undefined;
        line += `,"changefreq":${quotedName(value)}`;
        break;
      case 'loc':
      case 'lastmod':
        if (typeof value !== 'string') return undefined;
        line += `,"${key}":${jsonString(value)}`;
        break;
      case 'priority':
        if (typeof value !== 'number') return undefined;
        line += `,"priority":${Number.isFinite(value) ? `${value}` : 'null'}`;
        break;
      case 'source':
        named ??= value as string;
        break;
      default:
        // Lists and records, rare and varied: JSON.stringify's own.
        if (typeof value !== 'object' || value === null) return undefined;
        line += `,"${key}":${JSON.stringify(value)}`;
    }
  }
  if (typeof entry.kind !== 'string' || entry.loc === undefined) return undefined;
  if (typeof named === 'string') line += `,"source":${sourceString(named)}`;
  else if (named !== undefined) return undefined;
  return `${line}}`;
}

/** A field's place in DESIGN.md's order (the CSV columns' order), `source` last; -1 for no field of an entry. */
function rankOf(key: string): number {
  switch (key) {
    case 'kind':
      return 0;
    case 'loc':
      return 1;
    case 'lastmod':
      return 2;
    case 'changefreq':
      return 3;
    case 'priority':
      return 4;
    case 'images':
      return 5;
    case 'videos':
      return 6;
    case 'news':
      return 7;
    case 'alternates':
      return 8;
    case 'source':
      return 9;
    default:
      return -1;
  }
}

/** The names entries hold (kinds, changefreqs), quoted once; others as any string. */
const QUOTED_NAMES: ReadonlyMap<string, string> = new Map(
  ['url', 'sitemap', ...CHANGEFREQS].map((name) => [name, `"${name}"`]),
);

function quotedName(name: string): string {
  return QUOTED_NAMES.get(name) ?? jsonString(name);
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters, lone surrogates (and, here, paired ones). */
// eslint-disable-next-line no-control-regex -- the control characters JSON escapes are the point
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

function jsonString(text: string): string {
  return NEEDS_ESCAPING.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** The last source quoted: the entries of one sitemap come one after the other, all with its URL. */
let lastSource = { text: '', quoted: '""' };

function sourceString(text: string): string {
  if (text !== lastSource.text) lastSource = { text, quoted: jsonString(text) };
  return lastSource.quoted;
}

/** The CSV header line (without the newline). */
export function entryCsvHeader(withSource = false): string {
  return (withSource ? ENTRY_CSV_COLUMNS : ENTRY_CSV_COLUMNS.slice(0, -1)).join(',');
}

/**
 * One CSV row (without the newline). Scalar fields as they are; the extensions, being lists of
 * records, as compact JSON in their cell (empty when absent).
 */
export function entryToCsvRow(entry: Entry, source?: string, withSource = source !== undefined): string {
  const url = entry.kind === 'url' ? entry : undefined;
  const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));
  const cells = [
    entry.kind,
    entry.loc,
    entry.lastmod ?? '',
    url?.changefreq ?? '',
    url?.priority === undefined ? '' : String(url.priority),
    json(url?.images),
    json(url?.videos),
    json(url?.news),
    json(url?.alternates),
  ];
  if (withSource) cells.push(source ?? '');
  return cells.map(csvCell).join(',');
}
