/**
 * Images that stand on most pages of a site (its logo, icons, a banner) are the site's furniture,
 * not the content of any one page: an image sitemap that lists the logo under every URL says
 * nothing an image search can use, and grows the file by the number of pages. The one rule, used
 * by `generate DIR --images` and by `crawl`:
 *
 *   an image is left out of every page when it stands on more than half of the pages (of those
 *   listed) and on at least COMMON_IMAGE_MIN_PAGES of them.
 *
 * The minimum keeps the photos of a site of two or three pages. Seeing "most pages" takes a view
 * across all of them, in bounded memory whatever the site's size, so the pages are gone through
 * twice before they are written: the first pass nominates candidates with the Misra–Gries
 * frequent-items count (at most MAX_CANDIDATES counters: any image on more than 1/(k+1) of all the
 * image references survives, and with at most LIMITS.maxImagesPerUrl images a page, one on more
 * than half of the pages always does); the second counts the candidates exactly.
 */
import { LIMITS } from './limits.js';

/** An image must stand on at least this many pages (and on more than half of them) to be furniture. */
export const COMMON_IMAGE_MIN_PAGES = 3;

/**
 * Counters of the first pass: more than 2 × LIMITS.maxImagesPerUrl, so that an image on more than
 * half of the pages cannot be pushed out by the images of the other pages.
 */
const MAX_CANDIDATES = 2 * LIMITS.maxImagesPerUrl + 48;

/** The two-pass count of the images of a site's pages: nominate every page, confirm every page, then ask. */
export class CommonImages {
  private pages = 0;
  private confirmedPages = 0;
  private readonly candidates = new Map<string, number>();
  private readonly counts = new Map<string, number>();
  private decided: ReadonlySet<string> | undefined;

  /** First pass: the image URLs of one page (each counts once a page). */
  nominate(images: Iterable<string>): void {
    this.pages++;
    for (const image of new Set(images)) {
      const count = this.candidates.get(image);
      if (count !== undefined) this.candidates.set(image, count + 1);
      else if (this.candidates.size < MAX_CANDIDATES) this.candidates.set(image, 1);
      else this.decrementAll();
    }
  }

  /** Second pass: the same pages' images again, in any order. */
  confirm(images: Iterable<string>): void {
    this.confirmedPages++;
    for (const image of new Set(images)) {
      if (this.candidates.has(image)) this.counts.set(image, (this.counts.get(image) ?? 0) + 1);
    }
  }

  /** True when no page had an image: the second pass can be skipped. */
  get nothingNominated(): boolean {
    return this.candidates.size === 0;
  }

  /** After both passes: the images left out of every page. */
  get common(): ReadonlySet<string> {
    if (this.decided === undefined) {
      const pages = Math.max(this.pages, this.confirmedPages);
      const common = new Set<string>();
      for (const [image, count] of this.counts)
        if (count * 2 > pages && count >= COMMON_IMAGE_MIN_PAGES) common.add(image);
      this.decided = common;
    }
    return this.decided;
  }

  /** Misra–Gries: a new item with every counter taken takes one off each (and is not kept). */
  private decrementAll(): void {
    for (const [image, count] of this.candidates) {
      if (count <= 1) this.candidates.delete(image);
      else this.candidates.set(image, count - 1);
    }
  }
}

/** The entry without the images of `common`; the entry itself when it has none of them. */
export function withoutImages<T extends { images?: { loc: string }[] }>(entry: T, common: ReadonlySet<string>): T {
  if (entry.images === undefined || common.size === 0 || !entry.images.some((image) => common.has(image.loc)))
    return entry;
  const images = entry.images.filter((image) => !common.has(image.loc));
  const { images: _dropped, ...rest } = entry;
  return (images.length > 0 ? { ...rest, images } : rest) as T;
}

/**
 * The entries of `pass()` without the images that stand on most of them: `pass` is called three
 * times (nominate, confirm, then the entries themselves) and must give the same entries each time.
 */
export function* withoutCommonImages<T extends { images?: { loc: string }[] }>(pass: () => Iterable<T>): Generator<T> {
  const census = new CommonImages();
  const locs = (entry: T) => (entry.images ?? []).map((image) => image.loc);
  for (const entry of pass()) census.nominate(locs(entry));
  if (!census.nothingNominated) for (const entry of pass()) census.confirm(locs(entry));
  const common = census.common;
  for (const entry of pass()) yield withoutImages(entry, common);
}

/** {@link withoutCommonImages} over passes read asynchronously (a run's queue, page by page). */
export async function* withoutCommonImagesOf<T extends { images?: { loc: string }[] }>(
  pass: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  const census = new CommonImages();
  const locs = (entry: T) => (entry.images ?? []).map((image) => image.loc);
  for await (const entry of pass()) census.nominate(locs(entry));
  if (!census.nothingNominated) for await (const entry of pass()) census.confirm(locs(entry));
  const common = census.common;
  for await (const entry of pass()) yield withoutImages(entry, common);
}
