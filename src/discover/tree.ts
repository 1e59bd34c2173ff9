/**
 * The sitemap tree of a site, read over HTTP: roots from robots.txt (else the well-known
 * locations, else the URLs given; see roots.ts), sitemap indexes followed to a depth limit, every
 * sitemap fetched once however often it is listed. The fetches run on the work pool, which owns
 * politeness and lets a retry wait without holding a worker; each sitemap is fetched and checked
 * by the one fetchSitemap that `validate` and `parse` use too. Each node keeps a small record
 * (tree-model.ts); the URL entries stream out and are never held.
 *
 * Memory stays flat however big the tree (issue 25 §2): a node is a number; the sitemaps met are
 * remembered as fingerprints (8 bytes a URL), the queue is the records not yet started, fed to the
 * pool a few at a time, and only the nodes being read are objects. Past a bound the records
 * themselves go to a scratch file (tree-records.ts), read back under their parents to write the
 * tree out.
 *
 * A sitemap that failed for a reason that may pass (a refused or broken connection, 429, 5xx, a
 * transfer that broke off; not a timeout, whose time is spent already) gets one more pass once the
 * rest of the tree is read, one sitemap of a host at a time and its attempts back to back, within
 * what is left of its --timeout and --max-wait: a balancer with one broken backend then costs a
 * little time instead of a lost sitemap. A host where most sitemaps failed (more than a few) is
 * down, not flaky: it gets no second pass. Entries handed out before a transfer broke off are not
 * handed out again.
 */
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { DocumentKind, Entry, SourcedEntry, UrlEntry } from '../core/entry.js';
import { detach } from '../core/detach.js';
import { readOutcome, readWhole } from '../core/outcome.js';
import { DEFAULT_INDEX_DEPTH, IndexWalk, nestingIndex } from '../core/index-walk.js';
import { entryBatches, locatedEntryBatches, parseSitemap } from '../parse/index.js';
import { ParseError, type LocatedEntry } from '../parse/types.js';
import { RetryLater, WorkPool, type HostPoliteness, type Settled, type TaskContext } from '../pool/index.js';
import {
  fetchSitemap,
  TransferError,
  type FetchedSitemap,
  type SitemapBody,
  type SitemapFetcher,
} from '../http/sitemap-fetch.js';
import { Channel } from '../pool/channel.js';
import type { ConditionalFetches, RememberedSitemap } from './conditional.js';
import { HttpClient, overHttp, RetryState, type HttpOptions } from '../http/client.js';
import { InstantCache, LastmodRange } from './lastmod-range.js';
import type { RobotsTxt } from './robots.js';
import { findRoots, type Root } from './roots.js';
import { probeWellKnown, WELL_KNOWN_SITEMAP_PATHS } from './well-known.js';
import {
  newRecord,
  NodeProblems,
  ownChildren,
  totalsOf,
  type SitemapTree,
  type SitemapTreeView,
  type TreeNode,
  type TreeProgress,
} from './tree-model.js';
import { DEFAULT_SPILL_AFTER, TreeRecords, type TreeRecordSpill } from './tree-records.js';
import { UrlIds } from './url-ids.js';

export { resolveStart, type Start } from './roots.js';
export { eachNode, ownChildren, readOutcomes, totalsOf, unreadNodes } from './tree-model.js';
export type {
  ChildrenOf,
  FoundBy,
  RobotsSummary,
  SitemapTree,
  SitemapTreeView,
  TreeNode,
  TreeProgress,
  TreeTotals,
} from './tree-model.js';
export type { TreeRecordSpill } from './tree-records.js';

/** Settings of a tree walk; each has a default. */
export interface TreeOptions {
  /** A client to share, or options for the one the walk makes (and closes). */
  http?: HttpClient | HttpOptions | undefined;
  /** Index levels followed below a root (default 5). */
  maxDepth?: number | undefined;
  /** Sitemaps read at once across all hosts (default 8). */
  concurrency?: number | undefined;
  /** Politeness per host (default 4 sitemaps at once, no delay between starts). */
  perHost?: Partial<HostPoliteness> | undefined;
  /** Decompressed bytes read from one sitemap (default 200 MiB). */
  maxBytesPerSitemap?: number | undefined;
  /** Problems kept per code and node as examples (default 20; all are counted). */
  examplesPerCode?: number | undefined;
  /**
   * Problems kept per code as examples over the whole tree (default 200; 0: no cap): past it, the
   * nodes count their problems but keep none, so a tree of thousands of broken sitemaps holds a
   * bounded number of them.
   */
  examplesPerCodeInTree?: number | undefined;
  /** Well-known paths probed when robots.txt declares no sitemap. */
  wellKnownPaths?: readonly string[] | undefined;
  signal?: AbortSignal | undefined;
  /** Called as the walk advances (often: throttle any drawing). */
  onProgress?: ((progress: TreeProgress) => void) | undefined;
  /**
   * Whether each sitemap's newest and oldest lastmod are worked out (default true): a caller that
   * only streams the entries, and keeps no summary, spares a comparison per entry.
   */
  lastmodRange?: boolean | undefined;
  /** Conditional fetches against what an earlier walk remembered (conditional.ts; tree --state). */
  conditional?: ConditionalFetches | undefined;
  /**
   * Reads each sitemap's entries with their places as they stream by, e.g. to run the validator's
   * rules on them (SitemapSetValidator): the walk then hands out each entry's line too. What it
   * reports goes with the sitemap's own problems.
   */
  inspect?: ((document: InspectedDocument) => DocumentInspection) | undefined;
  /**
   * Where the records of a big tree go, past `spillAfter` sitemaps, instead of memory: e.g.
   * `() => new TreeSpill()`, a SQLite file in the system's temporary folder, deleted at the end
   * (what the CLI does). Without it every record stays in memory.
   */
  spill?: (() => TreeRecordSpill) | undefined;
  /**
   * Sitemaps whose records are held in memory before they go to `spill` (default 20,000, or the
   * environment's SITEMAPKIT_TREE_SPILL_AFTER).
   */
  spillAfter?: number | undefined;
}

/** A sitemap about to be read, for `TreeOptions.inspect`. */
export interface InspectedDocument {
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** Declared in robots.txt, or listed by an index that is (cross-submission, SCOPE-EX). */
  crossSubmitted: boolean;
  /** Adds a problem to the sitemap's. */
  report: (diagnostic: Diagnostic) => void;
}

/** What inspects one sitemap: every entry in order, with its place, then the end of the document. */
export interface DocumentInspection {
  entry(located: LocatedEntry): void;
  /** `hadErrors`: problems that may have cost entries were met (no "empty sitemap" then). */
  end(kind: DocumentKind | undefined, hadErrors: boolean): void;
}

/** A page URL entry of the tree and the sitemap it came from, as the parser gave it (not copied). */
export interface TreeEntry {
  entry: UrlEntry;
  source: string;
  /** The line of its `<loc>` in the sitemap (when the walk inspects documents). */
  line?: number;
}

/** A tree walk under way: its URL entries as they are read, and the tree once it ends. */
export interface SitemapTreeWalk extends AsyncIterable<SourcedEntry> {
  /** The tree summary, settled when the walk ends. Read the entries, or the walk waits for you. */
  readonly tree: Promise<SitemapTree>;
  /**
   * The tree as the walk left it, to read piece by piece (read `tree` or `view`, not both): a
   * big tree's nodes stay in their scratch file until you close() it.
   */
  readonly view: Promise<SitemapTreeView>;
  /**
   * The same entries a batch at a time, each beside its sitemap instead of copied with it, for
   * consumers that count every microsecond (read one or the other).
   */
  batches(): AsyncIterable<readonly TreeEntry[]>;
}

const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
const DEFAULT_EXAMPLES_PER_CODE_IN_TREE = 200;
const ENTRY_BUFFER = 2048;
const PROGRESS_EVERY = 4096;
/** Nodes handed to the pool at once (queued, waiting or running); the rest wait as records. */
const POOL_FEED = 256;
/** Failed sitemaps of a host that always get their last pass, however many of the host's failed: it costs little. */
const FEW_FAILURES = 10;

/**
 * Reads the whole tree and returns its summary. `siteOrUrls`: a site (host or origin: robots.txt
 * and well-known locations) or one or more sitemap URLs to start from.
 */
export async function fetchSitemapTree(
  siteOrUrls: string | readonly string[],
  options: TreeOptions = {},
): Promise<SitemapTree> {
  return materialize(await fetchSitemapTreeView(siteOrUrls, options));
}

/**
 * The same walk, its tree left where the walk kept it: a big tree in its scratch file, to be
 * written out piece by piece through `childrenOf` (report/tree.ts). Close the view once read.
 */
export async function fetchSitemapTreeView(
  siteOrUrls: string | readonly string[],
  options: TreeOptions = {},
): Promise<SitemapTreeView> {
  return new TreeWalker(siteOrUrls, options, undefined).run();
}

/** The whole tree as one object (every node's `children` filled), the scratch file closed. */
function materialize(view: SitemapTreeView): SitemapTree {
  try {
    const fill = (node: TreeNode): TreeNode => {
      if (node.children.length === 0) node.children = [...view.childrenOf(node)].map(fill);
      return node;
    };
    if (view.childrenOf !== ownChildren) view.tree.roots.forEach(fill);
    return view.tree;
  } finally {
    view.close();
  }
}

/**
 * The same walk, with every page URL entry of the tree streamed out (each with `source`, the
 * sitemap it came from) in bounded memory. Stopping the loop early stops the walk.
 */
export function walkSitemapTree(siteOrUrls: string | readonly string[], options: TreeOptions = {}): SitemapTreeWalk {
  const stop = new AbortController();
  const channel = new Channel<TreeEntry>(ENTRY_BUFFER, () => stop.abort(new Error('the reader stopped')));
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const view = new TreeWalker(siteOrUrls, { ...options, signal }, channel).run();
  view.then(
    () => channel.close(),
    (error: unknown) => channel.close(error),
  );
  let tree: Promise<SitemapTree> | undefined;
  return {
    view,
    // Made when first asked for: a caller that reads the view never holds the whole tree.
    get tree() {
      return (tree ??= view.then(materialize));
    },
    [Symbol.asyncIterator]: () => sourced(channel),
    batches: () => channel.batches(),
  };
}

/** The walk's entries, each with the sitemap it came from. */
async function* sourced(channel: Channel<TreeEntry>): AsyncGenerator<SourcedEntry> {
  for await (const batch of channel.batches()) for (const { entry, source } of batch) yield withSource(entry, source);
}

/** One node while the walk runs: its public record, plus what the walk needs to read it. */
interface WalkNode {
  id: number;
  record: TreeNode;
  /** The id of the index that listed it (0 for a root). */
  parent: number;
  problems: NodeProblems;
  /** A well-known location's answer, already in hand. */
  fetched?: SitemapBody | undefined;
  /** A root typed without a scheme: tried over http when https meets no TLS. */
  schemeGuessed?: true | undefined;
  /** Attempts and waits of the current pass, across the pool's restarts of the task. */
  retry: RetryState;
  /** When the current pass first started (epoch ms). */
  startedAt?: number | undefined;
  /** The last failure may pass: the node gets one more pass at the end. */
  transient: boolean;
  /** The node is in (or past) its one more pass. */
  lastPass: boolean;
  /** Entries of the document already handed on (streamed, or followed): a later pass skips them. */
  handedOut: number;
  depthLimitReported: boolean;
}

/** A node whose failure may pass, waiting for its one more pass: only what its record does not hold. */
interface Retryable {
  id: number;
  host: string;
  retry: RetryState;
  handedOut: number;
}

class TreeWalker {
  private readonly http: HttpClient;
  private readonly ownsHttp: boolean;
  private readonly maxBytes: number;
  private readonly examplesPerCode: number;
  /** Every problem of the nodes counted, and the examples of all of them capped per code. */
  private readonly treeProblems: DiagnosticTally;
  private readonly signal: AbortSignal | undefined;
  private readonly started = Date.now();
  /** Every sitemap URL met (as listed and as redirected to) → its node's id; the depth limit. */
  private readonly walk: IndexWalk<number>;
  /** The record of every node, in memory or in the scratch file. */
  private readonly records: TreeRecords;
  /** The roots' records, always in memory (the tree's `roots`), by id. */
  private readonly roots = new Map<number, TreeNode>();
  /** What a root brings before it is read (a well-known answer in hand, a guessed scheme). */
  private readonly rootStarts = new Map<number, Root>();
  /** Nodes handed to the pool and not settled, by id. */
  private readonly live = new Map<number, WalkNode>();
  /** The next id to hand to the pool: every node from it on waits as a record. */
  private nextToStart = 1;
  /** Nodes met per host, to tell a host that is down from a flaky one. */
  private readonly metPerHost = new Map<string, number>();
  private retryable: Retryable[] = [];
  private readonly pool: WorkPool<WalkNode>;
  private readonly instants = new InstantCache();
  private readonly progress: TreeProgress = { nodesDone: 0, nodesKnown: 0, urls: 0, bytesIn: 0, elapsedMs: 0 };
  private robots: RobotsTxt | undefined;

  constructor(
    private readonly input: string | readonly string[],
    private readonly options: TreeOptions,
    private readonly output: Channel<TreeEntry> | undefined,
  ) {
    this.ownsHttp = !(options.http instanceof HttpClient);
    // The walk's own client gets no signal: every request carries one already (the pool's task's,
    // or the walk's), so there is nothing to join per request.
    this.http = options.http instanceof HttpClient ? options.http : new HttpClient({ ...options.http });
    this.walk = new IndexWalk(options.maxDepth ?? DEFAULT_INDEX_DEPTH, new UrlIds());
    this.records = new TreeRecords(options.spillAfter ?? spillAfterFromEnvironment(), options.spill);
    this.maxBytes = options.maxBytesPerSitemap ?? DEFAULT_MAX_BYTES;
    this.examplesPerCode = options.examplesPerCode ?? 20;
    this.treeProblems = new DiagnosticTally(options.examplesPerCodeInTree ?? DEFAULT_EXAMPLES_PER_CODE_IN_TREE);
    this.signal = options.signal;
    this.pool = new WorkPool<WalkNode>({
      run: (node, context) => this.readNode(node, context),
      onSettled: (node, settled) => this.settled(node, settled),
      refill: () => this.feed(),
      concurrency: options.concurrency,
      perHost: options.perHost,
      signal: options.signal,
    });
  }

  async run(): Promise<SitemapTreeView> {
    const tree: SitemapTree = {
      input: typeof this.input === 'string' ? this.input : this.input.join(' '),
      mode: 'sitemaps',
      probes: [],
      roots: [],
      totals: totalsOf([]),
      diagnostics: [],
      complete: true,
      durationMs: 0,
    };
    try {
      const found = await findRoots(typeof this.input === 'string' ? [this.input] : this.input, this.http, {
        signal: this.signal,
        wellKnownPaths: this.options.wellKnownPaths,
        maxBytes: this.maxBytes,
      });
      tree.mode = found.mode;
      tree.probes = found.probes;
      tree.diagnostics = found.diagnostics;
      if (found.robots) {
        const robots = (this.robots = found.robots);
        tree.robots = {
          url: robots.url,
          ...(robots.status === undefined ? {} : { status: robots.status }),
          outcome: robots.outcome,
          sitemaps: robots.sitemaps,
          diagnostics: robots.diagnostics,
        };
      }
      for (const root of found.roots) {
        const record = this.addRoot(root);
        if (record) tree.roots.push(record);
      }
      await this.drain();
      await this.lastPasses();
      if (found.mode === 'site' && found.robots) await this.wellKnownBesideRobots(tree, found.robots);
    } catch (error) {
      if (!this.signal?.aborted) {
        this.records.close();
        throw error;
      }
    } finally {
      if (this.ownsHttp) await this.http.close();
    }
    const childrenOf = this.records.childrenOf;
    tree.complete = !this.signal?.aborted;
    tree.totals = totalsOf(tree.roots, [...(tree.robots?.diagnostics ?? []), ...tree.diagnostics], childrenOf);
    tree.durationMs = Date.now() - this.started;
    return { tree, childrenOf, close: () => this.records.close() };
  }

  /** Feeds the pool until every node met is read (or the walk is stopped). */
  private async drain(): Promise<void> {
    do {
      this.feed();
      await this.pool.idle();
    } while (this.nextToStart <= this.records.size && !this.signal?.aborted);
  }

  /** Hands the pool the next nodes met, a few at a time: the others wait as records, not as tasks. */
  private feed(): void {
    while (this.live.size < POOL_FEED && this.nextToStart <= this.records.size && !this.signal?.aborted) {
      const node = this.nodeFor(this.nextToStart++);
      this.start(node);
    }
  }

  private start(node: WalkNode): void {
    this.live.set(node.id, node);
    this.pool.enqueue(node, new URL(node.record.url).host);
  }

  /**
   * robots.txt names sitemaps, but none of its own host that can be read (only sitemaps on other
   * hosts, or ones that answer 4xx): the host's well-known locations are tried too, and the tree
   * says so (ROBOTS-008), whatever they hold.
   */
  private async wellKnownBesideRobots(tree: SitemapTree, robots: RobotsTxt): Promise<void> {
    if (this.signal?.aborted) return;
    const site = new URL(robots.url).origin;
    const named = tree.roots.filter((root) => root.foundBy === 'robots');
    const onHost = (url: string) => new URL(url).host === new URL(site).host;
    const own = named.filter((root) => onHost(root.url));
    // A sitemap of the host that was read, or that failed in a way that may pass, is there.
    if (named.length === 0 || own.some((root) => root.ok || !isMissing(root.status))) return;
    const paths = (this.options.wellKnownPaths ?? WELL_KNOWN_SITEMAP_PATHS).filter(
      (path) => this.walk.metAt(new URL(path, site).href) === undefined,
    );
    const probed = await probeWellKnown(site, this.http, {
      isAllowed: (url) => robots.rules.isAllowed(url, this.http.userAgent),
      paths,
      signal: this.signal,
      maxBytes: this.maxBytes,
    });
    tree.probes = [...tree.probes, ...probed.probes];
    const what = named
      .map((root) =>
        onHost(root.url)
          ? `${root.url} (${root.status === undefined ? 'no answer' : `HTTP ${root.status}`})`
          : `${root.url} (on another host)`,
      )
      .join(', ');
    const outcome = probed.found
      ? `${probed.found.url} holds a sitemap, read too`
      : `none holds a sitemap (${probed.probes.length} tried)`;
    tree.diagnostics.push(
      diagnostic(
        'ROBOTS-008',
        `${robots.url} names no sitemap of ${new URL(site).host} that can be read, only ${what}; the well-known locations of ${site} were tried too: ${outcome}`,
        { source: robots.url },
      ),
    );
    if (!probed.found) return;
    const record = this.addRoot({ url: probed.found.url, foundBy: 'well-known', fetched: probed.found });
    if (record) tree.roots.push(record);
    await this.drain();
    await this.lastPasses();
  }

  /** A root, unless it was declared twice (it is read once). */
  private addRoot(root: Root): TreeNode | undefined {
    if (this.walk.metAt(root.url) !== undefined) return undefined;
    const record = newRecord(root.url, root.foundBy, 0);
    const id = this.meet(record, 0);
    this.roots.set(id, record);
    if (root.fetched || root.schemeGuessed) this.rootStarts.set(id, root);
    return record;
  }

  /** A node met: its record kept, its URL remembered; it waits for its turn in the pool. */
  private meet(record: TreeNode, parent: number): number {
    const id = this.records.add(record, parent);
    this.walk.meet(record.url, id);
    const host = new URL(record.url).host;
    this.metPerHost.set(host, (this.metPerHost.get(host) ?? 0) + 1);
    this.progress.nodesKnown += 1;
    return id;
  }

  /** The node of `id`, about to be read: its record as last written, and a fresh reading state. */
  private nodeFor(id: number): WalkNode {
    const record = this.roots.get(id) ?? this.records.get(id);
    const start = this.rootStarts.get(id);
    this.rootStarts.delete(id);
    return {
      id,
      record,
      parent: this.records.parentOf(id),
      problems: new NodeProblems(record, this.examplesPerCode, this.treeProblems),
      fetched: start?.fetched,
      schemeGuessed: start?.schemeGuessed,
      retry: new RetryState(),
      transient: false,
      lastPass: false,
      handedOut: 0,
      depthLimitReported: false,
    };
  }

  /** The record of a node as it is now: being read, a root, or as last written. */
  private recordOf(id: number): TreeNode {
    return this.live.get(id)?.record ?? this.roots.get(id) ?? this.records.get(id);
  }

  /**
   * Reads again, once each, the sitemaps whose failure may have passed, until none is left (an
   * index read in its last pass may list children that fail in theirs).
   */
  private async lastPasses(): Promise<void> {
    for (;;) {
      if (this.signal?.aborted) return;
      // In the order met, as the first pass read them.
      const again = this.retryable.splice(0).sort((a, b) => a.id - b.id);
      if (again.length === 0) return;
      const down = this.downHosts(again);
      for (const { id, host, retry, handedOut } of again) {
        if (down.has(host)) continue;
        this.pool.configureHost(host, { concurrency: 1 });
        const node = this.nodeFor(id);
        Object.assign(node, { retry, handedOut, lastPass: true });
        this.forgetPass(node);
        this.progress.nodesDone -= 1;
        this.start(node);
      }
      await this.drain();
    }
  }

  /** Hosts where most sitemaps failed, and more than a few: down, not flaky. */
  private downHosts(failed: readonly Retryable[]): Set<string> {
    const byHost = new Map<string, number>();
    for (const { host } of failed) byHost.set(host, (byHost.get(host) ?? 0) + 1);
    return new Set(
      [...byHost]
        .filter(([host, n]) => n > FEW_FAILURES && n * 2 > (this.metPerHost.get(host) ?? 0))
        .map(([host]) => host),
    );
  }

  /** Clears what a failed pass recorded; the children it found and the entries it handed out stay. */
  private forgetPass(node: WalkNode): void {
    const { record } = node;
    for (const field of ['status', 'finalUrl', 'kind', 'newestLastmod', 'oldestLastmod'] as const) delete record[field];
    Object.assign(record, { redirects: [], bytesIn: 0, bytesDecoded: 0, gzip: false, urls: 0, sitemaps: 0 });
    node.problems.reset();
    node.problems.settle();
    // The last pass has what is left of the sitemap's time and waits, not a fresh allowance.
    node.retry = node.retry.laterPass(record.durationMs);
    node.startedAt = undefined;
    node.transient = false;
    node.depthLimitReported = false;
  }

  /** One task of the pool: fetch, check and read one sitemap. */
  private async readNode(node: WalkNode, context: TaskContext): Promise<void> {
    const record = node.record;
    node.startedAt ??= Date.now();
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
      const conditional = this.options.conditional;
      const remembered = conditional?.recall(record.url);
      const fetched =
        node.fetched ??
        (await fetchSitemap(this.fetcherFor(node), record.url, {
          signal: context.signal,
          maxBytes: this.maxBytes,
          conditional: conditional?.headersFor(remembered),
        }));
      node.fetched = undefined;
      if (!fetched.ok && node.schemeGuessed && fetched.kind === 'not-tls') return this.overHttp(node);
      this.noteResponse(node, fetched);
      if (!fetched.ok && fetched.notModified && remembered) return this.unchanged(node, remembered, {});
      if (!fetched.ok) {
        node.transient = fetched.transient;
        return;
      }
      try {
        if (conditional) await this.readAgain(node, fetched, conditional, remembered, context.signal);
        else await this.readDocument(node, fetched, context.signal);
      } finally {
        fetched.release();
      }
    } finally {
      record.durationMs = Date.now() - node.startedAt;
      node.problems.settle();
    }
  }

  /**
   * The client, with a retry's wait handed back to the pool instead of slept through by the
   * worker; in a last pass the attempts of one sitemap follow each other, within what is left of
   * its time and waits.
   */
  private fetcherFor(node: WalkNode): SitemapFetcher {
    if (node.lastPass) return { get: (url, options) => this.http.get(url, { ...options, retryState: node.retry }) };
    return { get: (url, options) => this.http.get(url, { ...options, deferRetries: node.retry }) };
  }

  /** A root typed without a scheme whose server does not speak TLS: the same root over http, at once. */
  private overHttp(node: WalkNode): never {
    node.schemeGuessed = undefined;
    node.record.url = overHttp(node.record.url);
    node.retry = new RetryState();
    this.walk.meet(node.record.url, node.id);
    throw new RetryLater(0, `${node.record.url}: the server does not speak TLS`);
  }

  private robotsAllow(url: string): boolean {
    const robots = this.robots!;
    return new URL(url).origin !== new URL(robots.url).origin || robots.rules.isAllowed(url, this.http.userAgent);
  }

  /** Status, redirects and the transport rules' findings. */
  private noteResponse(node: WalkNode, fetched: FetchedSitemap): void {
    const record = node.record;
    if (fetched.status !== undefined) record.status = fetched.status;
    record.redirects = [...fetched.redirects];
    if (fetched.redirects.length > 0) {
      record.finalUrl = fetched.finalUrl;
      if (this.walk.metAt(fetched.finalUrl) === undefined) this.walk.meet(fetched.finalUrl, node.id);
    }
    for (const d of fetched.diagnostics) this.report(node, d);
  }

  /**
   * A 200 under conditional fetches: unchanged when its body's digest is the one remembered (then
   * not parsed, when unchanged sitemaps are skipped), else read, and remembered when read whole.
   */
  private async readAgain(
    node: WalkNode,
    fetched: SitemapBody,
    conditional: ConditionalFetches,
    remembered: RememberedSitemap | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    let opened;
    try {
      opened = await conditional.open(fetched, remembered);
    } catch (error) {
      return this.readFailure(node, error, signal);
    }
    if ('unchanged' in opened) return this.unchanged(node, opened.unchanged, fetched.headers);
    try {
      await this.readDocument(node, fetched, signal, opened.body);
    } finally {
      await opened.close();
    }
    if (!node.record.ok) return;
    const digest = opened.digest();
    const children = this.records.childUrls(node.id);
    conditional.note(node.record, fetched.headers, digest, node.problems.remember(fetched.diagnostics), children);
    if (digest === remembered?.digest) Object.assign(node.record, { unchanged: true, read: 'unchanged' });
  }

  /** A sitemap as it was when last read: its record from memory, an index's children walked. */
  private unchanged(node: WalkNode, remembered: RememberedSitemap, headers: Readonly<Record<string, string>>): void {
    this.options.conditional!.unchanged(node.record, remembered, headers);
    node.problems.replay(remembered.problems);
    for (const child of remembered.children) this.follow(node, child);
  }

  /** Parses the body: children are scheduled as they are met, page URLs streamed out. */
  private async readDocument(
    node: WalkNode,
    fetched: SitemapBody,
    signal: AbortSignal,
    body: AsyncIterable<Uint8Array> = fetched.body,
  ): Promise<void> {
    const record = node.record;
    const parsed = parseSitemap(body, {
      baseUrl: fetched.finalUrl,
      source: record.url,
      limits: { maxBytes: this.maxBytes },
      onDiagnostic: (d: Diagnostic) => this.report(node, d),
      signal,
    });
    const lastmods = this.options.lastmodRange === false ? undefined : new LastmodRange(this.instants);
    const inspection = this.inspectionOf(node, fetched);
    const skip = node.handedOut;
    let read = 0;
    let sinceProgress = 0;
    try {
      // A batch at a time: a promise per entry cost a tenth of a walk. Located entries only for
      // an inspection: the plain ones are the parser's fast path.
      const batches: AsyncIterable<readonly (Entry | LocatedEntry)[]> = inspection
        ? locatedEntryBatches(parsed)
        : entryBatches(parsed);
      reading: for await (const batch of batches) {
        for (const item of batch) {
          let entry: Entry;
          let line: number | undefined;
          if (inspection) {
            const located = item as LocatedEntry;
            inspection.entry(located);
            entry = located.entry;
            line = (located.location.fields.loc ?? located.location).line;
          } else {
            entry = item as Entry;
          }
          const fresh = ++read > skip;
          if (entry.kind === 'sitemap') {
            this.noteKind(node, parsed.kind);
            record.sitemaps += 1;
            if (fresh) {
              node.handedOut = read;
              this.follow(node, entry.loc);
            }
            continue;
          }
          record.urls += 1;
          if (entry.lastmod !== undefined) lastmods?.add(entry.lastmod);
          if (!fresh) continue;
          node.handedOut = read;
          if (this.output) {
            const wait = this.output.push(
              line === undefined ? { entry, source: record.url } : { entry, source: record.url, line },
            );
            if (wait) await wait;
            if (this.output.isCancelled) break reading;
          }
          if (++sinceProgress === PROGRESS_EVERY) {
            sinceProgress = 0;
            this.progress.urls += PROGRESS_EVERY;
            this.progress.bytesIn += fetched.transfer.wireBytes - record.bytesIn;
            record.bytesIn = fetched.transfer.wireBytes;
            this.notify();
          }
        }
      }
    } catch (error) {
      this.readFailure(node, error, signal);
    } finally {
      this.progress.urls += sinceProgress;
      this.progress.bytesIn += fetched.transfer.wireBytes - record.bytesIn;
      record.bytesIn = fetched.transfer.wireBytes;
      record.bytesDecoded = parsed.stats.bytesDecoded;
      record.gzip = parsed.stats.gzip || /gzip/i.test(fetched.headers['content-encoding'] ?? '');
      // Copies: a value sliced from the document's text would keep that whole text alive.
      if (lastmods?.newest !== undefined) record.newestLastmod = detach(lastmods.newest);
      if (lastmods?.oldest !== undefined) record.oldestLastmod = detach(lastmods.oldest);
      this.noteKind(node, parsed.kind);
    }
    for (const d of fetched.finish((code) => node.problems.has(code))) this.report(node, d);
    record.read = readOutcome({ kind: record.kind, reported: (code) => node.problems.has(code) });
    record.ok = readWhole(record.read);
    inspection?.end(parsed.kind, node.problems.errors > 0);
  }

  /** The inspection of a document about to be read, when the walk has an inspector. */
  private inspectionOf(node: WalkNode, fetched: SitemapBody): DocumentInspection | undefined {
    if (!this.options.inspect) return undefined;
    let root = node.id;
    while (this.records.parentOf(root) !== 0) root = this.records.parentOf(root);
    return this.options.inspect({
      url: node.record.url,
      finalUrl: fetched.finalUrl,
      crossSubmitted: this.recordOf(root).foundBy === 'robots',
      report: (d) => this.report(node, d),
    });
  }

  private readFailure(node: WalkNode, error: unknown, signal: AbortSignal): void {
    if (error instanceof TransferError) {
      this.report(node, error.diagnostic);
      node.transient = error.transient;
    } else if (error instanceof ParseError) {
      if (!node.record.diagnostics.includes(error.diagnostic)) this.report(node, error.diagnostic);
    } else if (!signal.aborted) {
      this.report(
        node,
        diagnostic('FETCH-001', `reading stopped: ${(error as Error).message}`, { source: node.record.url }),
      );
    }
  }

  /** Each task as it settles; what a failing one threw is its node's problem, never the walk's end. */
  private settled(node: WalkNode, settled: Settled<void>): void {
    this.progress.nodesDone += 1;
    if (!settled.ok && !this.signal?.aborted) {
      this.report(
        node,
        diagnostic('FETCH-001', `reading stopped: ${(settled.error as Error).message}`, { source: node.record.url }),
      );
      node.problems.settle();
    }
    // The record is final (until a last pass): written, and the node is a number again.
    this.records.settle(node.id, node.record);
    this.live.delete(node.id);
    if (!node.record.ok && node.transient && !node.lastPass) {
      const { id, retry, handedOut } = node;
      this.retryable.push({ id, host: new URL(node.record.url).host, retry, handedOut });
    }
    this.notify();
  }

  private noteKind(node: WalkNode, kind: DocumentKind | undefined): void {
    const record = node.record;
    if (kind === undefined || record.kind !== undefined) return;
    record.kind = kind;
    const nesting = nestingIndex(kind, node.parent || undefined);
    if (nesting !== undefined) {
      this.report(
        node,
        diagnostic(
          'IDX-002',
          `a sitemap index listed by the index ${this.recordOf(nesting).url}: indexes must not be nested`,
          {
            source: record.url,
          },
        ),
      );
    }
  }

  /** A child listed by an index: a new node, or IDX-005 when it is already in the tree. */
  private follow(parent: WalkNode, loc: string): void {
    const url = detach(withoutFragment(loc)); // kept for the whole walk: not a slice of the index's text
    const source = parent.record.url;
    const known = this.walk.metAt(url);
    if (known !== undefined) {
      // A repeat within the index, or the index itself, an inspecting validator reports with its place.
      const placedByInspector =
        this.options.inspect && (known === parent.id || this.records.parentOf(known) === parent.id);
      if (!placedByInspector)
        this.report(parent, diagnostic('IDX-005', this.describeRepeat(parent, known, url), { source, url }));
      return;
    }
    if (!this.walk.followsChildrenAt(parent.record.depth)) {
      if (!parent.depthLimitReported) {
        parent.depthLimitReported = true;
        this.report(
          parent,
          diagnostic(
            'LIMIT-003',
            `children of ${source} are ${parent.record.depth + 1} levels below the root; only ${this.walk.maxDepth} are followed`,
            { source, url },
          ),
        );
      }
      return;
    }
    this.meet(newRecord(url, 'index', parent.record.depth + 1, source), parent.id);
    this.feed();
  }

  private describeRepeat(parent: WalkNode, known: number, url: string): string {
    if (known === parent.id) return `the index lists itself (${url}); it is read once`;
    for (let ancestor = parent.parent; ancestor !== 0; ancestor = this.records.parentOf(ancestor)) {
      if (ancestor === known) return `loop: ${url} lists this index, which lists it back; it is read once`;
    }
    const knownParent = this.records.parentOf(known);
    if (knownParent === parent.id) return `${url} is listed twice in this index; it is read once`;
    const where =
      knownParent !== 0 ? `by ${this.recordOf(knownParent).url}` : `as a root (${this.recordOf(known).foundBy})`;
    return `${url} is already listed ${where}; it is read once`;
  }

  private report(node: WalkNode, d: Diagnostic): void {
    node.problems.add(d);
  }

  private notify(): void {
    if (!this.options.onProgress) return;
    this.progress.elapsedMs = Date.now() - this.started;
    this.options.onProgress({ ...this.progress });
  }
}

/** SITEMAPKIT_TREE_SPILL_AFTER, when set (tests force the scratch file with a small tree), else the default. */
function spillAfterFromEnvironment(): number {
  const set = Number(process.env['SITEMAPKIT_TREE_SPILL_AFTER']);
  return process.env['SITEMAPKIT_TREE_SPILL_AFTER'] && set >= 0 ? set : DEFAULT_SPILL_AFTER;
}

/**
 * A copy of the parser's entry that names its sitemap: the parser's own object is left as it was.
 * (Object.assign, not a spread: V8 copies the parser's entries several times faster this way.)
 */
function withSource(entry: UrlEntry, source: string): SourcedEntry {
  const copy: SourcedEntry = Object.assign({}, entry);
  copy.source = source;
  return copy;
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/** A sitemap that is not there: 4xx (a timeout or 5xx may pass, and says nothing). */
function isMissing(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500;
}
