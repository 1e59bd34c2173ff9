/**
 * `lastmod` from the `Last-Modified` header: the IMF-fixdate becomes
 * `YYYY-MM-DDThh:mm:ssZ`. A date in the future, or equal to the moment of the fetch (a server
 * that stamps every response with "now"), says nothing about the page and is dropped.
 */
import { formatUtcDateTime } from '../core/datetime.js';

const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Two stamps within the same second count as equal: HTTP dates have whole seconds. */
const SAME_SECOND_MS = 1000;

/**
 * @param fetchedAtMs our clock when the response arrived
 * @param serverDate the response's `Date` header: a Last-Modified equal to it is "now" too
 */
export function lastmodFromHeader(
  lastModified: string | undefined,
  fetchedAtMs: number,
  serverDate?: string,
): string | undefined {
  const ms = parseHttpDate(lastModified);
  if (ms === undefined) return undefined;
  if (ms > fetchedAtMs || fetchedAtMs - ms < SAME_SECOND_MS) return undefined;
  if (ms === parseHttpDate(serverDate)) return undefined;
  return formatUtcDateTime(new Date(ms));
}

/** Epoch milliseconds of an HTTP date; RFC 9110 asks recipients to read the obsolete forms too. */
function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!IMF_FIXDATE.test(text) && !/GMT$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
