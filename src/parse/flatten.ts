/**
 * Hands out the items of batches one by one. Items already read are returned without a trip
 * through an async generator per item (the hot path); returning early closes the source.
 */
export class Flatten<B, T> implements AsyncIterableIterator<T> {
  private batch: B[] = [];
  private index = 0;
  private closed = false;

  constructor(
    private readonly source: AsyncGenerator<B[]>,
    private readonly admit: (item: B) => boolean,
    private readonly map: (item: B) => T,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.index < this.batch.length) {
      const item = this.batch[this.index++]!;
      let admitted: boolean;
      try {
        admitted = this.admit(item);
      } catch (error) {
        return this.return().then(() => Promise.reject(error));
      }
      return admitted ? Promise.resolve({ value: this.map(item), done: false }) : this.return();
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
