/**
 * The sitemap tree for a person, drawn like the `tree` command: one line per sitemap with its
 * status, kind, counts, bytes and lastmod range, its problems beneath it, and the totals at the
 * end. Past a screenful of siblings the rest are summed up on one line, so an index of 50,000
 * failing children prints a page, not 100,000 lines. And the same tree as one JSON document for
 * machines.
 */
import { RULES } from '../core/catalog.js';
import { formatDiagnostic, type Diagnostic, type Severity } from '../core/diagnostics.js';
import { forTerminal } from '../core/terminal.js';
import {
  eachNode,
  ownChildren,
  TotalsSum,
  type ChildrenOf,
  type SitemapTree,
  type TreeNode,
} from '../discover/tree-model.js';
import { countOf, formatBytes, formatFolded, formatNumber } from './format.js';
import { painter, type Style } from './paint.js';

/** How {@link renderTree} draws: problems per rule, siblings per level, colours. */
export interface TreeReportOptions {
  /**
   * Problems shown of each rule code under each node (default 20; 0: all the walk kept); the
   * rest are counted. The walk keeps at most its `examplesPerCode` of each.
   */
  maxPerRule?: number;
  /** Siblings drawn one per line before the rest are summed up on one line (default 20). */
  maxSiblings?: number;
  /** ANSI colours (only on a terminal). */
  color?: boolean;
}

/**
 * The tree for a terminal, as `sitemapkit tree` prints it. `childrenOf`: where the nodes' children
 * are, for a tree the walk left in its scratch file (fetchSitemapTreeView).
 */
export function renderTree(
  tree: SitemapTree,
  options: TreeReportOptions = {},
  childrenOf: ChildrenOf = ownChildren,
): string {
  return new TreeRenderer(tree, options, childrenOf).render();
}

/** The tree as the JSON document of `tree --json`. */
export function treeToJson(tree: SitemapTree): string {
  return [...treeJsonChunks(tree)].join('');
}

/**
 * The JSON document of {@link treeToJson} in pieces, node by node, for a writer to send as it
 * goes: a tree of a million sitemaps is more text than one string may hold ("Invalid string
 * length"), and holding it whole would double the memory of the walk. The pieces, joined, are
 * `JSON.stringify(tree, null, 2)` and a newline, whether the children are in the nodes or read
 * through `childrenOf` as they are written.
 */
export function* treeJsonChunks(tree: SitemapTree, childrenOf: ChildrenOf = ownChildren): Generator<string> {
  const fields = tree as unknown as Record<string, unknown>;
  yield* objectChunks(fields, '', (key) => (key === 'roots' ? tree.roots : undefined), childrenOf);
  yield '\n';
}

/**
 * An object that holds nodes (the tree, a node) key by key, its plain fields gathered into one
 * piece, and the field that holds nodes (`nodesAt` gives them) one node at a time.
 */
function* objectChunks(
  value: Record<string, unknown>,
  indent: string,
  nodesAt: (key: string) => Iterable<TreeNode> | undefined,
  childrenOf: ChildrenOf,
): Generator<string> {
  const inner = `${indent}  `;
  let text = '';
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    text += `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    const nodes = nodesAt(key);
    if (nodes) {
      let count = 0;
      for (const node of nodes) {
        yield `${text}${count++ === 0 ? '[' : ','}\n${inner}  `;
        text = '';
        yield* nodeChunks(node, `${inner}  `, childrenOf);
      }
      // An empty array is JSON.stringify's "[]".
      text += count === 0 ? '[]' : `\n${inner}]`;
    } else text += JSON.stringify(field, null, 2).replace(/\n/g, `\n${inner}`);
  }
  yield `${text}${first ? '{}' : `\n${indent}}`}`;
}

function nodeChunks(node: TreeNode, indent: string, childrenOf: ChildrenOf): Generator<string> {
  const record = node as unknown as Record<string, unknown>;
  return objectChunks(record, indent, (key) => (key === 'children' ? childrenOf(node) : undefined), childrenOf);
}

class TreeRenderer {
  private readonly lines: string[] = [];
  private readonly origin: string | undefined;
  private readonly maxPerRule: number;
  private readonly maxSiblings: number;
  private readonly paint: (style: Style, text: string) => string;

  constructor(
    private readonly tree: SitemapTree,
    private readonly options: TreeReportOptions,
    private readonly childrenOf: ChildrenOf,
  ) {
    this.maxPerRule = options.maxPerRule ?? 20;
    this.maxSiblings = options.maxSiblings ?? 20;
    this.origin = originOf(tree);
    this.paint = painter(options.color ?? false);
  }

  render(): string {
    this.header();
    this.siblings(this.tree.roots[Symbol.iterator](), '');
    for (const d of this.tree.diagnostics) this.lines.push(this.problem(d, undefined));
    this.lines.push('', this.totals());
    return `${this.lines.join('\n')}\n`;
  }

  private header(): void {
    const { tree } = this;
    this.lines.push(this.paint('bold', forTerminal(this.origin ?? tree.input)));
    if (tree.robots) {
      const { robots } = tree;
      const status = robots.status === undefined ? 'no answer' : `HTTP ${robots.status}`;
      const meaning = {
        ok: `${countOf(robots.sitemaps.length, 'sitemap')} declared`,
        unavailable: 'no rules',
        unreachable: 'unreachable: crawling disallowed',
      }[robots.outcome];
      this.lines.push(`robots.txt: ${status}, ${meaning}`);
      for (const d of robots.diagnostics) this.lines.push(this.problem(d, robots.url, '  '));
    }
    if (tree.probes.length > 0) {
      const probes = tree.probes.map(
        (p) =>
          `${this.short(p.url)} ${p.outcome === 'found' ? this.paint('ok', 'found') : (p.status ?? p.outcome)}${p.outcome === 'html' ? ' (HTML)' : ''}`,
      );
      this.lines.push(`well-known locations: ${probes.join(', ')}`);
    }
  }

  private node(node: TreeNode, indent: string, last: boolean): void {
    const branch = last ? '└── ' : '├── ';
    const below = indent + (last ? '    ' : '│   ');
    this.lines.push(`${indent}${branch}${this.paint('bold', this.short(node.url))}  ${this.facts(node)}`);
    const children = this.childrenOf(node)[Symbol.iterator]();
    // The first child read ahead: whether there is one decides the problems' indent.
    const first = children.next();
    const problemIndent = below + (first.done ? '  ' : '│ ');
    const shown = new Map<string, { severity: Severity; count: number }>();
    for (const d of node.diagnostics) {
      const code = shown.get(d.code) ?? { severity: d.severity, count: 0 };
      shown.set(d.code, code);
      if (this.maxPerRule !== 0 && code.count >= this.maxPerRule) continue;
      code.count += 1;
      this.lines.push(this.problem(d, node.url, problemIndent));
    }
    // Every problem of the node is counted in `codes`, also those the walk kept no example of.
    for (const [code, count] of Object.entries(node.codes)) {
      // A node past the tree's cap of examples may keep none of a code: its severity is the catalog's.
      const { severity, count: printed } = shown.get(code) ?? { severity: RULES[code]?.severity ?? 'error', count: 0 };
      if (count > printed)
        this.lines.push(
          `${problemIndent}${this.paint('dim', formatFolded({ code, severity, count: count - printed }))}`,
        );
    }
    if (!first.done) this.siblings(children, below, first.value);
  }

  /**
   * The first `maxSiblings` nodes one per line, the rest summed up on one line; read as they come
   * (`first`: one already read), so an index of 50,000 children is never a list in memory.
   */
  private siblings(nodes: Iterator<TreeNode>, indent: string, first?: TreeNode): void {
    const head: TreeNode[] = first ? [first] : [];
    // One past the limit tells a level that is drawn whole from one that is summed up.
    for (let next; head.length <= this.maxSiblings + 1 && !(next = nodes.next()).done;) head.push(next.value);
    if (head.length <= this.maxSiblings + 1) {
      head.forEach((node, i) => this.node(node, indent, i === head.length - 1));
      return;
    }
    head.slice(0, this.maxSiblings).forEach((node) => this.node(node, indent, false));
    const rest = head.slice(this.maxSiblings);
    this.lines.push(`${indent}└── ${this.summary(chain(rest, { [Symbol.iterator]: () => nodes }))}`);
  }

  /** "… 49,980 more sitemaps: 12 read, 49,968 failed (FETCH-001 ×49,968) · 1,200 URLs (see --json)" */
  private summary(nodes: Iterable<TreeNode>): string {
    const sum = new TotalsSum();
    const codes = new Map<string, number>();
    for (const node of eachNode(nodes, this.childrenOf)) {
      sum.add(node);
      for (const [code, n] of Object.entries(node.codes)) codes.set(code, (codes.get(code) ?? 0) + n);
    }
    const totals = sum.totals();
    const problems = [...codes].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ×${formatNumber(n)}`);
    const read = `${formatNumber(totals.read)} read, ${formatNumber(totals.failed)} failed`;
    const parts = [
      `… ${countOf(totals.sitemaps, 'more sitemap')}: ${read}${problems.length > 0 ? ` (${problems.join(', ')})` : ''}`,
    ];
    if (totals.urls > 0) parts.push(countOf(totals.urls, 'URL'));
    return `${this.paint(totals.failed > 0 ? 'error' : 'dim', parts.join(' · '))} ${this.paint('dim', '(see --json)')}`;
  }

  /** "✓ 200 urlset · 1,204 URLs · 38.1 KiB gzip → 412.0 KiB · 2024-01-05 … 2024-05-01 · 120 ms" */
  private facts(node: TreeNode): string {
    const parts: string[] = [];
    const status = node.status === undefined ? 'no answer' : String(node.status);
    parts.push(
      node.ok
        ? this.paint('ok', `✓ ${status}`)
        : this.paint('error', `✗ ${node.diagnostics.some((d) => d.code === 'FETCH-003') ? 'blocked' : status}`),
    );
    if (node.unchanged) parts.push('unchanged');
    if (node.redirects.length > 0) parts.push(`via ${countOf(node.redirects.length, 'redirect')}`);
    if (node.kind) parts.push(node.kind);
    if (node.kind === 'sitemapindex') parts.push(countOf(node.sitemaps, 'sitemap'));
    else if (node.status === 200 || node.unchanged) parts.push(countOf(node.urls, 'URL'));
    if (node.bytesDecoded > 0 || node.bytesIn > 0) {
      parts.push(
        node.gzip
          ? `${formatBytes(node.bytesIn)} gzip → ${formatBytes(node.bytesDecoded)}`
          : formatBytes(node.bytesDecoded),
      );
    }
    if (node.oldestLastmod && node.newestLastmod) {
      parts.push(
        node.oldestLastmod === node.newestLastmod
          ? `lastmod ${node.newestLastmod}`
          : `lastmod ${node.oldestLastmod} … ${node.newestLastmod}`,
      );
    }
    parts.push(formatDuration(node.durationMs));
    return parts.join(' · ');
  }

  /** A problem in the one form of every command, named by the document it was found in (`where`). */
  private problem(d: Diagnostic, where: string | undefined, indent = ''): string {
    return `${indent}${formatDiagnostic(d, { source: d.source ?? where, paint: this.paint })}`;
  }

  private totals(): string {
    const t = this.tree.totals;
    const parts = [
      `${countOf(t.sitemaps, 'sitemap')} (${formatNumber(t.read)} read, ${formatNumber(t.failed)} failed${t.unchanged === undefined ? '' : `, ${formatNumber(t.unchanged)} unchanged`})`,
      countOf(t.urls, 'URL'),
      `${formatBytes(t.bytesIn)} transferred, ${formatBytes(t.bytesDecoded)} decoded`,
      `${countOf(t.errors, 'error')}, ${countOf(t.warnings, 'warning')}${t.infos > 0 ? `, ${countOf(t.infos, 'info')}` : ''}`,
    ];
    if (t.oldestLastmod && t.newestLastmod) parts.push(`lastmod ${t.oldestLastmod} … ${t.newestLastmod}`);
    parts.push(formatDuration(this.tree.durationMs));
    if (!this.tree.complete) parts.push('stopped before the end');
    return parts.join(' · ');
  }

  /** URLs on the site's own origin are shown by path. */
  private short(url: string): string {
    return forTerminal(this.origin && url.startsWith(`${this.origin}/`) ? url.slice(this.origin.length) : url);
  }
}

function* chain<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}

/** The origin the tree is about: the site, or the common origin of its roots. */
function originOf(tree: SitemapTree): string | undefined {
  if (tree.robots) return new URL(tree.robots.url).origin;
  const origins = new Set(tree.roots.map((root) => safeOrigin(root.url)));
  return origins.size === 1 ? [...origins][0] : undefined;
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
