/**
 * What the crawl visits next, read from the store a batch at a time: the URLs queued in the
 * frontier, in the order they were found; and, when none is queued, the URLs set aside after a
 * failure that may pass, for their one more try. The crawl keeps only a few of them in the work
 * pool at a time (it queues more as workers free up), so memory stays flat however large the
 * frontier.
 */
import type { CrawlStore, QueuedUrl } from '../store/crawl-store.js';

export class Frontier {
  private readonly queued: StoreCursor<QueuedUrl>;
  private readonly setAside: StoreCursor<QueuedUrl>;

  constructor(store: CrawlStore) {
    this.queued = new StoreCursor((after, limit) => store.nextQueued(after, limit));
    this.setAside = new StoreCursor((after, limit) => store.nextRetry(after, limit));
  }

  /** The next queued URL, oldest first. */
  takeQueued(): QueuedUrl | undefined {
    return this.queued.take();
  }

  /** The next URL set aside for one more try, in seq order from where the last sweep stands. */
  takeSetAside(): QueuedUrl | undefined {
    return this.setAside.take();
  }

  /**
   * Sweeps the URLs set aside from the first again: one set aside behind the sweep (found early,
   * failed late) is met on the next. Call it only while none of them is in flight, or one would
   * be handed out twice.
   */
  sweepSetAsideAgain(): void {
    this.setAside.restart();
  }
}

/** Hands out rows of the store in seq order, a batch at a time, from a cursor. */
class StoreCursor<T extends { seq: number }> {
  private buffer: T[] = [];
  private next = 0;
  private cursor = 0;

  /** @param read up to `limit` rows after seq `after`, in seq order */
  constructor(private readonly read: (after: number, limit: number) => T[]) {}

  take(): T | undefined {
    if (this.next === this.buffer.length) {
      this.buffer = this.read(this.cursor, 256);
      this.next = 0;
      const last = this.buffer.at(-1);
      if (last === undefined) return undefined;
      this.cursor = last.seq;
    }
    return this.buffer[this.next++];
  }

  /** Reads from the first row again. */
  restart(): void {
    this.buffer = [];
    this.next = 0;
    this.cursor = 0;
  }
}
