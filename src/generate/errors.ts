import type { Diagnostic } from '../core/index.js';

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
