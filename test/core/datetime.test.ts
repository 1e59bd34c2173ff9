import { test } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatSitemapDate,
  parseW3cDate,
  toEpochMillis,
  formatUtcDateTime,
  pageDateMillis,
  pageLastmod,
  W3C_DATE_IN_RANGE,
} from '../../src/core/datetime.js';
import { CONFORMANCE_DIR } from '../helpers/paths.js';

test('all six W3C granularities parse', () => {
  const cases: [string, string][] = [
    ['2024', 'year'],
    ['2024-05', 'month'],
    ['2024-05-01', 'day'],
    ['2024-05-01T10:30Z', 'minute'],
    ['2024-05-01T10:30:15+02:00', 'second'],
    ['2024-05-01T10:30:15.123456-05:30', 'fraction'],
  ];
  for (const [text, granularity] of cases) {
    const parsed = parseW3cDate(text);
    assert.ok(parsed.ok, text);
    assert.equal(parsed.value.granularity, granularity, text);
  }
});

test('invalid forms are named by their rule', () => {
  const expectations: [string, string][] = [
    ['21/05/2026', 'DATE-001'],
    ['2009-10-5', 'DATE-001'],
    ['2024-05-01 10:00:00Z', 'DATE-001'],
    ['2024-05-01T10:00:00', 'DATE-002'],
    ['2023-02-29', 'DATE-003'],
    ['2024-13-01', 'DATE-003'],
    ['2024-05-01T24:00:00Z', 'DATE-003'],
    ['2024-05-01T10:00:00+15:00', 'DATE-003'],
  ];
  for (const [text, code] of expectations) {
    const parsed = parseW3cDate(text);
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.equal(parsed.problem.code, code, text);
  }
  assert.ok(parseW3cDate('2024-02-29').ok, 'leap day of a leap year');
  assert.ok(parseW3cDate('2000-02-29').ok, 'leap day of a 400-year');
  assert.equal(parseW3cDate('1900-02-29').ok, false, '1900 is not a leap year');
});

test('generators write YYYY-MM-DD or a full date-time with seconds and zone', () => {
  const normalised = (text: string) => {
    const result = parseW3cDate(text.trim());
    assert.ok(result.ok, text);
    return formatSitemapDate(result.value);
  };
  assert.equal(normalised('2024'), '2024-01-01');
  assert.equal(normalised('2024-05'), '2024-05-01');
  assert.equal(normalised(' 2024-05-01 '), '2024-05-01');
  assert.equal(normalised('2024-05-01T10:30Z'), '2024-05-01T10:30:00Z');
  assert.equal(normalised('2024-05-01T10:30:15.999+02:00'), '2024-05-01T10:30:15+02:00');
  const parsed = parseW3cDate('2024-05-01T10:30:15-04:00');
  assert.ok(parsed.ok);
  assert.equal(formatSitemapDate(parsed.value), '2024-05-01T10:30:15-04:00');
});

test('instants account for the zone', () => {
  const a = parseW3cDate('2024-05-01T12:00:00+02:00');
  const b = parseW3cDate('2024-05-01T10:00:00Z');
  assert.ok(a.ok && b.ok);
  assert.equal(toEpochMillis(a.value), toEpochMillis(b.value));
  assert.equal(formatUtcDateTime(new Date(toEpochMillis(b.value))), '2024-05-01T10:00:00Z');
});

test("crawler-commons' date table: same instants, and rejects what it rejects", () => {
  const table = JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'extras/crawler-commons-dates.json'), 'utf8')) as {
    w3c_datetime: { input: string | null; utc?: string | null; utc_date?: string; same_instant_as?: string }[];
  };
  assert.ok(table.w3c_datetime.length >= 10);
  for (const row of table.w3c_datetime) {
    if (row.input === null) continue;
    const parsed = parseW3cDate(row.input);
    if (row.utc === null) {
      assert.equal(parsed.ok, false, row.input);
      continue;
    }
    assert.ok(parsed.ok, row.input);
    const instant = new Date(toEpochMillis(parsed.value)).toISOString();
    if (row.utc_date) assert.equal(instant.slice(0, 10), row.utc_date, row.input);
    if (row.utc) assert.equal(Date.parse(instant), Date.parse(row.utc), row.input);
    if (row.same_instant_as) {
      const other = parseW3cDate(row.same_instant_as);
      assert.ok(other.ok);
      assert.equal(toEpochMillis(other.value), toEpochMillis(parsed.value));
    }
  }
});

test('W3C_DATE_IN_RANGE: what it matches parses, days past 28 aside; every valid date with a day up to 28 matches', () => {
  const inRange = new RegExp(`^(?:${W3C_DATE_IN_RANGE})$`);
  // Mostly near the ranges of months, days, hours and minutes, so that valid dates are common.
  const twoDigits = fc
    .oneof(fc.integer({ min: 0, max: 31 }), fc.integer({ min: 0, max: 99 }))
    .map((n) => String(n).padStart(2, '0'));
  const date = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
      twoDigits,
      twoDigits,
      fc.option(fc.tuple(twoDigits, twoDigits, fc.option(twoDigits), fc.option(fc.stringMatching(/^\d{1,4}$/)))),
      fc.option(
        fc.oneof(
          fc.constant('Z'),
          fc.tuple(fc.constantFrom('+', '-'), twoDigits, twoDigits).map(([sign, h, m]) => `${sign}${h}:${m}`),
        ),
      ),
      fc.integer({ min: 1, max: 3 }),
    )
    .map(([year, month, day, time, zone, parts]) => {
      if (parts === 1) return year;
      if (parts === 2) return `${year}-${month}`;
      const clock =
        time === null
          ? ''
          : `T${time[0]}:${time[1]}${time[2] === null ? '' : `:${time[2]}${time[3] === null ? '' : `.${time[3]}`}`}`;
      return `${year}-${month}-${day}${clock}${clock === '' ? '' : (zone ?? '')}`;
    });
  fc.assert(
    fc.property(date, (text) => {
      const valid = parseW3cDate(text).ok;
      const pastDay28 = text.length >= 10 && Number(text.slice(8, 10)) > 28;
      if (inRange.test(text) && !pastDay28) assert.ok(valid, `${text} matches but does not parse`);
      if (valid && !pastDay28) assert.ok(inRange.test(text), `${text} parses but does not match`);
      const parsed = parseW3cDate(text);
      if (inRange.test(text) && !parsed.ok)
        assert.ok(pastDay28 && parsed.problem.code === 'DATE-003', `${text} matches but is ${parsed.problem.code}`);
    }),
    { numRuns: 5000 },
  );
  // The edges, which random digits seldom hit: matched exactly when valid.
  const edges = [
    '2024-01-01T00:00+14:00',
    '2024-01-01T00:00+14:01',
    '2024-01-01T00:00-13:59',
    '2024-01-01T00:00+15:00',
    '2024-01-01T23:59:59Z',
    '2024-01-01T24:00Z',
    '2024-01-01T10:60Z',
    '2024-01-01T10:00:60Z',
    '2024-00',
    '2024-12',
    '2024-13',
    '2024-01-00',
    '2024-01-01T10:00',
    '0000',
  ];
  for (const text of edges) assert.equal(inRange.test(text), parseW3cDate(text).ok, text);
});

test("a page's own date: W3C as written, another readable form in UTC, one rule for lastmod and comparison", () => {
  const cases: [string | undefined, string | undefined][] = [
    [' 2024-02-20 ', '2024-02-20'],
    ['2024-02-20T15:30:00+01:00', '2024-02-20T15:30:00+01:00'],
    ['Tue, 20 Feb 2024 15:30:00 GMT', '2024-02-20T15:30:00Z'],
    ['last Tuesday', undefined],
    [undefined, undefined],
  ];
  for (const [written, lastmod] of cases) {
    assert.equal(pageLastmod(written), lastmod, String(written));
    assert.equal(pageDateMillis(written), lastmod === undefined ? undefined : Date.parse(lastmod), String(written));
  }
});
