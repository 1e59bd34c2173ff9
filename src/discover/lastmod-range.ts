/**
 * The newest and oldest lastmod of a document or a tree, compared as instants but kept as written
 * (`2024-05-01` stays `2024-05-01`, not a timestamp).
 */
import { w3cToEpochMillis } from '../core/datetime.js';

/**
 * Instants of the lastmod values met lately. Sitemaps repeat a few dates many times, across files
 * too, so one walk shares one cache instead of parsing each date again; it is cleared when full.
 */
export class InstantCache {
  private readonly instants = new Map<string, number | undefined>();

  constructor(private readonly capacity = 4096) {}

  instantOf(lastmod: string): number | undefined {
    let ms = this.instants.get(lastmod);
    if (ms === undefined && !this.instants.has(lastmod)) {
      ms = w3cToEpochMillis(lastmod);
      if (this.instants.size >= this.capacity) this.instants.clear();
      this.instants.set(lastmod, ms);
    }
    return ms;
  }
}

export class LastmodRange {
  newest?: string;
  oldest?: string;
  private newestMs = -Infinity;
  private oldestMs = Infinity;

  constructor(private readonly instants: InstantCache) {}

  /** Takes a lastmod into the range; values that are not W3C datetimes are left out. */
  add(lastmod: string): void {
    const ms = this.instants.instantOf(lastmod);
    if (ms === undefined) return;
    if (ms > this.newestMs) {
      this.newestMs = ms;
      this.newest = lastmod;
    }
    if (ms < this.oldestMs) {
      this.oldestMs = ms;
      this.oldest = lastmod;
    }
  }
}
