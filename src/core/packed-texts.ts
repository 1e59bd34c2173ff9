/**
 * Strings kept until the end of a long run, packed side by side into a few large strings. A value
 * sliced from the parser's decoded chunk keeps that whole chunk alive (see detach.ts), and each
 * string kept apart is one more object for the garbage collector to move: packed, a million
 * texts cost their characters and three numbers each. A text is known by the number `add` gives.
 */
import { detach } from './detach.js';
import { grown } from './typed-arrays.js';

/** Characters gathered before they are joined into one packed string. */
const PACK_CHARS = 1 << 16;

export class PackedTexts {
  private readonly packs: string[] = [];
  private pending: string[] = [];
  private pendingChars = 0;
  /** Per text: its pack, where it starts there, its length. */
  private places = new Uint32Array(3 * 1024);
  private count = 0;

  /** Keeps a copy of `text`; answers its number. */
  add(text: string): number {
    if (this.pendingChars >= PACK_CHARS) this.pack();
    this.places = grown(this.places, (this.count + 1) * 3);
    const at = this.count * 3;
    this.places[at] = this.packs.length;
    this.places[at + 1] = this.pendingChars;
    this.places[at + 2] = text.length;
    this.pending.push(text);
    this.pendingChars += text.length;
    return this.count++;
  }

  /** The text kept as number `id`. */
  get(id: number): string {
    const at = id * 3;
    if (this.places[at] === this.packs.length) this.pack();
    const start = this.places[at + 1]!;
    return this.packs[this.places[at]!]!.slice(start, start + this.places[at + 2]!);
  }

  /** Joins the pending texts into one new string: a copy, so the parser's chunks are let go. */
  private pack(): void {
    // join() hands back a lone element as it is; detach copies it.
    this.packs.push(this.pending.length === 1 ? detach(this.pending[0]!) : this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }
}
