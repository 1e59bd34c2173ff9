/**
 * Work that shares the way with other work, and work that must go alone: a visit alone waits for
 * those under way to end, and none starts while it runs (a readers–writer lock, the writer first).
 * The crawl's last try of a page that keeps failing goes alone: a balancer failing every other
 * request cannot fail two tries in a row when no other request comes between them.
 */
export class Turns {
  private sharing = 0;
  /** Settled when the work going alone ends. */
  private alone: Promise<void> | undefined;
  private drained: (() => void) | undefined;

  async shared<T>(work: () => Promise<T>): Promise<T> {
    while (this.alone !== undefined) await this.alone;
    this.sharing += 1;
    try {
      return await work();
    } finally {
      this.sharing -= 1;
      if (this.sharing === 0) this.drained?.();
    }
  }

  async solo<T>(work: () => Promise<T>): Promise<T> {
    while (this.alone !== undefined) await this.alone;
    let end!: () => void;
    this.alone = new Promise((resolve) => (end = resolve));
    try {
      while (this.sharing > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return await work();
    } finally {
      this.drained = undefined;
      this.alone = undefined;
      end();
    }
  }
}
