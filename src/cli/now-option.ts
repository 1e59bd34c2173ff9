/**
 * `--now DATE`: the clock a command judges dates by (future lastmods, news age), fixed for
 * reproducible output. Shared by `validate` and `audit`.
 */
import { w3cToEpochMillis } from '../core/datetime.js';
import { UsageError, stringFlag, type ParsedArgs } from './command.js';

/** The --now flag as a Date, or undefined when it is not given; a bad value is a usage error. */
export function readNow(args: ParsedArgs): Date | undefined {
  const text = stringFlag(args, 'now');
  if (text === undefined) return undefined;
  const millis = w3cToEpochMillis(text) ?? (/^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN);
  if (Number.isNaN(millis))
    throw new UsageError(`--now must be an ISO date or datetime such as 2024-05-01T12:00:00Z, not "${text}"`);
  return new Date(millis);
}
