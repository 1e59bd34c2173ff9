/**
 * The byte cap: reading stops after `request.maxBytes` decoded bytes, and `transfer.truncated`
 * says so. Nothing is buffered past the cap, so a gzip bomb or a body that never ends costs no
 * more than the cap. `transfer.bytes` counts what the reader was handed.
 */
import { withBody, type Layer, type Transfer } from './types.js';

export function byteCap(): Layer {
  return (next) => async (request) => {
    const response = await next(request);
    return withBody(response, capped(response.body, request.maxBytes, response.transfer));
  };
}

async function* capped(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  transfer: Transfer,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    const room = maxBytes - transfer.bytes;
    if (chunk.length > room) {
      if (room > 0) {
        transfer.bytes += room;
        yield chunk.subarray(0, room);
      }
      transfer.truncated = true;
      return;
    }
    transfer.bytes += chunk.length;
    yield chunk;
  }
}
