/**
 * `tree --sites FILE` as work of a run: each site (one per line of FILE) is one item, leased by
 * one worker, which walks its whole sitemap tree and streams what it read: every URL entry (with
 * `--urls`) as a JSON line with its `source` sitemap and its `site`, then the site's summary row.
 * The summary row is the item's result in the store, so the run's rows can be written again from
 * there by any process. Sites on one host are walked one at a time: the walk has its own
 * politeness inside the host.
 *
 * With a memory of earlier walks (`--state DIR`), each site is walked with the conditional fetches
 * of the tree walk (discover/conditional.ts): a sitemap unchanged since the walk that remembered
 * it is not read again (or, when every entry is wanted, read but marked unchanged). What a site's
 * walk read whole is remembered once its lines are out.
 */
import { ConditionalFetches } from '../discover/conditional.js';
import type { HttpClient } from '../http/client.js';
import { resolveStart, walkSitemapTree, type SitemapTree } from '../discover/tree.js';
import type { HostPoliteness } from '../pool/index.js';
import { entryToJsonLine } from '../report/entries.js';
import type { LeasedItem, NewItem, RunRecord, WorkQueue } from '../store/run-store.js';
import type { SitemapMemory } from '../store/sitemap-memory.js';
import type { Job } from './job.js';
import type { ItemVisit, WorkKind } from './worker.js';

export interface TreeSitesOptions {
  /** Index levels followed below a root. */
  maxDepth: number;
  /** Sitemaps read at once within one site's walk, and the politeness of its hosts. */
  concurrency: number;
  perHost: HostPoliteness;
  /** Stream every URL entry, not only the summary rows. */
  urls: boolean;
  /**
   * With a memory: send conditional requests and hold back the entries of unchanged sitemaps
   * (without --urls, or with --changed-only), rather than read every sitemap and mark them.
   */
  skipUnchanged?: boolean | undefined;
}

/** The summary row of one site, as streamed and as stored. */
export interface SiteRow {
  kind: 'site';
  site: string;
  mode: SitemapTree['mode'];
  ok: boolean;
  sitemaps: number;
  read: number;
  failed: number;
  urls: number;
  errors: number;
  warnings: number;
  /** Sitemaps unchanged since the last walk (with --state). */
  unchanged?: number;
  newestLastmod?: string;
  oldestLastmod?: string;
  /** The codes of the problems met, with their counts. */
  codes: Record<string, number>;
  durationMs: number;
}

/** The outcome of a site item: read whole, or not (a sitemap failed, or none was found). */
export type SiteOutcome = 'read' | 'failed';

/** One site walked by one lease: sites of one host never walk at once. */
export const SITE_PACE = { concurrency: 1, delayMs: 0 };

/**
 * The lines of a sites file as items: one per site (host, origin or sitemap URL), blank lines
 * and `#` comments skipped, each site once. A line that is no site is an error naming it.
 */
export function siteItems(text: string, file: string): NewItem[] {
  const items = new Map<string, NewItem>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    let start;
    try {
      start = resolveStart(line);
    } catch (error) {
      throw new Error(`${file}:${index + 1}: ${(error as Error).message}`, { cause: error });
    }
    const url = start.mode === 'site' ? start.site : start.url;
    // A site typed without a scheme stays as typed: the walk tries https, then http.
    const site = start.schemeGuessed ? line.replace(/\/+$/, '') : url;
    if (!items.has(site)) items.set(site, { url: site, host: new URL(url).origin });
  });
  return [...items.values()];
}

/**
 * `tree --sites` as a job: walks a leased site and writes its lines through `write` (which waits
 * when the output is full). The HTTP client is shared by every site of the worker, and so is
 * `memory`, when the walks remember (--state).
 */
export const treeSitesJob: Job<TreeSitesOptions, SiteRow, TreeSitesTools> = {
  kind: 'tree-sites',
  step: ({ options }, { http, write, memory }) => treeSites(options, http, write, memory),
};

/** What a worker of `tree --sites` hands its step: where lines go, and the memory of earlier walks. */
export interface TreeSitesTools {
  /** Writes lines out, waiting while the output is full. */
  write: (text: string) => Promise<void>;
  memory?: SitemapMemory | undefined;
}

function treeSites(
  options: TreeSitesOptions,
  client: HttpClient,
  write: (text: string) => Promise<void>,
  memory?: SitemapMemory,
): WorkKind<SiteRow> {
  return {
    hostDelay: () => Promise.resolve(options.perHost.delayMs),
    async visit(item: LeasedItem, _lease, signal): Promise<ItemVisit<SiteRow>> {
      const site = item.url;
      const conditional =
        memory === undefined
          ? undefined
          : new ConditionalFetches({ memory, skipUnchanged: options.skipUnchanged ?? !options.urls });
      const walk = walkSitemapTree(site, {
        http: client,
        maxDepth: options.maxDepth,
        concurrency: options.concurrency,
        perHost: options.perHost,
        signal,
        ...(conditional === undefined ? {} : { conditional }),
      });
      const siteField = `,"site":${JSON.stringify(site)}}`;
      let pending = '';
      for await (const batch of walk.batches()) {
        if (!options.urls) continue;
        for (const { entry, source } of batch)
          pending += `${entryToJsonLine(entry, source).slice(0, -1)}${siteField}\n`;
        if (pending.length >= 64 * 1024) {
          await write(pending);
          pending = '';
        }
      }
      const tree = await walk.tree;
      const row = siteRow(site, tree);
      await write(`${pending}${JSON.stringify(row)}\n`);
      // A walk stopped halfway is not a result: the site is walked again.
      if (!tree.complete) return { fetched: true, againAfterMs: 0 };
      // Its lines are out: what it read whole may now be taken for unchanged next time.
      if (conditional !== undefined) memory!.remember(conditional.remembered(), new Date());
      return { outcome: row.ok ? 'read' : 'failed', fetched: true, result: row };
    },
  };
}

export function siteRow(site: string, tree: SitemapTree): SiteRow {
  const { totals } = tree;
  const codes: Record<string, number> = {};
  const count = (more: Record<string, number>) => {
    for (const [code, n] of Object.entries(more)) codes[code] = (codes[code] ?? 0) + n;
  };
  const visit = (node: SitemapTree['roots'][number]) => {
    count(node.codes);
    node.children.forEach(visit);
  };
  tree.roots.forEach(visit);
  for (const d of [...(tree.robots?.diagnostics ?? []), ...tree.diagnostics]) count({ [d.code]: 1 });
  return {
    kind: 'site',
    site,
    mode: tree.mode,
    ok: tree.complete && totals.read > 0 && totals.failed === 0,
    sitemaps: totals.sitemaps,
    read: totals.read,
    failed: totals.failed,
    urls: totals.urls,
    errors: totals.errors,
    warnings: totals.warnings,
    ...(totals.unchanged === undefined ? {} : { unchanged: totals.unchanged }),
    ...(totals.newestLastmod === undefined ? {} : { newestLastmod: totals.newestLastmod }),
    ...(totals.oldestLastmod === undefined ? {} : { oldestLastmod: totals.oldestLastmod }),
    codes,
    durationMs: tree.durationMs,
  };
}

/** What a tree-sites run came to, from the store: sites by outcome, and URLs read. */
export interface SitesTotals {
  sites: number;
  read: number;
  failed: number;
  todo: number;
  urls: number;
}

/**
 * Writes the summary row of every site of the run, in the order of the sites file, to `write`
 * (a file's stream): the run's rows from the store, whoever walked them. Resolves to the totals.
 */
export async function writeSiteRows(
  store: WorkQueue,
  run: RunRecord,
  write?: (line: string) => Promise<void>,
): Promise<SitesTotals> {
  const totals: SitesTotals = { sites: 0, read: 0, failed: 0, todo: 0, urls: 0 };
  for await (const item of store.items(run.id)) {
    totals.sites += 1;
    if (item.outcome === 'read') totals.read += 1;
    else if (item.outcome === null) totals.todo += 1;
    else totals.failed += 1;
    const row = item.result as SiteRow | undefined;
    totals.urls += row?.urls ?? 0;
    if (row !== undefined) await write?.(`${JSON.stringify(row)}\n`);
  }
  return totals;
}
