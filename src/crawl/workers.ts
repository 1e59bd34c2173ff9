/**
 * The crawler's scheduling, kept apart from what a visit does so that the shared work pool can
 * take its place: `concurrency` workers take items from `next` and visit each. When `next` has
 * nothing while visits are running, a worker waits for one to end (it may have queued more).
 */

/**
 * Visits items until `next` has none and no visit is running, or until `signal` aborts (visits
 * in flight are finished first).
 */
export async function runWorkers<T>(
  concurrency: number,
  next: () => T | undefined,
  visit: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let running = 0;
  let waiting: (() => void)[] = [];
  const wakeAll = () => {
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };
  const work = async (): Promise<void> => {
    for (;;) {
      if (signal?.aborted) return;
      const item = next();
      if (item !== undefined) {
        running += 1;
        try {
          await visit(item);
        } finally {
          running -= 1;
          wakeAll();
        }
        continue;
      }
      if (running === 0) {
        wakeAll();
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, work));
}

/** Hands out rows of the store in seq order, a batch at a time, from a cursor. */
export class StoreCursor<T extends { seq: number }> {
  private buffer: T[] = [];
  private cursor = 0;

  /** @param read up to `limit` rows after seq `after`, in seq order */
  constructor(private readonly read: (after: number, limit: number) => T[]) {}

  take(): T | undefined {
    if (this.buffer.length === 0) {
      this.buffer = this.read(this.cursor, 256);
      const last = this.buffer.at(-1);
      if (last !== undefined) this.cursor = last.seq;
    }
    return this.buffer.shift();
  }

  /** Reads from the first row again. */
  restart(): void {
    this.buffer = [];
    this.cursor = 0;
  }
}
