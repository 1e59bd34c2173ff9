/**
 * A bounded hand-over from many producers to one consumer, as an AsyncIterable. Producers wait
 * while `capacity` items are unread, so memory stays flat however much the producers could read;
 * the consumer takes whatever is buffered in one batch.
 */
export class Channel<T> implements AsyncIterable<T> {
  private buffer: T[] = [];
  private closed = false;
  private cancelled = false;
  private failure: unknown;
  private wakeConsumer: (() => void) | undefined;
  private waitingProducers: (() => void)[] = [];
  private iterated = false;

  /** `onCancel` runs when the consumer stops early (break, return or throw in its loop). */
  constructor(
    private readonly capacity: number,
    private readonly onCancel: () => void = () => {},
  ) {}

  /** Hands over an item; returns a promise to await only when the buffer is full. */
  push(item: T): Promise<void> | undefined {
    if (this.closed || this.cancelled) return undefined;
    this.buffer.push(item);
    this.wake();
    if (this.buffer.length < this.capacity) return undefined;
    return new Promise((resolve) => this.waitingProducers.push(resolve));
  }

  /** No more items; with an error, the consumer's loop throws it after the buffered items. */
  close(error?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.failure = error;
    this.wake();
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** The items in the batches they were buffered in: one await per batch instead of per item. */
  async *batches(): AsyncGenerator<T[]> {
    if (this.iterated) throw new Error('this stream of entries can be read only once');
    this.iterated = true;
    let finished = false;
    try {
      for (;;) {
        if (this.buffer.length > 0) {
          const batch = this.buffer;
          this.buffer = [];
          this.releaseProducers();
          yield batch;
          continue;
        }
        if (this.closed) {
          finished = true;
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the producer's failure, passed on as it came
          if (this.failure !== undefined) throw this.failure;
          return;
        }
        await new Promise<void>((resolve) => {
          this.wakeConsumer = resolve;
        });
      }
    } finally {
      if (!finished) {
        this.cancelled = true;
        this.buffer = [];
        this.releaseProducers();
        this.onCancel();
      }
    }
  }

  private wake(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = undefined;
    wake?.();
  }

  private releaseProducers(): void {
    const waiting = this.waitingProducers;
    this.waitingProducers = [];
    for (const resolve of waiting) resolve();
  }
}
