/**
 * W3C datetime (https://www.w3.org/TR/NOTE-datetime), the date format of `lastmod`.
 * Six granularities: YYYY, YYYY-MM, YYYY-MM-DD, and a time to minutes, seconds or fractions,
 * which must then carry a zone (Z or ±hh:mm).
 */

export type DateGranularity = 'year' | 'month' | 'day' | 'minute' | 'second' | 'fraction';

/**
 * A W3C datetime taken apart: its fields, its granularity (year to fractions of a second) and its
 * zone.
 */
export interface W3cDate {
  granularity: DateGranularity;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** The fraction digits as written (without the dot), '' when absent. */
  fraction: string;
  /** The zone as written: 'Z', '+02:00', or '' for date-only forms. */
  zone: string;
  /** Offset from UTC in minutes; 0 for date-only forms (read as UTC midnight). */
  offsetMinutes: number;
}

/** Why a value is not a W3C datetime; the codes are the catalog's (docs/rules.md). */
export type DateProblem =
  { code: 'DATE-001'; message: string } | { code: 'DATE-002'; message: string } | { code: 'DATE-003'; message: string };

export type DateParseResult = { ok: true; value: W3cDate } | { ok: false; problem: DateProblem };

const SHAPE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/**
 * The source of a pattern for W3C datetimes with every field in range (a zone at most ±14:00),
 * days from 01 to 31 in any month: what it matches is valid except a day past the end of its
 * month, so only days past 28 need parseW3cDate. For scanners that match a date inside a larger
 * expression (the parser's fast path).
 */
export const W3C_DATE_IN_RANGE =
  String.raw`\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01])` +
  String.raw`(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:(?:0\d|1[0-3]):[0-5]\d|14:00)))?)?)?`;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Parses a W3C datetime exactly (no trimming: callers trim and report whitespace themselves). */
export function parseW3cDate(text: string): DateParseResult {
  const m = SHAPE.exec(text);
  if (!m) {
    return {
      ok: false,
      problem: {
        code: 'DATE-001',
        message: `"${text}" is not a W3C datetime; use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm`,
      },
    };
  }
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h !== undefined && zone === undefined) {
    return {
      ok: false,
      problem: { code: 'DATE-002', message: `"${text}" has a time but no time zone; add Z or ±hh:mm` },
    };
  }
  const value: W3cDate = {
    granularity:
      frac !== undefined
        ? 'fraction'
        : s !== undefined
          ? 'second'
          : h !== undefined
            ? 'minute'
            : d !== undefined
              ? 'day'
              : mo !== undefined
                ? 'month'
                : 'year',
    year: Number(y),
    month: mo === undefined ? 1 : Number(mo),
    day: d === undefined ? 1 : Number(d),
    hour: h === undefined ? 0 : Number(h),
    minute: mi === undefined ? 0 : Number(mi),
    second: s === undefined ? 0 : Number(s),
    fraction: frac ?? '',
    zone: zone ?? '',
    offsetMinutes: 0,
  };
  const calendarError = checkCalendar(value);
  if (calendarError) return { ok: false, problem: { code: 'DATE-003', message: `"${text}": ${calendarError}` } };
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    value.offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  return { ok: true, value };
}

function checkCalendar(v: W3cDate): string | undefined {
  if (v.month < 1 || v.month > 12) return `month ${v.month} does not exist`;
  if (v.day < 1 || v.day > daysInMonth(v.year, v.month))
    return `day ${v.day} does not exist in ${v.year}-${pad2(v.month)}`;
  if (v.hour > 23) return `hour ${v.hour} is past 23`;
  if (v.minute > 59) return `minute ${v.minute} is past 59`;
  if (v.second > 59) return `second ${v.second} is past 59`;
  if (v.zone && v.zone !== 'Z') {
    const hours = Number(v.zone.slice(1, 3));
    const minutes = Number(v.zone.slice(4, 6));
    if (minutes > 59 || hours * 60 + minutes > 14 * 60) return `time zone ${v.zone} is out of range (at most ±14:00)`;
  }
  return undefined;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pad4(n: number): string {
  return String(n).padStart(4, '0');
}

/**
 * The form generators write, which every reader and the schema take: `YYYY-MM-DD` for date-only
 * values (a year or a month alone becomes its first day), otherwise `YYYY-MM-DDThh:mm:ss` with the
 * zone as given. Fractions of a second are dropped.
 */
export function formatSitemapDate(v: W3cDate): string {
  const date = `${pad4(v.year)}-${pad2(v.month)}-${pad2(v.day)}`;
  if (v.granularity === 'year' || v.granularity === 'month' || v.granularity === 'day') return date;
  return `${date}T${pad2(v.hour)}:${pad2(v.minute)}:${pad2(v.second)}${v.zone === '+00:00' ? '+00:00' : v.zone}`;
}

/** Milliseconds since the epoch of the instant a W3C datetime names (date-only forms: UTC midnight). */
export function toEpochMillis(v: W3cDate): number {
  const fractionMs = v.fraction ? Math.floor(Number(`0.${v.fraction}`) * 1000) : 0;
  return Date.UTC(v.year, v.month - 1, v.day, v.hour, v.minute, v.second, fractionMs) - v.offsetMinutes * 60_000;
}

/** Epoch milliseconds of a W3C datetime string, or undefined when it is not one. */
export function w3cToEpochMillis(text: string): number | undefined {
  const parsed = parseW3cDate(text.trim());
  return parsed.ok ? toEpochMillis(parsed.value) : undefined;
}

/** A JavaScript Date as `YYYY-MM-DDThh:mm:ssZ` (UTC, whole seconds). */
export function formatUtcDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A date as a page gives its own (`article:modified_time`, JSON-LD `dateModified`), as a lastmod:
 * a W3C datetime as written, another form that JavaScript reads (RFC 2822, an ISO date without a
 * zone…) in UTC. Undefined when it cannot be read. `generate DIR` and the crawl date a page by it
 * before anything else.
 */
export function pageLastmod(modified: string | undefined): string | undefined {
  const text = modified?.trim();
  // A W3C datetime is kept as written (read once); any other form is read as pageDateMillis reads it.
  if (text !== undefined && parseW3cDate(text).ok) return text;
  const millis = pageDateMillis(modified);
  return millis === undefined ? undefined : formatUtcDateTime(new Date(millis));
}

/** A page's own date, read as pageLastmod reads it, in epoch milliseconds (the audit compares by it). */
export function pageDateMillis(modified: string | undefined): number | undefined {
  if (modified === undefined) return undefined;
  const millis = w3cToEpochMillis(modified) ?? Date.parse(modified);
  return Number.isNaN(millis) ? undefined : millis;
}
