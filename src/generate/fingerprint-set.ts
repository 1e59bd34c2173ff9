/**
 * Remembers which URLs were already written, in 8 bytes per URL instead of a whole string:
 * a 64-bit fingerprint (two independent 32-bit string hashes) in an open-addressing table of
 * typed arrays. Two different URLs share a fingerprint with a probability of about n²/2⁶⁵
 * (3 in a million at 10 million URLs).
 */
export class FingerprintSet {
  private high: Uint32Array;
  private low: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1 << 16) {
    const capacity = 1 << Math.ceil(Math.log2(Math.max(initialCapacity, 16)));
    this.high = new Uint32Array(capacity);
    this.low = new Uint32Array(capacity);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the text; false when it was there already. */
  add(text: string): boolean {
    let h1 = 0x811c9dc5 ^ text.length;
    let h2 = 0x9747b28c;
    // Two UTF-16 units per step: half the multiplications of a unit-by-unit loop.
    const end = text.length - 1;
    let i = 0;
    for (; i < end; i += 2) {
      const pair = (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
      h1 = Math.imul(h1 ^ pair, 0x01000193);
      h2 = (Math.imul(h2, 31) + pair) | 0;
    }
    if (i === end) {
      const last = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ last, 0x01000193);
      h2 = (Math.imul(h2, 31) + last) | 0;
    }
    h1 = finalise(h1);
    h2 = finalise(h2) | 1; // never (0, 0): an empty slot
    if (!this.insert(h1 >>> 0, h2 >>> 0)) return false;
    if (++this.count * 4 > this.high.length * 3) this.grow();
    return true;
  }

  private insert(high: number, low: number): boolean {
    let slot = (high ^ low) & this.mask;
    for (;;) {
      const storedLow = this.low[slot]!;
      if (storedLow === 0) {
        this.high[slot] = high;
        this.low[slot] = low;
        return true;
      }
      if (storedLow === low && this.high[slot] === high) return false;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const { high, low } = this;
    this.high = new Uint32Array(high.length * 2);
    this.low = new Uint32Array(low.length * 2);
    this.mask = this.high.length - 1;
    for (let i = 0; i < high.length; i++) {
      if (low[i] !== 0) this.insert(high[i]!, low[i]!);
    }
  }
}

/** Murmur3's final mix: spreads every input bit over the whole word. */
function finalise(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
