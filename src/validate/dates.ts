/**
 * Rules on `lastmod` values the parser kept (docs/rules.md; syntax DATE-001..003 is the parser's),
 * by the date rules of core: forms the XSD rejects (DATE-004), dates in the future (DATE-005),
 * values over Yandex's 100 bytes (XML-013); and build-time stamping across the whole file
 * (DATE-006), which needs every entry.
 */
import type { DateGranularity } from '../core/datetime.js';
import { parseW3cDate, toEpochMillis } from '../core/datetime.js';
import { dateFormProblem, futureDateProblem, yandexValueProblem } from '../core/rules/dates.js';
import type { RuleProblem } from '../core/rules/problem.js';
import type { Position } from '../core/position.js';
import { detach } from '../core/detach.js';
import type { Reporter } from './reporter.js';

export interface DateSettings {
  /** Epoch milliseconds of "now". */
  now: number;
  /** firstPossibleFutureDay(now): lastmods before it skip the exact future check. */
  safeDay: string;
}

/**
 * DATE-004, DATE-005 and XML-013 on one lastmod (of a page or of an index child). The parser
 * keeps only valid W3C datetimes, so the form can be told from the length and one character,
 * and only dates near or after today need a full parse: this runs once per entry.
 */
export function checkLastmod(
  value: string,
  position: Position,
  url: string,
  settings: DateSettings,
  report: Reporter,
): void {
  say(report, dateFormProblem(value, granularityOf(value)), position, url);
  // Compared in place, not sliced: this runs for every lastmod.
  if (!isBeforeDay(value, settings.safeDay)) {
    const parsed = parseW3cDate(value);
    if (parsed.ok) say(report, futureDateProblem(value, toEpochMillis(parsed.value), settings.now), position, url);
  }
  say(report, yandexValueProblem('lastmod', value), position, url);
}

function say(report: Reporter, found: RuleProblem | undefined, position: Position, url: string): void {
  if (found) report.at(found.code, found.message, position, url, found.severity);
}

/** Whether the value's first ten characters (its day) sort before `day`, as `value.slice(0, 10) < day`. */
function isBeforeDay(value: string, day: string): boolean {
  const length = Math.min(value.length, 10);
  for (let i = 0; i < length && i < day.length; i++) {
    const difference = value.charCodeAt(i) - day.charCodeAt(i);
    if (difference !== 0) return difference < 0;
  }
  return length < day.length;
}

/** The form of a valid W3C datetime: YYYY, YYYY-MM, YYYY-MM-DD, or a time with(out) seconds. */
function granularityOf(value: string): DateGranularity {
  if (value.length === 4) return 'year';
  if (value.length === 7) return 'month';
  if (value.length === 10) return 'day';
  if (value.length >= 17 && value[16] !== ':') return 'minute';
  if (value.length >= 20 && value[16] === ':') return value[19] === '.' ? 'fraction' : 'second';
  const parsed = parseW3cDate(value);
  return parsed.ok ? parsed.value.granularity : 'second';
}

/** The least number of dated entries before a shared day means anything. */
const STAMPING_MIN_ENTRIES = 20;
const STAMPING_SHARE = 0.9;

/** Distinct days counted per document (27 years of days), which bounds the detector's memory. */
const STAMPING_MAX_DAYS = 10_000;

/**
 * DATE-006: when nearly every lastmod falls on one day, the dates were most likely written when
 * the sitemap was built rather than when each page changed. Memory: one counter per distinct day,
 * for the first 10,000 days met (a day first met after them is not counted: DATE-006 may then be
 * missed, but never reported wrongly).
 */
export class StampingDetector {
  /** By day as the number YYYYMMDD (no string per entry): how many, and the first one. */
  private readonly days = new Map<number, { count: number; first: Position; url: string }>();
  private dated = 0;

  record(lastmod: string, position: Position, url: string): void {
    // Year or month alone names no day: such values cannot show one shared build day.
    if (lastmod.length < 10) return;
    this.dated++;
    const day = digitsOf(lastmod, 0, 4) * 10_000 + digitsOf(lastmod, 5, 7) * 100 + digitsOf(lastmod, 8, 10);
    const seen = this.days.get(day);
    if (seen) seen.count++;
    else if (this.days.size < STAMPING_MAX_DAYS)
      this.days.set(day, { count: 1, first: { line: position.line, column: position.column }, url: detach(url) });
  }

  finish(report: Reporter): void {
    if (this.dated < STAMPING_MIN_ENTRIES) return;
    for (const [day, { count, first, url }] of this.days) {
      if (count >= this.dated * STAMPING_SHARE) {
        const share = Math.round((count / this.dated) * 100);
        const date = `${Math.floor(day / 10_000)}-${String(Math.floor(day / 100) % 100).padStart(2, '0')}-${String(day % 100).padStart(2, '0')}`;
        report.at(
          'DATE-006',
          `${count} of ${this.dated} lastmod values (${share}%) fall on ${date}, which looks like the time the sitemap was built; write each page's last significant change instead, or leave lastmod out`,
          first,
          url,
        );
        return;
      }
    }
  }
}

function digitsOf(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}
