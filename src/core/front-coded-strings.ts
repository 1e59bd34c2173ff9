/**
 * A list of strings kept in compact memory, for a run that must name a million sitemaps: each
 * string's UTF-8 bytes stored after the bytes it shares with the one before it (front coding, as
 * search indexes keep their terms), with a full string every 16 to start decoding from. Sitemap
 * URLs of one site share most of their bytes, so a name costs tens of bytes instead of the ~130
 * a string in an array and a Map cost (and no object for the garbage collector to trace).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Every RESTART-th string is stored whole. */
const RESTART = 16;
/** The longest shared prefix counted (two bytes hold it). */
const MAX_SHARED = 0xffff;

export class FrontCodedStrings {
  private bytes = new Uint8Array(4096);
  private used = 0;
  /** Where each string's record starts; it ends where the next one starts (or at `used`). */
  private starts = new Uint32Array(256);
  private count = 0;
  /** The UTF-8 bytes of the last string appended, to share from. */
  private last = new Uint8Array(256);
  private lastLength = 0;

  get size(): number {
    return this.count;
  }

  /** Appends `text`; answers its index. */
  append(text: string): number {
    const encoded = encoder.encode(text);
    const shared = this.count % RESTART === 0 ? 0 : sharedPrefix(this.last, this.lastLength, encoded);
    const header = this.count % RESTART === 0 ? 0 : 2;
    this.reserve(header + encoded.length - shared);
    if (this.count === this.starts.length) this.starts = grown(this.starts, this.count + 1);
    this.starts[this.count] = this.used;
    if (header) {
      this.bytes[this.used++] = shared & 0xff;
      this.bytes[this.used++] = shared >>> 8;
    }
    this.bytes.set(encoded.subarray(shared), this.used);
    this.used += encoded.length - shared;
    if (this.last.length < encoded.length) this.last = new Uint8Array(encoded.length * 2);
    this.last.set(encoded);
    this.lastLength = encoded.length;
    return this.count++;
  }

  /** The string at `index`. */
  at(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.count)
      throw new RangeError(`no string ${index} in a list of ${this.count}`);
    const restart = index - (index % RESTART);
    let text = this.bytes.slice(this.starts[restart], this.endOf(restart));
    for (let i = restart + 1; i <= index; i++) {
      const start = this.starts[i]!;
      const shared = this.bytes[start]! | (this.bytes[start + 1]! << 8);
      const suffix = this.bytes.subarray(start + 2, this.endOf(i));
      const next = new Uint8Array(shared + suffix.length);
      next.set(text.subarray(0, shared));
      next.set(suffix, shared);
      text = next;
    }
    return decoder.decode(text);
  }

  private endOf(index: number): number {
    return index + 1 < this.count ? this.starts[index + 1]! : this.used;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes > this.bytes.length) this.bytes = grown(this.bytes, this.used + bytes);
  }
}

function sharedPrefix(last: Uint8Array, lastLength: number, next: Uint8Array): number {
  const most = Math.min(lastLength, next.length, MAX_SHARED);
  let shared = 0;
  while (shared < most && last[shared] === next[shared]) shared++;
  return shared;
}

function grown<T extends Uint8Array | Uint32Array>(array: T, atLeast: number): T {
  let length = array.length * 2;
  while (length < atLeast) length *= 2;
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}
