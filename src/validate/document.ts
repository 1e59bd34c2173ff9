/**
 * One document's validation: every entry goes through the rule modules once, as the parser
 * yields it, and the per-document summaries (empty sitemap, stamping, uniform priority) follow
 * at the end. State shared between documents (the URL set, hreflang clusters) lives in RunState.
 */
import type { DocumentKind, UrlEntry } from '../core/entry.js';
import type { LocatedEntry } from '../parse/types.js';
import { checkLastmod, StampingDetector, type DateSettings } from './dates.js';
import { BUDGET_SPENT, MAX_REMEMBERED_URLS, UrlRegistry } from './duplicates.js';
import { HREFLANG_BUDGET_MIB, HreflangGraph, HreflangRules } from './hreflang.js';
import { ImageRules } from './images.js';
import { NewsRules } from './news.js';
import { PriorityUniformity } from './priority.js';
import { DOCUMENT_START, quote, type Reporter } from './reporter.js';
import type { Scope } from './scope.js';
import { SitemapRefRules } from './sitemap-refs.js';
import { checkChildUrl, checkPageScope, checkPageUrl } from './urls.js';
import { checkVideos } from './video.js';

/** What the rules of a whole run remember across documents. */
export class RunState {
  readonly urls = new UrlRegistry();
  readonly hreflang = new HreflangGraph();
}

export interface DocumentSettings extends DateSettings {
  /** The document's URL (given or fetched), when known. */
  location?: string | undefined;
  scope?: Scope | undefined;
  /** This document's number in the run (for cross-file rules). */
  sourceIndex: number;
}

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

export class DocumentValidator {
  urls = 0;
  sitemaps = 0;
  private readonly stamping = new StampingDetector();
  private readonly priorities = new PriorityUniformity();
  private readonly images = new ImageRules();
  private readonly news: NewsRules;
  private readonly hreflang = new HreflangRules();
  private readonly refs: SitemapRefRules;

  constructor(
    private readonly settings: DocumentSettings,
    private readonly run: RunState,
    private readonly report: Reporter,
  ) {
    this.news = new NewsRules(settings.now);
    this.refs = new SitemapRefRules(settings.scope, settings.location);
  }

  /** Checks one entry; for an index child, true when it is to be followed (not a repeat, not the index itself). */
  entry(located: LocatedEntry): boolean {
    if (located.entry.kind === 'url') {
      this.page(located as LocatedUrl);
      return false;
    }
    this.sitemaps++;
    checkChildUrl(located, this.report);
    const follow = this.refs.check(located, this.report);
    this.lastmod(located);
    return follow;
  }

  /**
   * The end of the document: rules that need every entry seen. A document the parser found
   * errors in is not called empty: its entries may have been dropped for those errors.
   */
  finish(kind: DocumentKind | undefined, hadErrors: boolean): void {
    if (this.urls + this.sitemaps === 0 && !hadErrors && kind !== undefined && kind !== 'html' && kind !== 'unknown') {
      const what = kind === 'sitemapindex' ? 'sitemap index lists no sitemaps' : 'sitemap lists no URLs';
      this.report.at(
        'XML-012',
        `the ${what}; add entries or stop publishing it (an empty news sitemap is normal when nothing was published in the last two days)`,
        DOCUMENT_START,
      );
    }
    if (kind === 'rss' || kind === 'atom') {
      this.report.at(
        'FEED-001',
        `this ${kind === 'rss' ? 'RSS' : 'Atom'} feed is read as a sitemap: Google and Bing accept it, Yandex does not, and a feed usually lists only recent items; publish an XML sitemap for the full site`,
        DOCUMENT_START,
      );
    }
    // News sitemaps are rewritten as articles come and go: one shared day is expected there.
    if (this.news.count === 0) this.stamping.finish(this.report);
    this.priorities.finish(this.report);
  }

  private page(located: LocatedUrl): void {
    const { entry, location } = located;
    this.urls++;
    checkPageUrl(located, this.report);
    if (this.settings.scope) checkPageScope(located, this.settings.scope, this.report);
    const repeat = this.run.urls.add(entry.loc, this.report.source, location.fields.loc ?? location);
    if (repeat === BUDGET_SPENT) {
      this.report.field(
        'LIMIT-004',
        `this run has met ${MAX_REMEMBERED_URLS.toLocaleString('en-US')} URLs, all its memory budget lets it remember: URLs from here on are not checked for duplicates (URL-006); validate fewer sitemaps at once to check them all`,
        located,
        'loc',
      );
    } else if (repeat) {
      const message =
        repeat.kind === 'duplicate'
          ? `the URL is listed again (first at ${repeat.where}); list each page once`
          : `the URL is a twin of ${quote(repeat.first.loc)} (first at ${repeat.where}): the same page on http/https or with/without www; list only the version you want in search results`;
      this.report.field('URL-006', message, located, 'loc');
    }
    this.lastmod(located);
    if (entry.priority !== undefined)
      this.priorities.record(entry.priority, location.fields.priority ?? location, entry.loc);
    this.images.check(located, this.report);
    checkVideos(located, this.report);
    this.news.check(located, this.report);
    this.hreflang.check(located, this.report);
    if (this.run.hreflang.add(located, this.settings.sourceIndex) === BUDGET_SPENT) {
      this.report.field(
        'LIMIT-004',
        `this run's hreflang clusters have filled their memory budget (${HREFLANG_BUDGET_MIB} MiB): clusters from here on are not checked for return links (HREF-004, HREF-005); validate fewer sitemaps at once to check them all`,
        located,
        ['alternates.0', 'loc'],
      );
    }
  }

  private lastmod(located: LocatedEntry): void {
    const { entry, location } = located;
    if (entry.lastmod === undefined) return;
    const position = location.fields.lastmod ?? location;
    checkLastmod(entry.lastmod, position, entry.loc, this.settings, this.report);
    if (entry.kind === 'url') this.stamping.record(entry.lastmod, position, entry.loc);
  }
}
