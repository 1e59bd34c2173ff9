/**
 * hreflang rules (RULES.md §9). On each entry: valid language codes (HREF-002), the entry lists
 * itself (HREF-003), one language per URL (HREF-005). Across all entries of all sources: return
 * links (HREF-004) and clusters that agree (HREF-005), which needs every cluster remembered until
 * the end. Missing attributes (HREF-001) are the parser's.
 */
import type { Alternate, UrlEntry } from '../core/entry.js';
import type { Position } from '../core/position.js';
import type { LocatedEntry } from '../parse/types.js';
import { COUNTRY_CODES, LANGUAGE_CODES } from './codes.js';
import { detach } from '../core/detach.js';
import { fieldPosition, quote, type Reporter } from './reporter.js';

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

const HREFLANG_SHAPE = /^([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?$/i;

/** Why an hreflang value is not accepted, or undefined when it is. */
export function hreflangProblem(value: string): string | undefined {
  if (value.toLowerCase() === 'x-default') return undefined;
  const match = HREFLANG_SHAPE.exec(value);
  const language = match?.[1]?.toLowerCase();
  if (!match || language === undefined) {
    return `"${value}" is not a language code; write an ISO 639-1 language, optionally with a script and a region ("de", "zh-Hant", "en-GB"), or x-default`;
  }
  if (!LANGUAGE_CODES.has(language)) {
    return COUNTRY_CODES.has(language) && match[2] === undefined && match[3] === undefined
      ? `"${value}" is a region without a language; write the language first, e.g. "en-${value.toUpperCase()}"`
      : `"${language}" is not an ISO 639-1 language code`;
  }
  const region = match[3];
  if (region !== undefined && !COUNTRY_CODES.has(region.toLowerCase())) {
    return region.toUpperCase() === 'UK'
      ? `"${value}" uses UK, which is not a country code; the United Kingdom is GB ("${language}-GB")`
      : `"${region}" in "${value}" is not an ISO 3166-1 alpha-2 country code`;
  }
  return undefined;
}

export class HreflangRules {
  /** HREF-006 is advice: once per document. */
  private xDefaultAdvised = false;

  check(located: LocatedUrl, report: Reporter): void {
    const alternates = located.entry.alternates;
    if (!alternates || alternates.length === 0) return;
    const byLanguage = new Map<string, string>();
    let listsItself = false;
    let hasDefault = false;
    alternates.forEach((alternate, i) => {
      const language = alternate.hreflang.toLowerCase();
      const problem = hreflangProblem(alternate.hreflang);
      if (problem) report.field('HREF-002', `hreflang ${problem}`, located, `alternates.${i}`);
      if (alternate.href === located.entry.loc) listsItself = true;
      if (language === 'x-default') hasDefault = true;
      const other = byLanguage.get(language);
      if (other !== undefined && other !== alternate.href) {
        report.field(
          'HREF-005',
          `hreflang "${alternate.hreflang}" points to both ${quote(other)} and ${quote(alternate.href)}; each language must map to one URL`,
          located,
          `alternates.${i}`,
        );
      }
      byLanguage.set(language, alternate.href);
    });
    if (!listsItself) {
      report.field(
        'HREF-003',
        `the URL's hreflang links do not include the URL itself; add <xhtml:link rel="alternate" hreflang="…" href="${located.entry.loc}"/> with its own language`,
        located,
        ['alternates.0', 'loc'],
      );
    }
    if (!hasDefault && !this.xDefaultAdvised) {
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

interface Cluster {
  sourceIndex: number;
  /** The sorted hrefs of the cluster, joined by spaces (computed when first compared). */
  signature?: string;
  /** Position of each alternate as [line, column, line, column, …], in document order. */
  positions: number[];
  hrefs: string[];
}

/**
 * Every hreflang cluster of the run, by the URL that declares it, checked when all sources have
 * been read: does each alternate name the declaring page back, and do both name the same cluster?
 */
export class HreflangGraph {
  private readonly clusters = new Map<string, Cluster>();

  add(located: LocatedUrl, sourceIndex: number): void {
    const alternates = located.entry.alternates;
    if (!alternates || alternates.length === 0 || this.clusters.has(located.entry.loc)) return;
    const positions: number[] = [];
    alternates.forEach((_, i) => {
      const position: Position = fieldPosition(located.location, `alternates.${i}`);
      positions.push(position.line, position.column);
    });
    const hrefs = alternates.map((alternate: Alternate) => detach(alternate.href));
    this.clusters.set(detach(located.entry.loc), { sourceIndex, positions, hrefs });
  }

  /**
   * Reports HREF-004 and HREF-005 for each declaring URL, at most one of each per URL.
   * `isListed` tells whether a URL appears as a loc anywhere in the run.
   */
  finish(reporterFor: (sourceIndex: number) => Reporter, isListed: (url: string) => boolean): void {
    for (const [loc, cluster] of this.clusters) {
      const report = reporterFor(cluster.sourceIndex);
      let returnReported = false;
      let agreementReported = false;
      cluster.hrefs.forEach((href, i) => {
        if (href === loc) return;
        const at: Position = { line: cluster.positions[2 * i]!, column: cluster.positions[2 * i + 1]! };
        const other = this.clusters.get(href);
        if (other === undefined) {
          if (returnReported) return;
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
        } else if (!other.hrefs.includes(loc)) {
          if (returnReported) return;
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
      });
    }
  }
}

/** Two clusters agree when their sets of hrefs are equal. */
function signatureOf(cluster: Cluster): string {
  cluster.signature ??= [...new Set(cluster.hrefs)].sort().join(' ');
  return cluster.signature;
}
