/**
 * Findings that need other URLs' answers, made once every URL is checked: hreflang return links
 * on the live pages (hreflang-no-return), and with a crawl, listed pages no crawled page leads to
 * (orphan) and indexable pages no sitemap lists (not-listed). Each reads the state or the crawl's
 * store; what they remember is a fingerprint per URL (FingerprintSet: 8 bytes each).
 */
import type { Alternate } from '../core/entry.js';
import { FingerprintSet } from '../core/fingerprint-set.js';
import { folderUrl, normaliseCrawlUrl } from '../crawl/normalise.js';
import { paramFilter } from '../crawl/tracking-params.js';

/**
 * hreflang-no-return: the first alternate the sitemap names for `url` whose live page declares
 * hreflang links, none of them back to `url`. A page with no hreflang links of its own (it uses
 * the sitemap's, which the validator checks) or not checked (not listed, not in the sample) says
 * nothing.
 * @param liveHreflangOf a listed URL's live links as JSON: undefined when unknown, null when none
 */
export function missingReturnLink(
  url: string,
  alternates: readonly Alternate[],
  liveHreflangOf: (url: string) => string | null | undefined,
): string | undefined {
  const self = absolute(url);
  for (const { href } of alternates) {
    if (href === url || absolute(href) === self) continue;
    const live = liveHreflangOf(href);
    if (live === undefined || live === null) continue;
    const links = JSON.parse(live) as Alternate[];
    if (!links.some((link) => absolute(link.href) === self))
      return `the live page ${href} declares ${links.length} hreflang link${links.length === 1 ? '' : 's'}, none back to this URL`;
  }
  return undefined;
}

/**
 * One page, one URL: the crawler's normal form, tracking parameters removed, a folder's index
 * file as the folder (the crawler follows a link to `docs/index.html` as `docs/`).
 */
const crawlForm = (() => {
  const strip = paramFilter();
  return (url: string) => {
    const normal = normaliseCrawlUrl(url, undefined, strip);
    return normal === undefined ? undefined : folderUrl(normal);
  };
})();

/** What the crawl of the site says about the listed URLs, and the crawled pages about the sitemaps. */
export class CrawlComparison {
  private readonly reached = new FingerprintSet();
  private readonly listed = new FingerprintSet();

  /**
   * @param crawled every URL the crawl met (reached from the start page through links, redirects,
   *   canonicals or alternates), with its outcome
   * @param listedUrls every URL the sitemaps list
   * @param site the origin crawled: only its URLs can be orphans
   */
  constructor(
    crawled: Iterable<{ url: string; outcome: string | null }>,
    listedUrls: Iterable<string>,
    private readonly site: string,
    private readonly crawlFinished: boolean,
  ) {
    for (const { url } of crawled) this.reached.add(url);
    for (const url of listedUrls) this.addListed(url);
  }

  /** Counts `url` as listed by a sitemap (for listings read after the comparison is made). */
  addListed(url: string): void {
    this.listed.add(crawlForm(url) ?? url);
  }

  /** orphan: a listed URL of the crawled site that the crawl never met. */
  orphan(url: string): string | undefined {
    const key = crawlForm(url);
    if (key === undefined || new URL(key).origin !== this.site || this.reached.has(key)) return undefined;
    const limit = this.crawlFinished ? '' : ' (the crawl was stopped early: it may have missed the link)';
    return `no page reached by following links from ${this.site}/ links to it${limit}`;
  }

  /** not-listed: is a page the crawl found indexable listed by no sitemap? */
  isListed(url: string): boolean {
    return this.listed.has(url);
  }
}

function absolute(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * Content digests remembered for duplicate-content, at most: past it, the pages of later digests
 * are not compared (each costs a digest prefix and a URL).
 */
export const DUPLICATE_DIGESTS = 500_000;

/**
 * duplicate-content: indexable listed pages (200, HTML, no redirect, not noindex, their own
 * canonical: none names another) whose content digest, the one `generate --state` uses, is an
 * earlier listed page's. Each group is named by its first URL, in the order listed.
 */
export class DuplicateContent {
  /** The first URL of each digest (its first 16 hex digits: 64 bits tell pages apart). */
  private readonly first = new Map<string, string>();

  constructor(private readonly budget = DUPLICATE_DIGESTS) {}

  /** The first URL listed with the same content as `url`, if another was. */
  firstOf(url: string, digest: string | undefined): string | undefined {
    if (digest === undefined) return undefined;
    const key = digest.slice(0, 16);
    const first = this.first.get(key);
    if (first !== undefined) return first === url ? undefined : first;
    if (this.first.size < this.budget) this.first.set(key, url);
    return undefined;
  }
}
