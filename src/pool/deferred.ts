/**
 * Tasks parked until a time (a retry's backoff, a Retry-After): a binary min-heap by that time,
 * so the pool finds the next one due in O(1) and parks or releases one in O(log n), however
 * many wait.
 */

export interface Parked<T> {
  item: T;
  notBefore: number;
}

export class DeferredHeap<T> {
  private readonly heap: Parked<T>[] = [];

  get size(): number {
    return this.heap.length;
  }

  /** When the earliest parked item is due, or undefined when none is parked. */
  get nextDue(): number | undefined {
    return this.heap[0]?.notBefore;
  }

  park(item: T, notBefore: number): void {
    const heap = this.heap;
    heap.push({ item, notBefore });
    let child = heap.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (heap[parent]!.notBefore <= notBefore) break;
      [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
      child = parent;
    }
  }

  /** Takes every item due at `now`, earliest first. */
  *takeDue(now: number): Generator<T> {
    while (this.heap.length > 0 && this.heap[0]!.notBefore <= now) yield this.pop();
  }

  clear(): void {
    this.heap.length = 0;
  }

  private pop(): T {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let parent = 0;
      for (;;) {
        const left = parent * 2 + 1;
        const right = left + 1;
        let smallest = parent;
        if (left < heap.length && heap[left]!.notBefore < heap[smallest]!.notBefore) smallest = left;
        if (right < heap.length && heap[right]!.notBefore < heap[smallest]!.notBefore) smallest = right;
        if (smallest === parent) break;
        [heap[parent], heap[smallest]] = [heap[smallest]!, heap[parent]!];
        parent = smallest;
      }
    }
    return top.item;
  }
}
