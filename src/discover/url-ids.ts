/**
 * The sitemap URLs a tree walk met, each with its node's id, in 12 bytes a URL (a 64-bit
 * fingerprint and the id, core/fingerprint-map.ts) instead of a string and a Map entry: a walk of
 * a million sitemaps remembers them all in a few megabytes. Two URLs share a fingerprint with a
 * probability of about n²/2⁶⁵ (one in 36 million at a million URLs): the second would be taken
 * for a repeat.
 */
import { fingerprint } from '../core/fingerprint.js';
import { FingerprintMap } from '../core/fingerprint-map.js';
import type { MetDocuments } from '../core/index-walk.js';

export class UrlIds implements MetDocuments<number> {
  private readonly ids = new FingerprintMap();
  private readonly scratch = new Uint32Array(2);

  get(url: string): number | undefined {
    fingerprint(url, this.scratch);
    const id = this.ids.get(this.scratch[0]!, this.scratch[1]!);
    return id === -1 ? undefined : id;
  }

  /** Remembers `id` for the URL; a URL already met keeps its first id (the walk meets each once). */
  set(url: string, id: number): void {
    fingerprint(url, this.scratch);
    this.ids.putIfAbsent(this.scratch[0]!, this.scratch[1]!, id);
  }
}
