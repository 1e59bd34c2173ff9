/**
 * A map from 64-bit fingerprints (core/fingerprint.ts) to small numbers, such as the index of a
 * record kept in a typed array: an open-addressing table of three words a slot, so a structure
 * that remembers a million URLs keeps no object and no string per URL for the garbage collector
 * to trace. Two different texts share a fingerprint with a probability of about n²/2⁶⁵.
 */

/** Words per slot: the fingerprint's high and low halves, then the value. */
const WORDS = 3;

export class FingerprintMap {
  /** low is never 0 in a used slot (fingerprint() sets its lowest bit). */
  private table = new Uint32Array(1024 * WORDS);
  private mask = 1023;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The value kept for the fingerprint, or -1. */
  get(high: number, low: number): number {
    const at = this.slotOf(high, low) * WORDS;
    return this.table[at + 1] === 0 ? -1 : this.table[at + 2]!;
  }

  /** Keeps `value` (an unsigned 32-bit number) for the fingerprint unless it has one: then answers that one, else -1. */
  putIfAbsent(high: number, low: number, value: number): number {
    const at = this.slotOf(high, low) * WORDS;
    const table = this.table;
    if (table[at + 1] !== 0) return table[at + 2]!;
    table[at] = high;
    table[at + 1] = low;
    table[at + 2] = value;
    if (++this.count * 4 > (this.mask + 1) * 3) this.grow();
    return -1;
  }

  /** The slot holding the fingerprint, or the empty one where it would go. */
  private slotOf(high: number, low: number): number {
    const table = this.table;
    for (let slot = (high ^ low) & this.mask; ; slot = (slot + 1) & this.mask) {
      const storedLow = table[slot * WORDS + 1]!;
      if (storedLow === 0 || (storedLow === low && table[slot * WORDS] === high)) return slot;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.mask = (this.mask << 1) | 1;
    for (let at = 0; at < old.length; at += WORDS) {
      if (old[at + 1] === 0) continue;
      const to = this.slotOf(old[at]!, old[at + 1]!) * WORDS;
      this.table[to] = old[at]!;
      this.table[to + 1] = old[at + 1]!;
      this.table[to + 2] = old[at + 2]!;
    }
  }
}
