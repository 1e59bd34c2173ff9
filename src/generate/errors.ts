import { LIMITS, type Diagnostic } from '../core/index.js';

/** Thrown when the run cannot complete; nothing has been published. */
export class GenerateError extends Error {
  constructor(
    message: string,
    readonly diagnostic?: Diagnostic,
  ) {
    super(message);
    this.name = 'GenerateError';
  }
}

/** One entry does not fit in a document of `maxBytes`, however empty. */
export function entryTooLarge(maxBytes: number, loc: string): GenerateError {
  return new GenerateError(
    `the byte limit (--max-bytes) of ${maxBytes} is too small for one entry (${loc}) with the document's opening and closing tags`,
  );
}

/** The entries need more files than one index may list, or than `maxFiles` allows. */
export function tooManyFiles(maxFiles: number): GenerateError {
  const why =
    maxFiles === LIMITS.maxSitemapsPerIndex
      ? 'the most one index may list (indexes cannot be nested)'
      : 'the maxFiles option';
  return new GenerateError(
    `the input needs more than ${maxFiles.toLocaleString('en-US')} sitemap files, ${why}; raise --max-urls / --max-bytes or split the input over several --out directories`,
  );
}
