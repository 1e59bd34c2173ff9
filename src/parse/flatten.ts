/** What decides on each item of a batch: whether it goes out at all, and as what. */
export interface FlattenHandler<B, T> {
  /** False stops the iteration (the source is closed). */
  admit(item: B): boolean;
  output(item: B): T;
}

/**
 * Hands out the items of batches one by one. Items already read are returned without a trip
 * through an async generator per item (the hot path); returning early closes the source. The
 * handler is an object (not two closures) so that its methods stay the same calls from one
 * source to the next.
 */
export class Flatten<B, T> implements AsyncIterableIterator<T> {
  private batch: B[] = [];
  private index = 0;
  private closed = false;

  constructor(
    private readonly source: AsyncGenerator<B[]>,
    private readonly handler: FlattenHandler<B, T>,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.index < this.batch.length) {
      const item = this.batch[this.index++]!;
      let admitted: boolean;
      try {
        admitted = this.handler.admit(item);
      } catch (error) {
        return this.return().then(() => {
          throw error;
        });
      }
      return admitted ? Promise.resolve({ value: this.handler.output(item), done: false }) : this.return();
    }
    return this.pull();
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.closed) {
      this.closed = true;
      this.batch = [];
      await this.source.return(undefined);
    }
    return { value: undefined, done: true };
  }

  private async pull(): Promise<IteratorResult<T>> {
    while (!this.closed) {
      const result = await this.source.next();
      if (result.done) {
        this.closed = true;
        break;
      }
      this.batch = result.value;
      this.index = 0;
      if (this.batch.length > 0) return this.next();
    }
    return { value: undefined, done: true };
  }
}
