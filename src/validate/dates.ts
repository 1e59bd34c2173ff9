/**
 * Rules on `lastmod` values the parser kept (RULES.md §4; syntax DATE-001..003 is the parser's):
 * forms the XSD rejects (DATE-004), dates in the future (DATE-005), values over Yandex's 100 bytes
 * (XML-013), and build-time stamping across the whole file (DATE-006).
 */
import { parseW3cDate, toEpochMillis, type DateGranularity } from '../core/datetime.js';
import { LIMITS } from '../core/limits.js';
import type { Position } from '../parse/types.js';
import { quote, type Reporter } from './reporter.js';

const DAY_MS = 86_400_000;

const XSD_REJECTED_FORMS: Partial<Record<DateGranularity, string>> = {
  year: 'a year alone',
  month: 'a year and month alone',
  minute: 'a time without seconds',
};

export interface DateSettings {
  /** Epoch milliseconds of "now". */
  now: number;
}

/** DATE-004, DATE-005 and XML-013 on one lastmod (of a page or of an index child). */
export function checkLastmod(value: string, position: Position, url: string, settings: DateSettings, report: Reporter): void {
  const parsed = parseW3cDate(value);
  if (!parsed.ok) return; // the parser reports and drops invalid dates; nothing else to say
  const form = XSD_REJECTED_FORMS[parsed.value.granularity];
  if (form) {
    report.at('DATE-004', `lastmod ${quote(value)} is ${form}: valid W3C, but the sitemap schema and Search Console expect YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm`, position, url);
  }
  const instant = toEpochMillis(parsed.value);
  if (instant > settings.now + DAY_MS) {
    report.at('DATE-005', `lastmod ${quote(value)} is in the future; write the date the page last changed (Bing may reject future dates)`, position, url);
  }
  const bytes = Buffer.byteLength(value);
  if (bytes > LIMITS.yandexMaxValueBytes) {
    report.at('XML-013', `lastmod is ${bytes} bytes long; Yandex rejects values over ${LIMITS.yandexMaxValueBytes} bytes: drop the extra fraction digits`, position, url);
  }
}

/** The least number of dated entries before a shared day means anything. */
const STAMPING_MIN_ENTRIES = 20;
const STAMPING_SHARE = 0.9;

/**
 * DATE-006: when nearly every lastmod falls on one day, the dates were most likely written when
 * the sitemap was built rather than when each page changed. Memory: one counter per distinct day.
 */
export class StampingDetector {
  private readonly days = new Map<string, { count: number; first: Position; url: string }>();
  private dated = 0;

  record(lastmod: string, position: Position, url: string): void {
    this.dated++;
    const day = lastmod.slice(0, 10);
    const seen = this.days.get(day);
    if (seen) seen.count++;
    else this.days.set(day, { count: 1, first: position, url });
  }

  finish(report: Reporter): void {
    if (this.dated < STAMPING_MIN_ENTRIES) return;
    for (const [day, { count, first, url }] of this.days) {
      if (count >= this.dated * STAMPING_SHARE && day.length === 10) {
        const share = Math.round((count / this.dated) * 100);
        report.at('DATE-006', `${count} of ${this.dated} lastmod values (${share}%) fall on ${day}, which looks like the time the sitemap was built; write each page's last significant change instead, or leave lastmod out`, first, url);
        return;
      }
    }
  }
}
