/**
 * A double-ended queue on a ring buffer: push and shift in O(1) at any length (an array's shift
 * moves every element, which a 50,000-child index would pay on every start), and unshift for
 * the tasks that go to the head of the line (a retry that is due).
 */
export class Deque<T> {
  private items: (T | undefined)[] = new Array<T | undefined>(16);
  private head = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(item: T): void {
    this.growIfFull();
    this.items[(this.head + this.count) & (this.items.length - 1)] = item;
    this.count += 1;
  }

  unshift(item: T): void {
    this.growIfFull();
    this.head = (this.head - 1) & (this.items.length - 1);
    this.items[this.head] = item;
    this.count += 1;
  }

  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.count -= 1;
    return item;
  }

  clear(): void {
    this.items = new Array<T | undefined>(16);
    this.head = 0;
    this.count = 0;
  }

  /** Doubles the ring (its length stays a power of two, so `& (length - 1)` wraps an index). */
  private growIfFull(): void {
    if (this.count < this.items.length) return;
    const larger = new Array<T | undefined>(this.items.length * 2);
    for (let i = 0; i < this.count; i++) larger[i] = this.items[(this.head + i) & (this.items.length - 1)];
    this.items = larger;
    this.head = 0;
  }
}
