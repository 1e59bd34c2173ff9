/** `changefreq` (FREQ-001) and `priority` (PRIO-001), the two enumerated fields of a `<url>`. */
import { CHANGEFREQS, isChangefreq, type Changefreq } from '../entry.js';
import { accepted, problem, refused, shown, type Checked } from './problem.js';

/**
 * One of always, hourly, daily, weekly, monthly, yearly, never. The schema is case-sensitive:
 * `Daily` is read as `daily`, with FREQ-001 for the text.
 */
export function readChangefreq(text: string): Checked<Changefreq> {
  const value = text.trim();
  if (isChangefreq(value)) return accepted(value);
  const lower = value.toLowerCase();
  if (isChangefreq(lower))
    return accepted(lower, [problem('FREQ-001', `changefreq is case-sensitive: ${shown(value)} should be "${lower}"`)]);
  return refused(problem('FREQ-001', `${shown(value)} is not a changefreq (${CHANGEFREQS.join(', ')})`));
}

/** A decimal written without exponent or sign other than "+" ("0.5", ".5", "1.", "+0.3"). */
const PRIORITY_TEXT = /^\+?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A decimal from 0.0 to 1.0, given as text ("0.8"; "0,8", "80%" and "10" are refused) or as a
 * number whose decimal form needs no exponent (5e-324 cannot be written as the schema's decimal).
 */
export function readPriority(value: string | number): Checked<number> {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const number = PRIORITY_TEXT.test(text) ? decimalNumber(text) : NaN;
  if (number >= 0 && number <= 1) return accepted(number);
  const given = typeof value === 'number' ? String(value) : shown(value);
  return refused(problem('PRIO-001', `priority must be a decimal from 0.0 to 1.0, not ${given}`));
}

/** Digits beyond which a decimal's integer could pass 2^53 (and 10^n stop being exact). */
const EXACT_DIGITS = 15;

/**
 * The number a decimal's text (as PRIORITY_TEXT admits it) stands for, as Number() reads it:
 * its digits as an integer over a power of ten, both exact, whose quotient IEEE division rounds
 * correctly, as Number() does. Nearly three times faster than Number()'s general conversion,
 * which the parser's fast path paid for every priority; a text of more digits goes to Number().
 */
export function decimalNumber(text: string): number {
  let digits = 0;
  let scale = 1;
  let fraction = false;
  let count = 0;
  for (let i = text.charCodeAt(0) === 0x2b /* + */ ? 1 : 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e /* . */) {
      fraction = true;
      continue;
    }
    if (++count > EXACT_DIGITS) return Number(text);
    digits = digits * 10 + (c - 0x30);
    if (fraction) scale *= 10;
  }
  return digits / scale;
}
