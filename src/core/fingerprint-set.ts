import { fingerprint } from './fingerprint.js';

/**
 * Remembers which URLs were already written, in 8 bytes per URL instead of a whole string:
 * a 64-bit fingerprint (core/fingerprint.ts) in an open-addressing table.
 * Both halves of a fingerprint sit side by side in one typed array, so a lookup touches one
 * cache line. Two different URLs share a fingerprint with a probability of about n²/2⁶⁵
 * (3 in a million at 10 million URLs).
 */
export class FingerprintSet {
  /** Slot i holds [high, low] at 2i, 2i+1; low is never 0 in a used slot. */
  private table: Uint32Array;
  private mask: number;
  private count = 0;
  /** The fingerprint of the text being added (one array, reused). */
  private readonly scratch = new Uint32Array(2);

  constructor(initialCapacity = 1 << 16) {
    const capacity = 1 << Math.ceil(Math.log2(Math.max(initialCapacity, 16)));
    this.table = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the text; false when it was there already. */
  add(text: string): boolean {
    fingerprint(text, this.scratch);
    if (!this.insert(this.scratch[0]! >>> 0, this.scratch[1]! >>> 0)) return false;
    if (++this.count * 4 > (this.mask + 1) * 3) this.grow();
    return true;
  }

  /** True when the text was added (or another text sharing its fingerprint was). */
  has(text: string): boolean {
    fingerprint(text, this.scratch);
    const high = this.scratch[0]! >>> 0;
    const low = this.scratch[1]! >>> 0;
    const table = this.table;
    for (let slot = (high ^ low) & this.mask; ; slot = (slot + 1) & this.mask) {
      const storedLow = table[slot * 2 + 1]!;
      if (storedLow === 0) return false;
      if (storedLow === low && table[slot * 2] === high) return true;
    }
  }

  private insert(high: number, low: number): boolean {
    const table = this.table;
    let slot = (high ^ low) & this.mask;
    for (;;) {
      const at = slot * 2;
      const storedLow = table[at + 1]!;
      if (storedLow === 0) {
        table[at] = high;
        table[at + 1] = low;
        return true;
      }
      if (storedLow === low && table[at] === high) return false;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.mask = old.length - 1; // the new capacity (old.length / 2 slots, doubled) minus one
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] !== 0) this.insert(old[at]!, old[at + 1]!);
    }
  }
}
