/**
 * hreflang rules (docs/rules.md). On each entry, by the rules of core: valid language codes
 * (HREF-002), the entry lists itself (HREF-003), one language per URL (HREF-005). Across all
 * entries of all sources: return links (HREF-004) and clusters that agree (HREF-005), which
 * needs every cluster remembered until the end, within a memory budget. Missing attributes and
 * hrefs that are no URL (HREF-001) are the parser's.
 */
import type { Alternate, UrlEntry } from '../core/entry.js';
import { alternatesProblems, hreflangProblem } from '../core/rules/hreflang.js';
import { looksAbsoluteHttp } from '../core/url.js';
import type { LocatedEntry } from '../parse/types.js';
import { fingerprint } from '../core/fingerprint.js';
import { FingerprintMap } from '../core/fingerprint-map.js';
import { PackedTexts } from '../core/packed-texts.js';
import { grown } from '../core/typed-arrays.js';
import { BUDGET_SPENT } from './duplicates.js';
import { fieldPosition, quote, type Reporter } from './reporter.js';

export { hreflangProblem };

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

/** Distinct hreflang values whose verdicts a document remembers (a site uses a few dozen). */
const MAX_REMEMBERED_VALUES = 1000;
const LOC_FALLBACK: readonly string[] = ['loc'];

export class HreflangRules {
  /** HREF-006 is advice: once per document. */
  private xDefaultAdvised = false;
  /** The verdict on each hreflang value met (HREF-002), by value: '' when it is valid. */
  private readonly verdicts = new Map<string, string>();

  check(located: LocatedUrl, report: Reporter): void {
    const alternates = located.entry.alternates;
    if (!alternates || alternates.length === 0) return;
    for (let i = 0; i < alternates.length; i++) {
      const problem = this.verdictOn(alternates[i]!.hreflang);
      if (problem !== '') report.field('HREF-002', `hreflang ${problem}`, located, alternatePath(i));
    }
    const problems = alternatesProblems(located.entry.loc, alternates);
    if (problems.length > 0) report.rules(problems, located, '', LOC_FALLBACK);
    if (!this.xDefaultAdvised && !hasXDefault(alternates)) {
      this.xDefaultAdvised = true;
      report.field(
        'HREF-006',
        'the hreflang cluster has no x-default; add one for the page shown to visitors whose language is not listed (a language selector or the generic version)',
        located,
        ['alternates.0', 'loc'],
      );
    }
  }

  /** hreflangProblem of the value, or '' when it has none; looked up for every alternate, so remembered. */
  private verdictOn(value: string): string {
    let verdict = this.verdicts.get(value);
    if (verdict === undefined) {
      verdict = hreflangProblem(value) ?? '';
      if (this.verdicts.size < MAX_REMEMBERED_VALUES) this.verdicts.set(value, verdict);
    }
    return verdict;
  }
}

/** Whether one of the alternates is x-default (in any case): asked of every cluster until one has none. */
function hasXDefault(alternates: readonly Alternate[]): boolean {
  for (let i = 0; i < alternates.length; i++) {
    const language = alternates[i]!.hreflang;
    if (language.length === 9 && language.toLowerCase() === 'x-default') return true;
  }
  return false;
}

/** The memory the clusters of one run may take, in MiB (about 400,000 clusters of five alternates). */
export const HREFLANG_BUDGET_MIB = 64;
/** What a cluster is charged beyond its strings' characters (kept as it was when a cluster was three objects: the budget's count is unchanged). */
const CLUSTER_OVERHEAD_BYTES = 160;
/** And each alternate. */
const ALTERNATE_OVERHEAD_BYTES = 48;

/**
 * A cluster's record, in words: its loc's fingerprint, the loc's text number, its source, and
 * where its links start and how many there are.
 */
const CLUSTER_WORDS = 6;
const LOC_HIGH = 0;
const LOC_LOW = 1;
const LOC_TEXT = 2;
const SOURCE = 3;
const FIRST_LINK = 4;
const LINK_COUNT = 5;

/** A link's record, in words: its href's fingerprint, text number, line, column, and flags. */
const LINK_WORDS = 6;
const HREF_HIGH = 0;
const HREF_LOW = 1;
const HREF_TEXT = 2;
const LINE = 3;
const COLUMN = 4;
const FLAGS = 5;
/** The link names the declaring page itself (HREF-003 asks every cluster for one). */
const SELF = 1;
/** The href is no absolute http(s) URL: the parser flagged it (HREF-001), and there is no page to check. */
const NOT_A_PAGE = 2;

/**
 * Every hreflang cluster of the run, by the URL that declares it, checked when all sources have
 * been read: does each alternate name the declaring page back, and do both name the same cluster?
 * Clusters are records in typed arrays, found by their loc's fingerprint, with their texts packed
 * (core/packed-texts.ts): a run keeps no object per cluster, which made most of this graph's
 * cost when each was an array of strings in a Map. The clusters are kept within
 * HREFLANG_BUDGET_MIB; past it new ones are not remembered.
 */
export class HreflangGraph {
  private readonly byLoc = new FingerprintMap();
  private readonly texts = new PackedTexts();
  private clusters = new Uint32Array(CLUSTER_WORDS * 256);
  private links = new Uint32Array(LINK_WORDS * 1024);
  private clusterCount = 0;
  private linkCount = 0;
  private readonly hash = new Uint32Array(2);
  private bytes = 0;
  private spent = false;

  /** `budgetBytes`: the memory the clusters may take (tests give less). */
  constructor(private readonly budgetBytes = HREFLANG_BUDGET_MIB * 1_048_576) {}

  /** Remembers the entry's cluster; BUDGET_SPENT the first time one does not fit in the budget. */
  add(located: LocatedUrl, sourceIndex: number): typeof BUDGET_SPENT | undefined {
    const { alternates, loc } = located.entry;
    if (!alternates || alternates.length === 0) return undefined;
    fingerprint(loc, this.hash);
    const locHigh = this.hash[0]!;
    const locLow = this.hash[1]!;
    if (this.byLoc.get(locHigh, locLow) >= 0) return undefined;
    let cost = CLUSTER_OVERHEAD_BYTES + loc.length;
    for (let i = 0; i < alternates.length; i++) cost += alternates[i]!.href.length + ALTERNATE_OVERHEAD_BYTES;
    if (this.spent || this.bytes + cost > this.budgetBytes) {
      if (this.spent) return undefined;
      this.spent = true;
      return BUDGET_SPENT;
    }
    this.bytes += cost;
    const cluster = this.clusterCount++;
    this.byLoc.putIfAbsent(locHigh, locLow, cluster);
    const locText = this.texts.add(loc);
    this.clusters = grown(this.clusters, (cluster + 1) * CLUSTER_WORDS);
    const at = cluster * CLUSTER_WORDS;
    this.clusters[at + LOC_HIGH] = locHigh;
    this.clusters[at + LOC_LOW] = locLow;
    this.clusters[at + LOC_TEXT] = locText;
    this.clusters[at + SOURCE] = sourceIndex;
    this.clusters[at + FIRST_LINK] = this.linkCount;
    this.clusters[at + LINK_COUNT] = alternates.length;
    this.links = grown(this.links, (this.linkCount + alternates.length) * LINK_WORDS);
    for (let i = 0; i < alternates.length; i++) {
      const href = alternates[i]!.href;
      const link = (this.linkCount + i) * LINK_WORDS;
      const position = fieldPosition(located.location, alternatePath(i));
      if (href === loc) {
        this.links[link + HREF_HIGH] = locHigh;
        this.links[link + HREF_LOW] = locLow;
        this.links[link + HREF_TEXT] = locText;
        this.links[link + FLAGS] = SELF;
      } else {
        fingerprint(href, this.hash);
        this.links[link + HREF_HIGH] = this.hash[0]!;
        this.links[link + HREF_LOW] = this.hash[1]!;
        this.links[link + HREF_TEXT] = this.texts.add(href);
        this.links[link + FLAGS] = looksAbsoluteHttp(href) ? 0 : NOT_A_PAGE;
      }
      this.links[link + LINE] = position.line;
      this.links[link + COLUMN] = position.column;
    }
    this.linkCount += alternates.length;
    return undefined;
  }

  /**
   * Reports HREF-004 and HREF-005 for each declaring URL, at most one of each per URL.
   * `isListed` tells whether a URL appears as a loc anywhere in the run.
   */
  finish(reporterFor: (sourceIndex: number) => Reporter, isListed: (url: string) => boolean): void {
    const linkSets = new LinkSets(this.clusters, this.links);
    const { clusters, links } = this;
    for (let cluster = 0; cluster < this.clusterCount; cluster++) {
      const at = cluster * CLUSTER_WORDS;
      let returnReported = false;
      let agreementReported = false;
      const first = clusters[at + FIRST_LINK]!;
      const end = first + clusters[at + LINK_COUNT]!;
      for (let i = first; i < end; i++) {
        const link = i * LINK_WORDS;
        if (links[link + FLAGS] !== 0) continue;
        const other = this.byLoc.get(links[link + HREF_HIGH]!, links[link + HREF_LOW]!);
        if (other < 0) {
          if (returnReported) continue;
          returnReported = true;
          if (isListed(this.texts.get(links[link + HREF_TEXT]!))) {
            this.report(
              reporterFor,
              cluster,
              'HREF-004',
              (href) =>
                `alternate ${quote(href)} has no hreflang links, so it does not link back to this URL and Google ignores the pair; give it the same cluster`,
              link,
            );
          } else {
            this.report(
              reporterFor,
              cluster,
              'HREF-005',
              (href) =>
                `alternate ${quote(href)} is not listed as a <loc> in the sitemaps validated, so its own cluster cannot be checked; list it with the same hreflang links`,
              link,
              'warning',
            );
          }
        } else if (!linkSets.names(other, clusters[at + LOC_HIGH]!, clusters[at + LOC_LOW]!)) {
          if (returnReported) continue;
          returnReported = true;
          this.report(
            reporterFor,
            cluster,
            'HREF-004',
            (href) =>
              `alternate ${quote(href)} does not link back to this URL, so Google ignores the pair; add this URL to its hreflang links`,
            link,
          );
        } else if (!agreementReported && !linkSets.same(other, cluster)) {
          agreementReported = true;
          this.report(
            reporterFor,
            cluster,
            'HREF-005',
            (href) =>
              `this URL and its alternate ${quote(href)} list different hreflang clusters; give every page of a cluster the same set of links`,
            link,
          );
        }
      }
    }
  }

  /** Reports a problem of a cluster's link, at the link, for the cluster's URL; the texts are read only now. */
  private report(
    reporterFor: (sourceIndex: number) => Reporter,
    cluster: number,
    code: string,
    message: (href: string) => string,
    link: number,
    severity?: 'warning',
  ): void {
    const at = cluster * CLUSTER_WORDS;
    const href = this.texts.get(this.links[link + HREF_TEXT]!);
    const position = { line: this.links[link + LINE]!, column: this.links[link + COLUMN]! };
    const loc = this.texts.get(this.clusters[at + LOC_TEXT]!);
    reporterFor(this.clusters[at + SOURCE]!).at(code, message(href), position, loc, severity);
  }
}

/** The set of hrefs of each cluster, as its links' fingerprints: does one name a URL, are two equal. */
class LinkSets {
  /** By cluster: its distinct fingerprints, sorted, made when first compared. */
  private readonly sorted = new Map<number, string[]>();

  constructor(
    private readonly clusters: Uint32Array,
    private readonly links: Uint32Array,
  ) {}

  /** Whether a link of the cluster has the fingerprint given. */
  names(cluster: number, high: number, low: number): boolean {
    const at = cluster * CLUSTER_WORDS;
    const first = this.clusters[at + FIRST_LINK]!;
    const end = first + this.clusters[at + LINK_COUNT]!;
    for (let i = first; i < end; i++) {
      const link = i * LINK_WORDS;
      if (this.links[link + HREF_HIGH] === high && this.links[link + HREF_LOW] === low) return true;
    }
    return false;
  }

  /** Whether two clusters list the same set of hrefs. */
  same(a: number, b: number): boolean {
    const left = this.of(a);
    const right = this.of(b);
    return left.length === right.length && left.every((key, i) => key === right[i]);
  }

  private of(cluster: number): string[] {
    let keys = this.sorted.get(cluster);
    if (keys === undefined) {
      const at = cluster * CLUSTER_WORDS;
      const first = this.clusters[at + FIRST_LINK]!;
      const all: string[] = [];
      for (let i = first; i < first + this.clusters[at + LINK_COUNT]!; i++)
        all.push(`${this.links[i * LINK_WORDS + HREF_HIGH]}:${this.links[i * LINK_WORDS + HREF_LOW]}`);
      keys = [...new Set(all)].sort();
      this.sorted.set(cluster, keys);
    }
    return keys;
  }
}

/** Paths of the first alternates, made once: a position is looked up by them for every cluster. */
const ALTERNATE_PATHS = Array.from({ length: 16 }, (_, i) => `alternates.${i}`);

function alternatePath(i: number): string {
  return ALTERNATE_PATHS[i] ?? `alternates.${i}`;
}
