/**
 * Entries as text: one JSON object per line (the entry shape of docs/architecture.md, `source` last when given) or CSV
 * rows under a fixed header. Used by `parse` and by `tree --urls`.
 */
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
 * was a quarter of a `tree --urls` run, and this is 2.5 times as fast. Any other object goes
 * through JSON.stringify.
 */
export function entryToJsonLine(entry: Entry, source?: string): string {
  const line = isInFieldOrder(entry) ? fieldByField(entry, source) : undefined;
  if (line !== undefined) return line;
  return JSON.stringify(source === undefined ? entry : { ...entry, source });
}

/** Each field's place in DESIGN.md's order (the CSV columns' order), `source` last. */
const FIELD_RANK: ReadonlyMap<string, number> = new Map(ENTRY_CSV_COLUMNS.map((field, rank) => [field, rank]));

/** Whether `entry` is a plain object whose every field is one of FIELD_RANK's, in its order. */
function isInFieldOrder(entry: object): boolean {
  if (Object.getPrototypeOf(entry) !== Object.prototype) return false;
  let last = -1;
  for (const key in entry) {
    const rank = FIELD_RANK.get(key);
    if (rank === undefined || rank <= last) return false;
    last = rank;
  }
  return true;
}

/** An entry's fields as isInFieldOrder found them; each may hold anything (the entry may be the caller's). */
type EntryFields = { [Field in (typeof ENTRY_CSV_COLUMNS)[number]]?: unknown };

/** The line of an entry in field order; undefined when a field holds what JSON.stringify writes otherwise. */
function fieldByField(entry: EntryFields, source: string | undefined): string | undefined {
  const { kind, loc, lastmod, changefreq, priority } = entry;
  if (typeof kind !== 'string' || typeof loc !== 'string') return undefined;
  let line = `{"kind":${quotedName(kind)},"loc":${jsonString(loc)}`;
  if (typeof lastmod === 'string') line += `,"lastmod":${jsonString(lastmod)}`;
  else if (lastmod !== undefined) return undefined;
  if (typeof changefreq === 'string') line += `,"changefreq":${quotedName(changefreq)}`;
  else if (changefreq !== undefined) return undefined;
  if (typeof priority === 'number') line += `,"priority":${Number.isFinite(priority) ? `${priority}` : 'null'}`;
  else if (priority !== undefined) return undefined;
  // Lists and records, rare and varied: JSON.stringify's own.
  for (const field of ['images', 'videos', 'news', 'alternates'] as const) {
    const value = entry[field];
    if (typeof value === 'object' && value !== null) line += `,"${field}":${JSON.stringify(value)}`;
    else if (value !== undefined) return undefined;
  }
  const named = source ?? entry.source;
  if (typeof named === 'string') line += `,"source":${jsonString(named)}`;
  else if (named !== undefined) return undefined;
  return `${line}}`;
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

/** RFC 4180: quoted when the value holds a comma, a quote or a line break; quotes doubled. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
