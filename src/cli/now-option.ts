/**
 * `--now DATE`: the clock a command judges dates by (future lastmods, news age), fixed for
 * reproducible output. Shared by `generate`, `crawl`, `validate` and `audit`.
 */
import { w3cToEpochMillis } from '../core/datetime.js';
import { defineFlags } from './flags.js';
import { UsageError } from './usage-error.js';

/** `--now DATE` in the group of a command's own choosing. */
export function nowFlag(
  group: string,
  help = 'the present the entries are judged by (a lastmod in the future, a news article older than two days), e.g. 2024-05-01T12:00:00Z: reproducible output from dated examples and fixtures',
) {
  return defineFlags({
    now: {
      type: 'string',
      value: 'DATE',
      group,
      defaultText: 'the clock',
      help,
    },
  });
}

/** The --now flag as a Date, or undefined when it is not given; a bad value is a usage error. */
export function readNow(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const millis = w3cToEpochMillis(text) ?? (/^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN);
  if (Number.isNaN(millis))
    throw new UsageError(`--now must be an ISO date or datetime such as 2024-05-01T12:00:00Z, not "${text}"`);
  return new Date(millis);
}
