/**
 * Date fields: `lastmod` (docs/rules.md), a news article's publication date (NEWS-003, NEWS-004)
 * and a video's publication and expiration dates (VID-010). All are W3C datetimes (DATE-001..003);
 * each field adds its own rules on top. Rules that compare with the present take `now` (epoch
 * milliseconds): the rule layer has no clock of its own.
 */
import { parseW3cDate, toEpochMillis, type DateGranularity, type W3cDate } from '../datetime.js';
import { LIMITS } from '../limits.js';
import { accepted, problem, refused, shown, type Checked, type RuleProblem } from './problem.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A W3C datetime (DATE-001 not one of the six forms, DATE-002 a time without a zone, DATE-003 not on the calendar). */
export function readW3cDate(text: string): Checked<W3cDate> {
  const parsed = parseW3cDate(text.trim());
  return parsed.ok ? accepted(parsed.value) : refused(parsed.problem);
}

// ── lastmod ────────────────────────────────────────────────────────────────────────────────────

const XSD_REJECTED_FORMS: Partial<Record<DateGranularity, string>> = {
  year: 'a year alone',
  month: 'a year and month alone',
  minute: 'a time without seconds',
};

/** DATE-004: a valid W3C form that the sitemap schema and Search Console do not take. */
export function dateFormProblem(text: string, granularity: DateGranularity): RuleProblem | undefined {
  const form = XSD_REJECTED_FORMS[granularity];
  if (form === undefined) return undefined;
  return problem(
    'DATE-004',
    `lastmod ${shown(text)} is ${form}: valid W3C, but the sitemap schema and Search Console expect YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm`,
  );
}

/**
 * DATE-005: more than a day ahead of `now` (a day of slack covers every time zone). A page cannot
 * have changed in the future, and Bing may reject such dates.
 */
export function futureDateProblem(text: string, millis: number, now: number): RuleProblem | undefined {
  if (millis <= now + DAY_MS) return undefined;
  return problem(
    'DATE-005',
    `lastmod ${shown(text)} is in the future; write the date the page last changed (Bing may reject future dates)`,
  );
}

/**
 * DATE-008: the page says it changed (`changedMillis`, read from `how`: its Last-Modified header,
 * its article:modified_time, its JSON-LD dateModified) more than a day after its lastmod; a day of
 * slack covers a date-only lastmod and every time zone.
 */
export function staleLastmodProblem(
  lastmod: string,
  lastmodMillis: number,
  changedMillis: number,
  how: string,
): RuleProblem | undefined {
  if (changedMillis <= lastmodMillis + DAY_MS) return undefined;
  const changed = new Date(changedMillis).toISOString().replace(/\.000Z$/, 'Z');
  return problem(
    'DATE-008',
    `the page says it changed on ${changed} (${how}), after lastmod ${shown(lastmod)}; write the page's last change as its lastmod`,
  );
}

/** The earliest day (YYYY-MM-DD, UTC) a lastmod must reach to be in the future: earlier days need no exact check. */
export function firstPossibleFutureDay(now: number): string {
  return new Date(now - DAY_MS).toISOString().slice(0, 10);
}

/** XML-013: Yandex rejects values over 100 bytes (a valid W3C datetime is ASCII: its length is its size). */
export function yandexValueProblem(field: string, text: string): RuleProblem | undefined {
  if (text.length <= LIMITS.yandexMaxValueBytes) return undefined;
  return problem(
    'XML-013',
    `${field} is ${text.length} bytes long; Yandex rejects values over ${LIMITS.yandexMaxValueBytes} bytes: drop the extra fraction digits`,
  );
}

// ── dates of the extensions ──────────────────────────────────────────────────────────────────────

/**
 * A date of the news and video extensions: a complete date (YYYY-MM-DD), or a date-time with a
 * zone; a year or a month alone names no day (Google's references and the schemas want one).
 * `code` is the field's rule (NEWS-004, VID-010).
 */
export function readCompleteDate(text: string, field: string, code: string): Checked<W3cDate> {
  const parsed = parseW3cDate(text.trim());
  if (!parsed.ok) return refused(problem(code, `${field}: ${parsed.problem.message}`));
  const { granularity } = parsed.value;
  if (granularity === 'year' || granularity === 'month') {
    return refused(
      problem(code, `${field} ${shown(text)} is not a complete date; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm`),
    );
  }
  return accepted(parsed.value);
}

/** NEWS-003: an article published more than 48 hours before `now`. */
export function newsAgeProblem(date: W3cDate, now: number): RuleProblem | undefined {
  const ageHours = (now - toEpochMillis(date)) / HOUR_MS;
  if (ageHours <= LIMITS.newsMaxAgeHours) return undefined;
  const age = ageHours < 72 ? `${Math.floor(ageHours)} hours` : `${Math.floor(ageHours / 24)} days`;
  return problem(
    'NEWS-003',
    `the article was published ${age} ago; news sitemaps should list only articles from the last ${LIMITS.newsMaxAgeHours} hours: remove the URL or its <news:news> block`,
  );
}
