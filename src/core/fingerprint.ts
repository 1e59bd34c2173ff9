/**
 * A 64-bit fingerprint of a string: two independent 32-bit hashes (FNV-1a over pairs of UTF-16
 * units, and a multiplicative hash), each finished with murmur3's mix so every input bit reaches
 * every output bit. Sets that remember millions of URLs keep these 8 bytes instead of the string;
 * two different strings share a fingerprint with a probability of about n²/2⁶⁵ among n strings
 * (3 in a million at 10 million).
 */

/**
 * Writes the fingerprint of `text` (of its tail from `from` on, the same as that of
 * `text.slice(from)`, without making it) into out[0] and out[1]; out[1] is never 0, so 0 can mark
 * an empty slot.
 */
export function fingerprint(text: string, out: Uint32Array, from = 0): void {
  let h1 = 0x811c9dc5 ^ (text.length - from);
  let h2 = 0x9747b28c;
  // Two UTF-16 units per step: half the multiplications of a unit-by-unit loop.
  const end = text.length - 1;
  let i = from;
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
  out[0] = mix(h1);
  out[1] = mix(h2) | 1;
}

/** Murmur3's final mix. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
