/**
 * A file written a line at a time, waiting when the disk falls behind, so reports of any size
 * stream to disk in flat memory. A failure to write (a full disk) surfaces at the next write or
 * at close, never silently.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface LineFile {
  /** Writes `line` and a newline; resolves once the stream can take more. */
  write(line: string): Promise<void>;
  /** Ends the file; resolves once it is all on disk (again and again: closing twice is harmless). */
  close(): Promise<void>;
}

/** Creates (or replaces) the file at `path`, making its folder if needed. */
export function openLineFile(path: string): LineFile {
  mkdirSync(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => {});
  let closed: Promise<void> | undefined;
  return {
    async write(line) {
      if (!out.write(`${line}\n`)) await Promise.race([once(out, 'drain'), failed]);
    },
    close() {
      closed ??= Promise.race([once(out, 'finish').then(() => undefined), failed]);
      out.end();
      return closed;
    },
  };
}
