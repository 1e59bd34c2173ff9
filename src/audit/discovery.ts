/**
 * The first part of an audit: the sitemap tree walked once (robots.txt, well-known locations,
 * indexes), every document checked by the validator as it streams by, and every listed URL put in
 * the audit's listings (./listings.ts), the first listing of each kept, the others remembered as
 * repeats. What the sitemaps themselves get wrong (the validator's problems, sitemaps that could
 * not be read, robots.txt's Sitemap: lines) becomes the audit's site-wide findings.
 */
import { RULES } from '../core/catalog.js';
import { diagnostic, type Diagnostic, type Severity } from '../core/diagnostics.js';
import type { Entry } from '../core/entry.js';
import { fingerprint } from '../core/fingerprint.js';
import { eachNode, walkSitemapTree, type TreeNode, type TreeOptions, type TreeProgress } from '../discover/tree.js';
import type { HttpClient } from '../http/client.js';
import { TreeSpill } from '../store/tree-spill.js';
import { SitemapSetValidator } from '../validate/sitemap-set.js';
import { siteHost } from './check.js';
import type { ListingSink, NewListing } from './listings.js';

/** One sitemap of the tree, as the report lists it. */
export interface SitemapSummary {
  url: string;
  foundBy: TreeNode['foundBy'];
  status?: number;
  kind?: string;
  urls: number;
  /** Fetched and read to its end. */
  ok: boolean;
  errors: number;
  warnings: number;
  infos: number;
}

/** The problems of one code across the sitemaps: all counted, the first ones kept. */
export interface SiteProblem {
  code: string;
  severity: Severity;
  count: number;
  examples: Diagnostic[];
}

export interface Discovery {
  /** The site audited: its origin with a slash, or the first sitemap's when sitemap URLs were given. */
  site: string;
  /** robots.txt and its Sitemap: lines, when a site was given. */
  robots?: { url: string; sitemaps: string[] };
  /** The first SITEMAPS_KEPT sitemaps of the tree, in tree order. */
  sitemaps: SitemapSummary[];
  /**
   * Every sitemap of the tree counted, and those read whole (absent in a discovery kept by an
   * older release, whose `sitemaps` held them all).
   */
  sitemapCount?: number;
  sitemapsRead?: number;
  /** Page entries listed, repeats included. */
  entries: number;
  /** Every problem of the sitemaps, by code, in the order met. */
  problems: SiteProblem[];
  /** Hosts that answer over https (lower case, without www.). */
  httpsHosts: string[];
  /** False when the walk was stopped. */
  complete: boolean;
}

export interface DiscoveryOptions {
  /** Where every listed URL goes. */
  state: ListingSink;
  http: HttpClient;
  /** The audit's clock (epoch ms). */
  now: number;
  maxDepth?: number | undefined;
  concurrency?: number | undefined;
  perHost?: TreeOptions['perHost'];
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: TreeProgress) => void) | undefined;
}

/**
 * Codes of page entries the audit shows on the URL's row instead (duplicate-listing and
 * lastmod-future), so they are not counted twice.
 */
const ROW_CODES = new Set(['URL-006', 'DATE-005']);

/** Examples kept per code of the site-wide problems. */
const EXAMPLES_PER_CODE = 100;

/** Sitemaps kept as summaries (the report lists as many): the others are counted. */
export const SITEMAPS_KEPT = 1000;

export async function discoverListings(
  input: string | readonly string[],
  options: DiscoveryOptions,
): Promise<Discovery> {
  const { state } = options;
  const validator = new SitemapSetValidator({ now: options.now });
  const walk = walkSitemapTree(input, {
    http: options.http,
    maxDepth: options.maxDepth,
    concurrency: options.concurrency,
    perHost: options.perHost,
    signal: options.signal,
    onProgress: options.onProgress,
    examplesPerCode: EXAMPLES_PER_CODE,
    examplesPerCodeInTree: EXAMPLES_PER_CODE, // the report keeps no more of a code over the site
    spill: () => new TreeSpill<TreeNode>(), // a big tree's records wait in a scratch file
    inspect: (document) => {
      let current: Entry['kind'] = 'url';
      const checks = validator.document({
        ...document,
        report: (d) => {
          if (current !== 'url' || !ROW_CODES.has(d.code)) return document.report(d);
          if (d.code === 'URL-006' && d.url !== undefined)
            state.addRepeat(d.url, { sitemap: document.url, line: d.line ?? null, detail: d.message });
        },
      });
      return {
        entry: (located) => {
          current = located.entry.kind;
          checks.entry(located);
        },
        end: (kind, hadErrors) => checks.end(kind, hadErrors),
      };
    },
  });
  const scratch = new Uint32Array(2);
  for await (const batch of walk.batches()) {
    const listings: NewListing[] = batch.map(({ entry, source, line }) => {
      fingerprint(entry.loc, scratch);
      return {
        url: entry.loc,
        sitemap: source,
        line,
        lastmod: entry.lastmod,
        alternates: entry.alternates && entry.alternates.length > 0 ? JSON.stringify(entry.alternates) : undefined,
        // 53 bits of the URL's fingerprint: an order that depends on nothing but the URL.
        sampleKey: scratch[0]! * 2 ** 21 + (scratch[1]! >>> 11),
      };
    });
    state.addListings(listings);
  }
  // The tree as the walk left it: a big one is read back from its scratch file, one node at a time.
  const view = await walk.view;
  const { tree } = view;
  const problems = new ProblemTally();
  for (const d of [...(tree.robots?.diagnostics ?? []), ...tree.diagnostics]) problems.add(d);
  const sitemaps: SitemapSummary[] = [];
  let sitemapCount = 0;
  let sitemapsRead = 0;
  const httpsHosts = new Set<string>();
  try {
    for (const node of eachNode(tree.roots, view.childrenOf)) {
      sitemapCount += 1;
      if (node.ok) sitemapsRead += 1;
      if (sitemaps.length < SITEMAPS_KEPT) sitemaps.push(summaryOf(node));
      problems.addNode(node);
      const answered = new URL(node.finalUrl ?? node.url);
      if (node.status !== undefined && answered.protocol === 'https:') httpsHosts.add(siteHost(answered.hostname));
    }
  } finally {
    view.close();
  }
  const site = siteOf(tree.robots?.url, tree.roots[0]?.url, input);
  const robotsUrl = tree.robots && new URL(tree.robots.url);
  if (robotsUrl?.protocol === 'https:' && tree.robots?.status !== undefined)
    httpsHosts.add(siteHost(robotsUrl.hostname));
  validator.finish((d) => problems.add(d), `all sitemaps of ${site}`);
  for (const d of robotsProblems(tree.mode, tree.robots, tree.roots)) problems.add(d);
  return {
    site,
    ...(tree.robots ? { robots: { url: tree.robots.url, sitemaps: tree.robots.sitemaps } } : {}),
    sitemaps,
    sitemapCount,
    sitemapsRead,
    entries: tree.totals.urls,
    problems: problems.list(),
    httpsHosts: [...httpsHosts],
    complete: tree.complete,
  };
}

/**
 * What robots.txt's Sitemap: lines get wrong: none at all (ROBOTS-006), or one naming a sitemap
 * that cannot be read (ROBOTS-007).
 */
function robotsProblems(
  mode: 'site' | 'sitemaps',
  robots: { url: string; status?: number | undefined; outcome: string; sitemaps: string[] } | undefined,
  roots: readonly TreeNode[],
): Diagnostic[] {
  if (mode !== 'site' || !robots || robots.outcome === 'unreachable') return [];
  if (robots.sitemaps.length === 0) {
    const found = roots[0] ? `; the sitemap was found at ${roots[0].url}` : '';
    // No robots.txt at all (a 404) is said as such: there is no file to hold the line yet.
    const what =
      robots.outcome === 'unavailable' && robots.status !== undefined && robots.status !== 200
        ? `${robots.url} answers HTTP ${robots.status}: the site has no robots.txt, so none names its sitemap (publish one with a Sitemap: line)`
        : `${robots.url} has no Sitemap: line`;
    return [diagnostic('ROBOTS-006', `${what}${found}`, { source: robots.url })];
  }
  return roots
    .filter((root) => root.foundBy === 'robots' && !root.ok)
    .map((root) => {
      const answer =
        root.status !== undefined
          ? `answers HTTP ${root.status}`
          : root.kind !== undefined
            ? `is not a sitemap (${root.kind})`
            : 'gives no answer';
      const what = root.status === 200 ? `could not be read whole` : answer;
      return diagnostic('ROBOTS-007', `${robots.url} names ${root.url}, which ${what}`, {
        source: robots.url,
        url: root.url,
      });
    });
}

function summaryOf(node: TreeNode): SitemapSummary {
  return {
    url: node.url,
    foundBy: node.foundBy,
    ...(node.status === undefined ? {} : { status: node.status }),
    ...(node.kind === undefined ? {} : { kind: node.kind }),
    urls: node.urls,
    ok: node.ok,
    errors: node.errors,
    warnings: node.warnings,
    infos: node.infos,
  };
}

/** The site of the audit: robots.txt's origin, else the first sitemap's, else the input's. */
function siteOf(
  robotsUrl: string | undefined,
  firstRoot: string | undefined,
  input: string | readonly string[],
): string {
  const url = robotsUrl ?? firstRoot ?? (typeof input === 'string' ? input : input[0]!);
  try {
    return `${new URL(url).origin}/`;
  } catch {
    return url;
  }
}

/**
 * The site-wide problems by code: every diagnostic counted (a sitemap's by its record's counts,
 * which cover the problems it did not keep), the first EXAMPLES_PER_CODE of each kept.
 */
class ProblemTally {
  private readonly codes = new Map<string, SiteProblem>();

  add(d: Diagnostic): void {
    this.tallyOf(d).count += 1;
    this.keep(d);
  }

  /**
   * A sitemap's problems: counted by its record (all of them), its kept ones as examples. A node
   * may keep no example of a code it counts (the tree's cap was reached on other nodes): the
   * code's severity is then the one already met, else the catalog's.
   */
  addNode(node: TreeNode): void {
    for (const d of node.diagnostics) this.keep(d);
    for (const [code, count] of Object.entries(node.codes)) {
      const severity =
        node.diagnostics.find((d) => d.code === code)?.severity ??
        this.codes.get(code)?.severity ??
        RULES[code]?.severity ??
        'error';
      this.tallyOf({ code, severity }).count += count;
    }
  }

  list(): SiteProblem[] {
    return [...this.codes.values()];
  }

  private tallyOf(d: Pick<Diagnostic, 'code' | 'severity'>): SiteProblem {
    let tally = this.codes.get(d.code);
    if (!tally) this.codes.set(d.code, (tally = { code: d.code, severity: d.severity, count: 0, examples: [] }));
    return tally;
  }

  private keep(d: Diagnostic): void {
    const tally = this.tallyOf(d);
    if (tally.examples.length < EXAMPLES_PER_CODE) tally.examples.push(d);
  }
}
