/**
 * The pages of build directories left out of the sitemaps, counted by reason, with the first few
 * of each reason kept as examples: a site with 10,000 noindex tag pages costs a count, not a list.
 */
import type { LeftOutPage, LeftOutPageReason } from './site-directory.js';

/** The pages of one reason left out: how many, and the first few. */
export interface LeftOutGroup {
  reason: LeftOutPageReason;
  count: number;
  /** The first pages left out for the reason, in the order met. */
  examples: { path: string; detail: string }[];
}

export class LeftOutPages {
  private readonly groups = new Map<LeftOutPageReason, LeftOutGroup>();

  /** `examplesPerReason`: pages kept for each reason (0 keeps every one). */
  constructor(readonly examplesPerReason = 20) {}

  readonly add = ({ path, reason, detail }: LeftOutPage): void => {
    let group = this.groups.get(reason);
    if (!group) this.groups.set(reason, (group = { reason, count: 0, examples: [] }));
    group.count++;
    if (this.examplesPerReason === 0 || group.examples.length < this.examplesPerReason)
      group.examples.push({ path, detail });
  };

  get total(): number {
    let total = 0;
    for (const group of this.groups.values()) total += group.count;
    return total;
  }

  /** Every reason met, in the order first met. */
  byReason(): LeftOutGroup[] {
    return [...this.groups.values()];
  }
}
