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
  /** The instants of `newest` and `oldest`; undefined while not yet worked out (see add). */
  private newestMs: number | undefined;
  private oldestMs: number | undefined;
  /** Whether `newest` and `oldest` have one form: then a value of the form of one has that of the other. */
  private boundsShareForm = true;

  constructor(private readonly instants: InstantCache) {}

  /**
   * Takes a lastmod into the range; values that are not W3C datetimes are left out. A value of
   * the same form as the bound it is compared with (same length, same time zone: its fields are
   * then at the same places, zero-padded) is compared as text, which spares working out its
   * instant: most values of a sitemap share one form. (The instant cache cost a twentieth of a
   * `tree --urls` run, in hashing each value's text.)
   */
  add(lastmod: string): void {
    const { newest, oldest } = this;
    if (newest === undefined || oldest === undefined) {
      const ms = this.instants.instantOf(lastmod);
      if (ms === undefined) return;
      this.newest = this.oldest = lastmod;
      this.newestMs = this.oldestMs = ms;
      return;
    }
    if (this.boundsShareForm ? sameForm(lastmod, newest) : sameForm(lastmod, newest) && sameForm(lastmod, oldest)) {
      if (lastmod > newest) {
        this.newest = lastmod;
        this.newestMs = undefined;
      } else if (lastmod < oldest) {
        this.oldest = lastmod;
        this.oldestMs = undefined;
      }
      return;
    }
    const ms = this.instants.instantOf(lastmod);
    if (ms === undefined) return;
    if (ms > (this.newestMs ??= this.instants.instantOf(newest)!)) {
      this.newest = lastmod;
      this.newestMs = ms;
    }
    if (ms < (this.oldestMs ??= this.instants.instantOf(oldest)!)) {
      this.oldest = lastmod;
      this.oldestMs = ms;
    }
    this.boundsShareForm = sameForm(this.newest!, this.oldest!);
  }
}

/**
 * Whether two W3C datetimes compare as text: of one length (so of one form: date, minutes,
 * seconds, as many fraction digits) and in one time zone (`Z` or the same `±hh:mm`), or dates alone.
 * A value that is no W3C datetime never has the form of one that is, but for its digits: such a
 * value is not in an entry (the parser keeps only valid lastmods), which is what this range reads.
 */
function sameForm(a: string, b: string): boolean {
  const length = a.length;
  if (b.length !== length) return false;
  if (length <= 10) return true;
  const zone = a.charCodeAt(length - 1) === 0x5a /* Z */ ? 1 : 6;
  for (let i = length - zone; i < length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}
