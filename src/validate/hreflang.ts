/**
 * hreflang rules (docs/rules.md). On each entry, by the rules of core: valid language codes
 * (HREF-002), the entry lists itself (HREF-003), one language per URL (HREF-005). Across all
 * entries of all sources: return links (HREF-004) and clusters that agree (HREF-005), which
 * needs every cluster remembered until the end, within a memory budget. Missing attributes and
 * hrefs that are no URL (HREF-001) are the parser's.
 */
import type { UrlEntry } from '../core/entry.js';
import { alternatesProblems, hreflangProblem } from '../core/rules/hreflang.js';
import { looksAbsoluteHttp } from '../core/url.js';
import type { Position } from '../core/position.js';
import type { LocatedEntry } from '../parse/types.js';
import { detach } from '../core/detach.js';
import { BUDGET_SPENT } from './duplicates.js';
import { fieldPosition, quote, type Reporter } from './reporter.js';

export { hreflangProblem };

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

export class HreflangRules {
  /** HREF-006 is advice: once per document. */
  private xDefaultAdvised = false;

  check(located: LocatedUrl, report: Reporter): void {
    const alternates = located.entry.alternates;
    if (!alternates || alternates.length === 0) return;
    alternates.forEach((alternate, i) => {
      const problem = hreflangProblem(alternate.hreflang);
      if (problem) report.field('HREF-002', `hreflang ${problem}`, located, `alternates.${i}`);
    });
    report.rules(alternatesProblems(located.entry.loc, alternates), located, '', ['loc']);
    if (!this.xDefaultAdvised && !alternates.some((alternate) => alternate.hreflang.toLowerCase() === 'x-default')) {
      this.xDefaultAdvised = true;
      report.field(
        'HREF-006',
        'the hreflang cluster has no x-default; add one for the page shown to visitors whose language is not listed (a language selector or the generic version)',
        located,
        ['alternates.0', 'loc'],
      );
    }
  }
}

/**
 * One page's cluster, kept until the end of the run: its source's index, then each alternate's
 * href, line and column, in document order. One array rather than an object holding a hrefs and a
 * positions array: every page with hreflang links keeps one, and each object kept is one more the
 * garbage collector moves (most of what the graph cost on a large run).
 */
type Cluster = (string | number)[];

/** Slots of a cluster: its source, then three per alternate. */
const SOURCE_SLOT = 0;
const FIRST_ALTERNATE_SLOT = 1;
const ALTERNATE_SLOTS = 3;

function alternateCount(cluster: Cluster): number {
  return (cluster.length - FIRST_ALTERNATE_SLOT) / ALTERNATE_SLOTS;
}

function hrefAt(cluster: Cluster, i: number): string {
  return cluster[FIRST_ALTERNATE_SLOT + i * ALTERNATE_SLOTS] as string;
}

function positionAt(cluster: Cluster, i: number): Position {
  const at = FIRST_ALTERNATE_SLOT + i * ALTERNATE_SLOTS;
  return { line: cluster[at + 1] as number, column: cluster[at + 2] as number };
}

function hrefsOf(cluster: Cluster): string[] {
  return Array.from({ length: alternateCount(cluster) }, (_, i) => hrefAt(cluster, i));
}

/** The memory the clusters of one run may take, in MiB (about 400,000 clusters of five alternates). */
export const HREFLANG_BUDGET_MIB = 64;
/** What a cluster is charged beyond its strings' characters: the map entry, its array, the loc's header (kept generous: the budget counts as it did when a cluster was three objects). */
const CLUSTER_OVERHEAD_BYTES = 160;
/** And each alternate: its href's string header, its three slots. */
const ALTERNATE_OVERHEAD_BYTES = 48;

/**
 * Every hreflang cluster of the run, by the URL that declares it, checked when all sources have
 * been read: does each alternate name the declaring page back, and do both name the same cluster?
 * The clusters are kept within HREFLANG_BUDGET_MIB; past it new ones are not remembered.
 */
export class HreflangGraph {
  private readonly clusters = new Map<string, Cluster>();
  private bytes = 0;
  private spent = false;

  /** `budgetBytes`: the memory the clusters may take (tests give less). */
  constructor(private readonly budgetBytes = HREFLANG_BUDGET_MIB * 1_048_576) {}

  /** Remembers the entry's cluster; BUDGET_SPENT the first time one does not fit in the budget. */
  add(located: LocatedUrl, sourceIndex: number): typeof BUDGET_SPENT | undefined {
    const { alternates, loc } = located.entry;
    if (!alternates || alternates.length === 0 || this.clusters.has(loc)) return undefined;
    let cost = CLUSTER_OVERHEAD_BYTES + loc.length;
    for (const alternate of alternates) cost += alternate.href.length + ALTERNATE_OVERHEAD_BYTES;
    if (this.spent || this.bytes + cost > this.budgetBytes) {
      if (this.spent) return undefined;
      this.spent = true;
      return BUDGET_SPENT;
    }
    this.bytes += cost;
    const kept = detach(loc);
    const cluster: Cluster = [sourceIndex];
    for (let i = 0; i < alternates.length; i++) {
      const href = alternates[i]!.href;
      const position = fieldPosition(located.location, alternatePath(i));
      // The link to the page itself (HREF-003 asks every cluster for one) shares the loc's copy.
      cluster.push(href === loc ? kept : detach(href), position.line, position.column);
    }
    this.clusters.set(kept, cluster);
    return undefined;
  }

  /**
   * Reports HREF-004 and HREF-005 for each declaring URL, at most one of each per URL.
   * `isListed` tells whether a URL appears as a loc anywhere in the run.
   */
  finish(reporterFor: (sourceIndex: number) => Reporter, isListed: (url: string) => boolean): void {
    // The sorted hrefs of each cluster compared, joined by spaces: two clusters agree when their sets are equal.
    const signatures = new Map<Cluster, string>();
    const signatureOf = (cluster: Cluster): string => {
      let signature = signatures.get(cluster);
      if (signature === undefined) {
        signature = [...new Set(hrefsOf(cluster))].sort().join(' ');
        signatures.set(cluster, signature);
      }
      return signature;
    };
    for (const [loc, cluster] of this.clusters) {
      const report = reporterFor(cluster[SOURCE_SLOT] as number);
      let returnReported = false;
      let agreementReported = false;
      for (let i = 0; i < alternateCount(cluster); i++) {
        const href = hrefAt(cluster, i);
        // An href that is no URL was flagged by the parser (HREF-001): there is no page to check.
        if (href === loc || !looksAbsoluteHttp(href)) continue;
        const at = positionAt(cluster, i);
        const other = this.clusters.get(href);
        if (other === undefined) {
          if (returnReported) continue;
          returnReported = true;
          if (isListed(href)) {
            report.at(
              'HREF-004',
              `alternate ${quote(href)} has no hreflang links, so it does not link back to this URL and Google ignores the pair; give it the same cluster`,
              at,
              loc,
            );
          } else {
            report.at(
              'HREF-005',
              `alternate ${quote(href)} is not listed as a <loc> in the sitemaps validated, so its own cluster cannot be checked; list it with the same hreflang links`,
              at,
              loc,
              'warning',
            );
          }
        } else if (!hrefsOf(other).includes(loc)) {
          if (returnReported) continue;
          returnReported = true;
          report.at(
            'HREF-004',
            `alternate ${quote(href)} does not link back to this URL, so Google ignores the pair; add this URL to its hreflang links`,
            at,
            loc,
          );
        } else if (!agreementReported && signatureOf(other) !== signatureOf(cluster)) {
          agreementReported = true;
          report.at(
            'HREF-005',
            `this URL and its alternate ${quote(href)} list different hreflang clusters; give every page of a cluster the same set of links`,
            at,
            loc,
          );
        }
      }
    }
  }
}

/** Paths of the first alternates, made once: a position is looked up by them for every cluster. */
const ALTERNATE_PATHS = Array.from({ length: 16 }, (_, i) => `alternates.${i}`);

function alternatePath(i: number): string {
  return ALTERNATE_PATHS[i] ?? `alternates.${i}`;
}
