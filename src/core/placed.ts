/**
 * "A value with where it was read": the one shape every reader hands on, so that a problem found
 * later (by the generator, the validator, a report) can name the file and line it came from.
 */
import type { Diagnostic } from './diagnostics.js';
import type { Position } from './position.js';

/**
 * Where a value was read: its source (a file path, "-" for standard input, or a URL) and, when
 * known, the line and column there (1-based, as {@link Position} counts them).
 */
export interface Place extends Partial<Position> {
  source?: string;
}

/** A value (an entry, a URL) with the place it was read from. */
export interface Placed<E> extends Place {
  entry: E;
}

/**
 * A problem a reader found before there was a value to place (a line that is no URL), handed on
 * in the same stream as the placed values; the diagnostic names its own place.
 */
export interface PlacedProblem {
  problem: Diagnostic;
}
