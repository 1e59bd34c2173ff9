/**
 * Content-Encoding undone (gzip, deflate, br), so readers see the document's own bytes. A body
 * that does not decode is a `content-encoding` failure, told apart from a broken connection.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { HttpError } from './errors.js';
import { withBody, type Layer } from './types.js';

export function decompress(): Layer {
  return (next) => async (request) => {
    const response = await next(request);
    const encoding = response.headers['content-encoding']?.trim().toLowerCase();
    if (!encoding || !decoderFor(encoding)) return response;
    return withBody(response, decoded(response.body, encoding, response.url));
  };
}

async function* decoded(body: AsyncIterable<Uint8Array>, encoding: string, url: string): AsyncGenerator<Uint8Array> {
  const decoder = decoderFor(encoding)!;
  // The pipeline's own promise is awaited below: a failure of the body or the decoder surfaces
  // in the loop, and a reader that stops early destroys both.
  const piping = pipeline(Readable.from(body, { objectMode: false }), decoder);
  piping.catch(() => {});
  try {
    for await (const chunk of decoder as AsyncIterable<Buffer>) yield chunk;
    await piping;
  } catch (error) {
    if (isZlibError(error))
      throw new HttpError(
        'content-encoding',
        `${url}: Content-Encoding ${encoding} does not decode: ${(error as Error).message}`,
        url,
      );
    throw error;
  } finally {
    decoder.destroy();
  }
}

function decoderFor(encoding: string) {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

function isZlibError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}
