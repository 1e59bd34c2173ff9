/**
 * The sitemap tree as data: one small record per sitemap (status, bytes, kind, counts, lastmod
 * range, problems), the totals over the tree, and the summary of a walk. Plain objects, the same in
 * the library and in `tree --json`.
 */
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import type { Diagnostic, Severity } from '../core/diagnostics.js';
import type { ReadOutcome } from '../core/outcome.js';
import type { DocumentKind } from '../core/entry.js';
import type { Redirect } from '../http/client.js';
import { InstantCache, LastmodRange } from './lastmod-range.js';
import type { RobotsOutcome } from './robots.js';
import type { Probe } from './well-known.js';

/**
 * How a sitemap of the tree was found: robots.txt, a well-known location, given, or listed by an
 * index.
 */
export type FoundBy = 'robots' | 'well-known' | 'index' | 'explicit';

/** One sitemap of the tree: its answer, kind, counts, bytes, lastmod range, problems and children. */
export interface TreeNode {
  url: string;
  foundBy: FoundBy;
  /** The index that listed this sitemap (for `foundBy: 'index'`). */
  parent?: string;
  /** 0 for roots. */
  depth: number;
  /** Final HTTP status; absent when no response came (or the sitemap was not fetched). */
  status?: number;
  /** Where the redirects ended, when there were any. */
  finalUrl?: string;
  redirects: Redirect[];
  /** Bytes received (compressed, when the file or the transfer was gzip). */
  bytesIn: number;
  /** Bytes of the document after decompression. */
  bytesDecoded: number;
  gzip: boolean;
  kind?: DocumentKind;
  /** Page URLs listed. */
  urls: number;
  /** Child sitemaps listed (indexes). */
  sitemaps: number;
  newestLastmod?: string;
  oldestLastmod?: string;
  durationMs: number;
  /** True when the document was fetched (200) and read to its end as a sitemap: nothing in it was lost. */
  ok: boolean;
  /** How the document was read (core/outcome.ts); `ok` is true for whole and unchanged. */
  read: ReadOutcome;
  /**
   * With conditional fetches (tree --state): the sitemap is as it was when last read (a 304, or
   * the same body); its counts and lastmod range are the remembered ones.
   */
  unchanged?: boolean;
  /** Every problem counted, by severity and by code; `diagnostics` keeps the first few of each code. */
  errors: number;
  warnings: number;
  infos: number;
  codes: Record<string, number>;
  diagnostics: Diagnostic[];
  diagnosticCount: number;
  children: TreeNode[];
}

/** The problems of a document as remembered (tree --state): the examples kept, and every code's count. */
export interface RememberedProblems {
  examples: Diagnostic[];
  counts: { code: string; severity: Severity; count: number }[];
}

/** Sums over the whole tree: sitemaps read and failed, URLs, bytes, and every problem counted. */
export interface TreeTotals {
  /** Sitemaps in the tree (fetched or attempted). */
  sitemaps: number;
  read: number;
  failed: number;
  urls: number;
  bytesIn: number;
  bytesDecoded: number;
  /** Every problem shown: of the sitemaps, of robots.txt and of the walk itself. */
  errors: number;
  warnings: number;
  infos: number;
  newestLastmod?: string;
  oldestLastmod?: string;
  /** Sitemaps found unchanged since the last walk (with conditional fetches). */
  unchanged?: number;
}

/** What the tree walk read in robots.txt. */
export interface RobotsSummary {
  url: string;
  status?: number;
  outcome: RobotsOutcome;
  sitemaps: string[];
  diagnostics: Diagnostic[];
}

/**
 * A site's sitemap tree: how its roots were found, every sitemap with its counts and problems, and
 * totals.
 */
export interface SitemapTree {
  /** What was asked for, and how it was read: a site (robots.txt, well-known) or sitemap URLs. */
  input: string;
  mode: 'site' | 'sitemaps';
  robots?: RobotsSummary;
  /** Well-known locations tried (only when robots.txt declared no sitemap). */
  probes: Probe[];
  roots: TreeNode[];
  totals: TreeTotals;
  /** Problems of the walk itself, e.g. that no sitemap was found. */
  diagnostics: Diagnostic[];
  /** False when the walk was stopped before the end. */
  complete: boolean;
  durationMs: number;
}

/** Counts of a running tree walk, for a progress line. */
export interface TreeProgress {
  nodesDone: number;
  nodesKnown: number;
  urls: number;
  bytesIn: number;
  elapsedMs: number;
}

export function newRecord(url: string, foundBy: FoundBy, depth: number, parent?: string): TreeNode {
  return {
    url,
    foundBy,
    ...(parent === undefined ? {} : { parent }),
    depth,
    redirects: [],
    bytesIn: 0,
    bytesDecoded: 0,
    gzip: false,
    urls: 0,
    sitemaps: 0,
    durationMs: 0,
    ok: false,
    read: 'not-read',
    errors: 0,
    warnings: 0,
    infos: 0,
    codes: {},
    diagnostics: [],
    diagnosticCount: 0,
    children: [],
  };
}

/**
 * The problems of one node: all counted, the first `examplesPerCode` of each code kept, in the
 * order met, while the whole tree has kept fewer than its own cap of that code.
 */
export class NodeProblems {
  /** Made at the first problem: most sitemaps of a big tree have none, and a tally is a Map. */
  private counted: DiagnosticTally | undefined;

  /** `tree`: the tally of the whole tree, whose cap per code bounds the examples of all nodes together. */
  constructor(
    private readonly record: TreeNode,
    private readonly examplesPerCode: number,
    private readonly tree?: DiagnosticTally,
  ) {}

  private get tally(): DiagnosticTally {
    return (this.counted ??= new DiagnosticTally(this.examplesPerCode, this.tree));
  }

  add(d: Diagnostic): void {
    if (this.tally.add(d)) this.record.diagnostics.push(d);
  }

  /** Errors so far (the record's count is written by settle()). */
  get errors(): number {
    return this.counted?.errors ?? 0;
  }

  has(code: string): boolean {
    return this.counted?.byCode().some((tally) => tally.code === code) ?? false;
  }

  hasAny(codes: ReadonlySet<string>): boolean {
    return this.counted?.byCode().some((tally) => codes.has(tally.code)) ?? false;
  }

  /**
   * The problems remembered of a document found unchanged, counted again: its examples as they
   * were, and the rest of each code's count.
   */
  replay(remembered: RememberedProblems): void {
    for (const d of remembered.examples) this.add(d);
    const kept = new Map<string, number>();
    for (const d of remembered.examples) kept.set(d.code, (kept.get(d.code) ?? 0) + 1);
    for (const { code, severity, count } of remembered.counts)
      this.tally.addUnkept(code, severity, count - (kept.get(code) ?? 0));
  }

  /** What to remember of the problems, leaving out `fresh` ones (reported again with each answer). */
  remember(fresh: readonly Diagnostic[]): RememberedProblems {
    const left = new Set(fresh);
    const examples = this.record.diagnostics.filter((d) => !left.has(d));
    const counts = (this.counted?.byCode() ?? [])
      .map(({ code, severity, count }) => ({
        code,
        severity,
        count: count - fresh.filter((d) => d.code === code).length,
      }))
      .filter((tally) => tally.count > 0);
    return { examples, counts };
  }

  /** Forgets every problem, for a document read again. */
  reset(): void {
    this.counted = undefined;
    this.record.diagnostics = [];
  }

  /** Writes the counts into the record. */
  settle(): void {
    const { record, counted } = this;
    record.errors = counted?.errors ?? 0;
    record.warnings = counted?.warnings ?? 0;
    record.infos = counted?.infos ?? 0;
    record.diagnosticCount = counted?.total ?? 0;
    record.codes = counted ? Object.fromEntries(counted.byCode().map((code) => [code.code, code.count])) : {};
  }
}

/**
 * Where the children of a node are: in its own `children` (a tree held in memory), or in the
 * scratch store a big walk spilled its records to, read as they are asked for (then `children` is
 * empty). Every reader of a whole tree goes through one.
 */
export type ChildrenOf = (node: TreeNode) => Iterable<TreeNode>;

/** The children of a tree held in memory. */
export const ownChildren: ChildrenOf = (node) => node.children;

/**
 * A walked tree as the walk left it: the summary, its roots, and where each node's children are.
 * `close()` lets go of the scratch store (deleted); nothing may be read after it.
 */
export interface SitemapTreeView {
  tree: SitemapTree;
  childrenOf: ChildrenOf;
  /** Lets go of the scratch store (its file deleted); safe to call twice. */
  close(): void;
}

/** Every node below and including `roots`, depth first, in tree order. */
export function* eachNode(roots: Iterable<TreeNode>, childrenOf: ChildrenOf = ownChildren): Generator<TreeNode> {
  for (const node of roots) {
    yield node;
    yield* eachNode(childrenOf(node), childrenOf);
  }
}

/** The sitemaps of the tree not read whole (not fetched, or cut off): what they list may be missing. */
export function unreadNodes(roots: Iterable<TreeNode>, childrenOf: ChildrenOf = ownChildren): TreeNode[] {
  const unread: TreeNode[] = [];
  for (const node of eachNode(roots, childrenOf)) if (!node.ok) unread.push(node);
  return unread;
}

/** How each sitemap of the tree was read, in tree order. */
export function* readOutcomes(roots: Iterable<TreeNode>, childrenOf: ChildrenOf = ownChildren): Generator<ReadOutcome> {
  for (const node of eachNode(roots, childrenOf)) yield node.read;
}

const COUNT_OF = { error: 'errors', warning: 'warnings', info: 'infos' } as const;

/** Sums over every node of the tree, plus the problems of robots.txt and of the walk (`more`). */
export function totalsOf(
  roots: Iterable<TreeNode>,
  more: readonly Diagnostic[] = [],
  childrenOf: ChildrenOf = ownChildren,
): TreeTotals {
  const sum = new TotalsSum();
  for (const node of eachNode(roots, childrenOf)) sum.add(node);
  return sum.totals(more);
}

/** Sums of nodes added one at a time (each node alone, not its children). */
export class TotalsSum {
  private readonly sums: TreeTotals = {
    sitemaps: 0,
    read: 0,
    failed: 0,
    urls: 0,
    bytesIn: 0,
    bytesDecoded: 0,
    errors: 0,
    warnings: 0,
    infos: 0,
  };
  private readonly range = new LastmodRange(new InstantCache(64));

  add(node: TreeNode): void {
    const totals = this.sums;
    totals.sitemaps += 1;
    if (node.ok) totals.read += 1;
    else totals.failed += 1;
    if (node.unchanged) totals.unchanged = (totals.unchanged ?? 0) + 1;
    totals.urls += node.urls;
    totals.bytesIn += node.bytesIn;
    totals.bytesDecoded += node.bytesDecoded;
    totals.errors += node.errors;
    totals.warnings += node.warnings;
    totals.infos += node.infos;
    if (node.newestLastmod) this.range.add(node.newestLastmod);
    if (node.oldestLastmod) this.range.add(node.oldestLastmod);
  }

  /** The sums, with the problems of robots.txt and of the walk (`more`) counted too. */
  totals(more: readonly Diagnostic[] = []): TreeTotals {
    const totals = { ...this.sums };
    for (const d of more) totals[COUNT_OF[d.severity]] += 1;
    if (this.range.newest) totals.newestLastmod = this.range.newest;
    if (this.range.oldest) totals.oldestLastmod = this.range.oldest;
    return totals;
  }
}
