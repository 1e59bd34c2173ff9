/**
 * Spacing between requests to the site (RULES.md CR-09): `--delay` and robots.txt's
 * `Crawl-delay`, whichever is longer. Request starts are handed out in slots at least `gapMs`
 * apart, however many workers ask at once.
 */
export class Politeness {
  private nextSlot = 0;

  constructor(readonly gapMs: number, private readonly now: () => number = Date.now) {}

  /** Resolves when the caller may send its request. */
  async wait(): Promise<void> {
    if (this.gapMs <= 0) return;
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.gapMs;
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
  }
}
