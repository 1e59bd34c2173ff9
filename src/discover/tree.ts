/**
 * The sitemap tree of a site, read over HTTP: roots from robots.txt (else the well-known
 * locations, else the URLs given), sitemap indexes followed to a depth limit, every sitemap
 * fetched once however often it is listed. Each node keeps a small record (status, bytes, kind,
 * counts, lastmod range, problems); the URL entries stream out and are never held.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { DocumentKind, SourcedEntry, UrlEntry } from '../core/entry.js';
import { w3cToEpochMillis } from '../core/datetime.js';
import { detach } from '../core/detach.js';
import { parseSitemap } from '../parse/index.js';
import { ParseError, type ParsedSitemap } from '../parse/types.js';
import { Channel } from './channel.js';
import { HttpClient, HttpError, type HttpOptions, type HttpResponse, type Redirect } from './http.js';
import { fetchRobotsTxt, type RobotsOutcome, type RobotsTxt } from './robots.js';
import { probeWellKnown, type Probe } from './well-known.js';

export type FoundBy = 'robots' | 'well-known' | 'index' | 'explicit';

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
  /** True when the document was fetched (200) and read to the end without a fetch-level failure. */
  ok: boolean;
  errors: number;
  warnings: number;
  /** The first `maxDiagnosticsPerNode` problems; `diagnosticCount` counts them all. */
  diagnostics: Diagnostic[];
  diagnosticCount: number;
  children: TreeNode[];
}

export interface TreeTotals {
  /** Sitemaps in the tree (fetched or attempted). */
  sitemaps: number;
  read: number;
  failed: number;
  urls: number;
  bytesIn: number;
  bytesDecoded: number;
  errors: number;
  warnings: number;
  newestLastmod?: string;
  oldestLastmod?: string;
}

export interface RobotsSummary {
  url: string;
  status?: number;
  outcome: RobotsOutcome;
  sitemaps: string[];
  diagnostics: Diagnostic[];
}

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

export interface TreeProgress {
  nodesDone: number;
  nodesKnown: number;
  urls: number;
  bytesIn: number;
  elapsedMs: number;
}

export interface TreeOptions {
  /** A client to share, or options for the one the walk makes (and closes). */
  http?: HttpClient | HttpOptions | undefined;
  /** Index levels followed below a root (default 5). */
  maxDepth?: number | undefined;
  /** Sitemaps read at once across all hosts (default 8; each host still gets at most its own limit). */
  concurrency?: number | undefined;
  /** Decompressed bytes read from one sitemap (default 200 MiB). */
  maxBytesPerSitemap?: number | undefined;
  /** Problems kept per node (default 100; all are counted). */
  maxDiagnosticsPerNode?: number | undefined;
  /** Well-known paths probed when robots.txt declares no sitemap. */
  wellKnownPaths?: readonly string[] | undefined;
  signal?: AbortSignal | undefined;
  /** Called as the walk advances (often: throttle any drawing). */
  onProgress?: ((progress: TreeProgress) => void) | undefined;
}

export interface SitemapTreeWalk extends AsyncIterable<SourcedEntry> {
  /** The tree summary, settled when the walk ends. Read the entries, or the walk waits for you. */
  readonly tree: Promise<SitemapTree>;
  /** The same entries a batch at a time, for consumers that count every microsecond (read one or the other). */
  batches(): AsyncIterable<SourcedEntry[]>;
}

const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
const ENTRY_BUFFER = 2048;
const PROGRESS_EVERY = 4096;
const TRANSFER_CAP_MARGIN = 256 * 1024;

/**
 * Reads the whole tree and returns its summary. `siteOrUrls`: a site (host or origin: robots.txt
 * and well-known locations) or one or more sitemap URLs to start from.
 */
export async function fetchSitemapTree(
  siteOrUrls: string | readonly string[],
  options: TreeOptions = {},
): Promise<SitemapTree> {
  return new TreeWalker(siteOrUrls, options, undefined).run();
}

/**
 * The same walk, with every page URL entry of the tree streamed out (each with `source`, the
 * sitemap it came from) in bounded memory. Stopping the loop early stops the walk.
 */
export function walkSitemapTree(siteOrUrls: string | readonly string[], options: TreeOptions = {}): SitemapTreeWalk {
  const stop = new AbortController();
  const channel = new Channel<SourcedEntry>(ENTRY_BUFFER, () => stop.abort(new Error('the reader stopped')));
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const tree = new TreeWalker(siteOrUrls, { ...options, signal }, channel).run();
  tree.then(
    () => channel.close(),
    (error: unknown) => channel.close(error),
  );
  return {
    tree,
    [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator](),
    batches: () => channel.batches(),
  };
}

/** A host, origin or URL as typed → a site origin, or a sitemap URL to start from. */
export function resolveStart(input: string): { mode: 'site'; site: string } | { mode: 'sitemap'; url: string } {
  const text = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new TypeError(`"${input}" is not a site or a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`"${input}" is not an http(s) site or URL`);
  if ((url.pathname === '/' || url.pathname === '') && url.search === '') return { mode: 'site', site: url.origin };
  url.hash = '';
  return { mode: 'sitemap', url: url.href };
}

/** One node while the walk runs: its public record, plus the links the walk needs. */
interface WalkNode {
  record: TreeNode;
  parent?: WalkNode;
  /** When the node was a well-known probe hit, the response already in hand. */
  response?: HttpResponse | undefined;
  depthLimitReported?: boolean;
}

class TreeWalker {
  private readonly http: HttpClient;
  private readonly ownsHttp: boolean;
  private readonly maxDepth: number;
  private readonly concurrency: number;
  private readonly maxBytes: number;
  private readonly maxDiagnostics: number;
  private readonly signal: AbortSignal | undefined;
  private readonly started = Date.now();
  /** Every sitemap URL met (as listed and as redirected to) → its node. */
  private readonly seen = new Map<string, WalkNode>();
  private readonly queue: WalkNode[] = [];
  private active = 0;
  private idle: (() => void) | undefined;
  private readonly progress: TreeProgress = { nodesDone: 0, nodesKnown: 0, urls: 0, bytesIn: 0, elapsedMs: 0 };
  private robots: RobotsTxt | undefined;

  constructor(
    private readonly input: string | readonly string[],
    private readonly options: TreeOptions,
    private readonly output: Channel<SourcedEntry> | undefined,
  ) {
    this.ownsHttp = !(options.http instanceof HttpClient);
    this.http =
      options.http instanceof HttpClient ? options.http : new HttpClient({ ...options.http, signal: options.signal });
    this.maxDepth = options.maxDepth ?? 5;
    this.concurrency = options.concurrency ?? 8;
    this.maxBytes = options.maxBytesPerSitemap ?? DEFAULT_MAX_BYTES;
    this.maxDiagnostics = options.maxDiagnosticsPerNode ?? 100;
    this.signal = options.signal;
  }

  async run(): Promise<SitemapTree> {
    const tree: SitemapTree = {
      input: Array.isArray(this.input) ? this.input.join(' ') : (this.input as string),
      mode: 'sitemaps',
      probes: [],
      roots: [],
      totals: emptyTotals(),
      diagnostics: [],
      complete: true,
      durationMs: 0,
    };
    try {
      const roots = await this.findRoots(tree);
      for (const root of roots) this.schedule(root);
      await this.drained();
    } catch (error) {
      if (!this.signal?.aborted) throw error;
    } finally {
      if (this.ownsHttp) await this.http.close();
    }
    tree.complete = !this.signal?.aborted;
    tree.totals = totalsOf(tree.roots);
    if (tree.roots.length === 0 && tree.diagnostics.length === 0) {
      tree.diagnostics.push(diagnostic('FETCH-001', `no sitemap found for ${tree.input}`, { source: tree.input }));
    }
    tree.durationMs = Date.now() - this.started;
    return tree;
  }

  private async findRoots(tree: SitemapTree): Promise<WalkNode[]> {
    const inputs = typeof this.input === 'string' ? [this.input] : [...this.input];
    const starts = inputs.map(resolveStart);
    const first = starts[0];
    if (starts.length !== 1 || first?.mode !== 'site') {
      const urls = starts.map((s) => {
        if (s.mode === 'site')
          throw new TypeError(`give one site, or sitemap URLs: ${s.site} is a site among ${starts.length} inputs`);
        return s.url;
      });
      return this.newRoots(tree, urls, 'explicit');
    }
    tree.mode = 'site';
    const robots = await fetchRobotsTxt(first.site, this.http, { signal: this.signal });
    this.robots = robots;
    tree.robots = {
      url: robots.url,
      ...(robots.status === undefined ? {} : { status: robots.status }),
      outcome: robots.outcome,
      sitemaps: robots.sitemaps,
      diagnostics: robots.diagnostics,
    };
    if (robots.sitemaps.length > 0) return this.newRoots(tree, robots.sitemaps, 'robots');
    if (robots.outcome === 'unreachable') {
      tree.diagnostics.push(
        diagnostic('FETCH-001', `no sitemap read: robots.txt is unreachable, so ${first.site} may not be crawled`, {
          source: robots.url,
        }),
      );
      return [];
    }
    const found = await probeWellKnown(first.site, this.http, {
      isAllowed: (url) => robots.rules.isAllowed(url, this.http.userAgent),
      paths: this.options.wellKnownPaths,
      signal: this.signal,
      maxBytes: this.maxBytes + TRANSFER_CAP_MARGIN,
    });
    tree.probes = found.probes;
    if (!found.found) {
      tree.diagnostics.push(
        diagnostic(
          'FETCH-001',
          `no sitemap found: robots.txt declares none and no well-known location answered (${found.probes.length} tried)`,
          { source: first.site },
        ),
      );
      return [];
    }
    const [root] = this.newRoots(tree, [found.found.requestedUrl], 'well-known');
    root!.response = found.found;
    return [root!];
  }

  private newRoots(tree: SitemapTree, urls: readonly string[], foundBy: FoundBy): WalkNode[] {
    const roots: WalkNode[] = [];
    for (const url of urls) {
      if (this.seen.has(url)) continue; // declared twice: read once
      const node: WalkNode = { record: newRecord(url, foundBy, 0) };
      this.seen.set(url, node);
      tree.roots.push(node.record);
      roots.push(node);
    }
    return roots;
  }

  private schedule(node: WalkNode): void {
    this.progress.nodesKnown += 1;
    if (this.active < this.concurrency) this.start(node);
    else this.queue.push(node);
  }

  private start(node: WalkNode): void {
    this.active += 1;
    this.readNode(node)
      .catch((error: unknown) => {
        // A failing node never stops the walk: whatever escaped the reader is the node's problem.
        if (!this.signal?.aborted)
          this.report(
            node,
            diagnostic('FETCH-001', `reading stopped: ${(error as Error).message}`, { source: node.record.url }),
          );
      })
      .finally(() => {
        this.active -= 1;
        this.progress.nodesDone += 1;
        this.notify();
        const next = this.signal?.aborted ? undefined : this.queue.shift();
        if (next) this.start(next);
        else if (this.active === 0) this.idle?.();
      });
  }

  private drained(): Promise<void> {
    if (this.active === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = resolve;
    });
  }

  private async readNode(node: WalkNode): Promise<void> {
    const record = node.record;
    const started = Date.now();
    try {
      if (this.robots && !this.robotsAllow(record.url)) {
        this.report(
          node,
          diagnostic(
            'FETCH-003',
            `${record.url} is disallowed by ${this.robots.url} for ${this.http.userAgent}; not fetched`,
            { source: record.url },
          ),
        );
        return;
      }
      const response = await this.fetch(node);
      if (!response) return;
      await this.readDocument(node, response);
    } finally {
      record.durationMs = Date.now() - started;
    }
  }

  private robotsAllow(url: string): boolean {
    const robots = this.robots!;
    return new URL(url).origin !== new URL(robots.url).origin || robots.rules.isAllowed(url, this.http.userAgent);
  }

  /** GETs the node's URL; records status and redirects; undefined when there is nothing to read. */
  private async fetch(node: WalkNode): Promise<HttpResponse | undefined> {
    const record = node.record;
    let response = node.response;
    node.response = undefined;
    if (!response) {
      try {
        // The parser stops at maxBytes with FETCH-006 and no noise about the cut document; the
        // transfer cap, a little higher, is the safety net should it not.
        response = await this.http.get(record.url, {
          maxBytes: this.maxBytes + TRANSFER_CAP_MARGIN,
          signal: this.signal,
        });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        record.redirects = [...error.redirects];
        this.reportRedirects(node);
        this.report(
          node,
          diagnostic(
            'FETCH-001',
            `${error.message}${error.attempts > 1 ? ` (after ${error.attempts} attempts)` : ''}`,
            { source: record.url },
          ),
        );
        return undefined;
      }
    }
    record.status = response.status;
    record.redirects = response.redirects;
    if (response.redirects.length > 0) {
      record.finalUrl = response.url;
      if (!this.seen.has(response.url)) this.seen.set(response.url, node);
      this.reportRedirects(node);
    }
    if (response.status !== 200) {
      response.discard();
      const retried = response.attempts > 1 ? ` after ${response.attempts} attempts` : '';
      this.report(
        node,
        diagnostic('FETCH-001', `HTTP ${response.status}${retried}: the sitemap must answer 200`, {
          source: record.url,
        }),
      );
      return undefined;
    }
    return response;
  }

  private reportRedirects(node: WalkNode): void {
    const { redirects, url } = node.record;
    if (redirects.length === 0) return;
    const chain = [url, ...redirects.map((r) => r.to)].join(' → ');
    this.report(
      node,
      diagnostic(
        'FETCH-002',
        `redirects (${redirects.length} hop${redirects.length === 1 ? '' : 's'}): ${chain}; list the final URL instead`,
        { source: url },
      ),
    );
  }

  /** Parses the body: children are scheduled as they are met, page URLs streamed out. */
  private async readDocument(node: WalkNode, response: HttpResponse): Promise<void> {
    const record = node.record;
    const parsed: ParsedSitemap = parseSitemap(response.body, {
      baseUrl: response.url,
      source: record.url,
      limits: { maxBytes: this.maxBytes },
      onDiagnostic: (d: Diagnostic) => this.report(node, d),
      signal: this.signal,
    });
    const lastmods = new LastmodRange();
    let sinceProgress = 0;
    try {
      for await (const entry of parsed) {
        if (entry.kind === 'sitemap') {
          this.noteKind(node, parsed.kind);
          record.sitemaps += 1;
          this.follow(node, entry.loc);
          continue;
        }
        record.urls += 1;
        if (entry.lastmod !== undefined) lastmods.add(entry.lastmod);
        if (this.output) {
          const wait = this.output.push(withSource(entry, record.url));
          if (wait) await wait;
          if (this.output.isCancelled) break;
        }
        if (++sinceProgress === PROGRESS_EVERY) {
          sinceProgress = 0;
          this.progress.urls += PROGRESS_EVERY;
          this.progress.bytesIn += response.transfer.wireBytes - record.bytesIn;
          record.bytesIn = response.transfer.wireBytes;
          this.notify();
        }
      }
    } catch (error) {
      this.reportReadFailure(node, response, error);
    } finally {
      this.progress.urls += sinceProgress;
      this.progress.bytesIn += response.transfer.wireBytes - record.bytesIn;
      record.bytesIn = response.transfer.wireBytes;
      record.bytesDecoded = parsed.stats.bytesDecoded;
      record.gzip = parsed.stats.gzip || /gzip/i.test(response.headers['content-encoding'] ?? '');
      // Copies: a value sliced from the document's text would keep that whole text alive.
      if (lastmods.newest !== undefined) record.newestLastmod = detach(lastmods.newest);
      if (lastmods.oldest !== undefined) record.oldestLastmod = detach(lastmods.oldest);
      this.noteKind(node, parsed.kind);
    }
    this.checkDocument(node, response);
  }

  /** Problems only visible once the document is read: truncation, HTML, emptiness. */
  private checkDocument(node: WalkNode, response: HttpResponse): void {
    const record = node.record;
    if (response.transfer.truncated && !this.has(record, 'FETCH-006')) {
      this.report(
        node,
        diagnostic(
          'FETCH-006',
          `reading stopped at ${this.maxBytes} bytes; the protocol allows 52,428,800 uncompressed`,
          { source: record.url },
        ),
      );
    }
    if (record.kind === 'html' && !this.has(record, 'FETCH-007')) {
      this.report(
        node,
        diagnostic(
          'FETCH-007',
          `${response.url} is an HTML page (Content-Type ${response.headers['content-type'] ?? 'absent'}), not a sitemap`,
          { source: record.url },
        ),
      );
    }
    if (record.bytesDecoded === 0 && !response.transfer.error && !this.has(record, 'FETCH-001')) {
      this.report(node, diagnostic('FETCH-001', 'the response body is empty', { source: record.url }));
    }
    record.ok =
      !response.transfer.error &&
      record.kind !== 'html' &&
      !['FETCH-001', 'FETCH-005', 'FETCH-006'].some((code) => this.has(record, code));
  }

  private reportReadFailure(node: WalkNode, response: HttpResponse, error: unknown): void {
    const record = node.record;
    const failure = response.transfer.error ?? error;
    if (failure instanceof HttpError) {
      if (failure.kind === 'aborted') return;
      const code = failure.kind === 'content-encoding' ? 'FETCH-005' : 'FETCH-001';
      const after = failure.kind === 'idle-timeout' ? ` (after ${response.transfer.wireBytes} bytes)` : '';
      this.report(node, diagnostic(code, `${failure.message}${after}`, { source: record.url }));
    } else if (failure instanceof ParseError) {
      if (!record.diagnostics.includes(failure.diagnostic)) this.report(node, failure.diagnostic);
    } else if (!this.signal?.aborted) {
      this.report(
        node,
        diagnostic('FETCH-001', `reading stopped: ${(failure as Error).message}`, { source: record.url }),
      );
    }
  }

  private noteKind(node: WalkNode, kind: DocumentKind | undefined): void {
    const record = node.record;
    if (kind === undefined || record.kind !== undefined) return;
    record.kind = kind;
    if (kind === 'sitemapindex' && node.parent) {
      this.report(
        node,
        diagnostic(
          'IDX-002',
          `a sitemap index listed by the index ${node.parent.record.url}: indexes must not be nested`,
          { source: record.url },
        ),
      );
    }
  }

  /** A child listed by an index: a new node, or IDX-005 when it is already in the tree. */
  private follow(parent: WalkNode, loc: string): void {
    const url = detach(withoutFragment(loc)); // kept for the whole walk: not a slice of the index's text
    const source = parent.record.url;
    const known = this.seen.get(url);
    if (known) {
      this.report(parent, diagnostic('IDX-005', describeRepeat(parent, known, url), { source, url }));
      return;
    }
    if (parent.record.depth >= this.maxDepth) {
      if (!parent.depthLimitReported) {
        parent.depthLimitReported = true;
        this.report(
          parent,
          diagnostic(
            'LIMIT-003',
            `children of ${source} are ${parent.record.depth + 1} levels below the root; only ${this.maxDepth} are followed`,
            { source, url },
          ),
        );
      }
      return;
    }
    const child: WalkNode = { record: newRecord(url, 'index', parent.record.depth + 1, source), parent };
    this.seen.set(url, child);
    parent.record.children.push(child.record);
    this.schedule(child);
  }

  private report(node: WalkNode, d: Diagnostic): void {
    const record = node.record;
    record.diagnosticCount += 1;
    if (d.severity === 'error') record.errors += 1;
    else if (d.severity === 'warning') record.warnings += 1;
    if (record.diagnostics.length < this.maxDiagnostics) record.diagnostics.push(d);
  }

  private has(record: TreeNode, code: string): boolean {
    return record.diagnostics.some((d) => d.code === code);
  }

  private notify(): void {
    if (!this.options.onProgress) return;
    this.progress.elapsedMs = Date.now() - this.started;
    this.options.onProgress({ ...this.progress });
  }
}

function describeRepeat(parent: WalkNode, known: WalkNode, url: string): string {
  if (known === parent) return `the index lists itself (${url}); it is read once`;
  for (let ancestor = parent.parent; ancestor; ancestor = ancestor.parent) {
    if (ancestor === known) return `loop: ${url} lists this index, which lists it back; it is read once`;
  }
  if (known.parent === parent) return `${url} is listed twice in this index; it is read once`;
  const where = known.parent ? `by ${known.parent.record.url}` : `as a root (${known.record.foundBy})`;
  return `${url} is already listed ${where}; it is read once`;
}

/**
 * Instants of lastmod values seen lately, shared by every document of the process: sitemaps repeat
 * a few dates many times, across files too, so they are remembered instead of parsed again.
 */
const RECENT_INSTANTS = new Map<string, number | undefined>();

function instantOf(lastmod: string): number | undefined {
  let ms = RECENT_INSTANTS.get(lastmod);
  if (ms === undefined && !RECENT_INSTANTS.has(lastmod)) {
    ms = w3cToEpochMillis(lastmod);
    if (RECENT_INSTANTS.size >= 4096) RECENT_INSTANTS.clear();
    RECENT_INSTANTS.set(lastmod, ms);
  }
  return ms;
}

/** Newest and oldest lastmod by instant, keeping the values as written. */
class LastmodRange {
  newest?: string;
  oldest?: string;
  private newestMs = -Infinity;
  private oldestMs = Infinity;

  add(lastmod: string): void {
    const ms = instantOf(lastmod);
    if (ms === undefined) return;
    if (ms > this.newestMs) {
      this.newestMs = ms;
      this.newest = lastmod;
    }
    if (ms < this.oldestMs) {
      this.oldestMs = ms;
      this.oldest = lastmod;
    }
  }
}

/** The parser hands each entry over once and keeps no reference: naming its source in place is safe and cheaper than a copy. */
function withSource(entry: UrlEntry, source: string): SourcedEntry {
  (entry as SourcedEntry).source = source;
  return entry;
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

function newRecord(url: string, foundBy: FoundBy, depth: number, parent?: string): TreeNode {
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
    errors: 0,
    warnings: 0,
    diagnostics: [],
    diagnosticCount: 0,
    children: [],
  };
}

function emptyTotals(): TreeTotals {
  return { sitemaps: 0, read: 0, failed: 0, urls: 0, bytesIn: 0, bytesDecoded: 0, errors: 0, warnings: 0 };
}

/** Sums over every node of the tree. */
export function totalsOf(roots: readonly TreeNode[]): TreeTotals {
  const totals = emptyTotals();
  const newest = new LastmodRange();
  const visit = (node: TreeNode) => {
    totals.sitemaps += 1;
    if (node.ok) totals.read += 1;
    else totals.failed += 1;
    totals.urls += node.urls;
    totals.bytesIn += node.bytesIn;
    totals.bytesDecoded += node.bytesDecoded;
    totals.errors += node.errors;
    totals.warnings += node.warnings;
    if (node.newestLastmod) newest.add(node.newestLastmod);
    if (node.oldestLastmod) newest.add(node.oldestLastmod);
    node.children.forEach(visit);
  };
  roots.forEach(visit);
  if (newest.newest) totals.newestLastmod = newest.newest;
  if (newest.oldest) totals.oldestLastmod = newest.oldest;
  return totals;
}
