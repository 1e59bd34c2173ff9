/**
 * The listed URLs of an audit as its discovery meets them: the first listing of each URL kept (its
 * later listings, and its http/https or www twins', as repeats), and the deterministic sample that
 * --max-urls narrows them to. The audit's run is made from it (run/audit-checks.ts), each listing
 * an item of the run's queue; nothing here outlives the discovery.
 */
import type { Alternate } from '../core/entry.js';
import type { Listing } from './check.js';

/** A URL as the sitemaps list it, the first time it is met. */
export interface NewListing {
  url: string;
  sitemap: string;
  line?: number | undefined;
  lastmod?: string | undefined;
  /** The sitemap's hreflang alternates of the URL, as JSON text. */
  alternates?: string | undefined;
  /** Orders the deterministic sample (--max-urls): the smallest keys are taken. */
  sampleKey: number;
}

/** Another listing of a URL met before: where, and what the validator said of it. */
export interface Repeat {
  sitemap: string;
  line: number | null;
  detail: string;
}

/** A check's outcome, as an item of the audit's run keeps it. */
export interface StoredCheck {
  /** The row's facts, as JSON text. */
  result: string;
  /** One bit per finding. */
  findings: number;
  /** The page's own hreflang links as JSON text, when it has any (for return-link checks). */
  liveHreflang?: string | undefined;
}

/** Where the discovery puts what the sitemaps list. */
export interface ListingSink {
  /** Records listings; a URL already listed is kept as first met. Returns how many were new. */
  addListings(listings: readonly NewListing[]): number;
  /** Records another listing of `url` (a duplicate or a twin), once per place. */
  addRepeat(url: string, repeat: Repeat): void;
}

/** Every URL listed, in the order first met, with its repeats. */
export class ListingBook implements ListingSink {
  private readonly listings = new Map<string, NewListing>();
  /** Few: only URLs listed more than once. */
  private readonly repeats = new Map<string, Repeat[]>();
  /** The URLs of the sample, once --max-urls narrowed it. */
  private sampled: Set<string> | undefined;
  /** Whether a sitemap names hreflang alternates of a URL (else no return link needs looking up). */
  hasAlternates = false;

  addListings(listings: readonly NewListing[]): number {
    let added = 0;
    for (const listing of listings)
      if (!this.listings.has(listing.url)) {
        this.listings.set(listing.url, listing);
        if (listing.alternates !== undefined) this.hasAlternates = true;
        added += 1;
      }
    return added;
  }

  addRepeat(url: string, repeat: Repeat): void {
    const known = this.repeats.get(url);
    if (known === undefined) this.repeats.set(url, [repeat]);
    else if (!known.some((r) => r.sitemap === repeat.sitemap && r.line === repeat.line)) known.push(repeat);
  }

  /** URLs listed (each once). */
  get listedCount(): number {
    return this.listings.size;
  }

  /** URLs in the sample: all of them unless {@link chooseSample} narrowed it. */
  get sampledCount(): number {
    return this.sampled?.size ?? this.listings.size;
  }

  /** Narrows the sample to the `size` listings of smallest sample key (ties: first met). */
  chooseSample(size: number): void {
    const order = [...this.listings.values()].map((listing, met) => ({
      key: listing.sampleKey,
      met,
      url: listing.url,
    }));
    order.sort((a, b) => a.key - b.key || a.met - b.met);
    this.sampled = new Set(order.slice(0, size).map((each) => each.url));
  }

  /** The sampled listings in the order met, as the check reads them; then the URLs outside the sample. */
  *sample(): Generator<Listing> {
    for (const listing of this.listings.values())
      if (this.sampled === undefined || this.sampled.has(listing.url)) yield this.listingOf(listing);
  }

  /** The listed URLs outside the sample, in the order met. */
  *unsampled(): Generator<string> {
    if (this.sampled === undefined) return;
    for (const url of this.listings.keys()) if (!this.sampled.has(url)) yield url;
  }

  private listingOf(listing: NewListing): Listing {
    const repeats = this.repeats.get(listing.url);
    return {
      url: listing.url,
      sitemap: listing.sitemap,
      ...(listing.line === undefined ? {} : { line: listing.line }),
      ...(listing.lastmod === undefined ? {} : { lastmod: listing.lastmod }),
      ...(listing.alternates === undefined ? {} : { alternates: JSON.parse(listing.alternates) as Alternate[] }),
      ...(repeats === undefined ? {} : { repeats }),
    };
  }
}
