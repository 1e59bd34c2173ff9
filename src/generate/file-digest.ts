/**
 * The digest of a sitemap file as it is on disk: SHA-256 of its document (uncompressed when it is
 * gzipped), as ShardFile digests what it writes. An earlier run's file is kept only when it
 * still holds exactly that document: a file of the right size with other bytes (zeros left by a
 * power cut, a hand edit) is written again.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/** The SHA-256 (hex) of the document in the file at `path`, or undefined when it cannot be read (or is not gzip, when `gzip`). */
export async function documentDigestOf(path: string, gzip: boolean): Promise<string | undefined> {
  const hash = createHash('sha256');
  const digest = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) hash.update(chunk);
  };
  try {
    if (gzip) await pipeline(createReadStream(path), createGunzip(), digest);
    else await pipeline(createReadStream(path), digest);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}
