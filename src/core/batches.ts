/**
 * The one batching convention: values gathered into arrays of at most N, handed on when full
 * and once more at the end (never an empty batch). `batches` for a stream read by a loop,
 * `Batcher` for values pushed one by one (a store's writes, a request's URLs).
 */

/** The source's values in arrays of `size` (the last one shorter); nothing when it is empty. */
export async function* batches<T>(source: AsyncIterable<T> | Iterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const value of source) {
    batch.push(value);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Gathers pushed values and hands them to `write` as one array when `size` are waiting, and on
 * `flush()` (the end of the stream, or a timer of the caller's). `write` may be asynchronous:
 * `add` and `flush` then return its promise, to be awaited before the next value.
 */
export class Batcher<T, R extends void | Promise<void> = void> {
  private waiting: T[] = [];

  constructor(
    private readonly size: number,
    private readonly write: (batch: T[]) => R,
  ) {}

  /** How many values wait for the next write. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Adds a value; writes the batch when it is full. */
  add(value: T): R | undefined {
    this.waiting.push(value);
    return this.waiting.length >= this.size ? this.flush() : undefined;
  }

  /** Writes what waits, if anything. */
  flush(): R | undefined {
    if (this.waiting.length === 0) return undefined;
    const batch = this.waiting;
    this.waiting = [];
    return this.write(batch);
  }

  /** Takes what waits without writing it (for values that are not to be written after all). */
  drop(): T[] {
    const batch = this.waiting;
    this.waiting = [];
    return batch;
  }
}
