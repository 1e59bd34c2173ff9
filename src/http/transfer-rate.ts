/**
 * The minimum transfer rate: a body must bring at least `minBytesPerSecond` over every window of
 * `windowMs`. The idle timeout alone is reset by every byte, so a server sending one byte a
 * second would hold a request for ever; this ends it after one window. (Total silence is the
 * idle timeout's job: the rate is measured as bytes arrive.)
 */
import { HttpError } from './errors.js';
import { withBody, type Layer } from './types.js';

export interface TransferRate {
  minBytesPerSecond: number;
  windowMs: number;
}

export function minimumRate(rate: TransferRate, now: () => number = Date.now): Layer {
  return (next) => async (request) => {
    const response = await next(request);
    if (rate.minBytesPerSecond <= 0) return response;
    return withBody(response, paced(response.body, response.url, rate, now));
  };
}

async function* paced(
  body: AsyncIterable<Uint8Array>,
  url: string,
  rate: TransferRate,
  now: () => number,
): AsyncGenerator<Uint8Array> {
  let windowStart = now();
  let windowBytes = 0;
  for await (const chunk of body) {
    windowBytes += chunk.length;
    const elapsed = now() - windowStart;
    if (elapsed >= rate.windowMs) {
      const perSecond = (windowBytes * 1000) / elapsed;
      if (perSecond < rate.minBytesPerSecond) {
        throw new HttpError(
          'too-slow',
          `${url} sent ${windowBytes} bytes in ${(elapsed / 1000).toFixed(1)} s, slower than the minimum ${rate.minBytesPerSecond} bytes/s; reading stopped`,
          url,
        );
      }
      windowStart = now();
      windowBytes = 0;
    }
    yield chunk;
  }
}
