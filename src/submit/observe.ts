/**
 * What the sites look like now, written into the submission ledger before anything is sent: from a
 * SOURCE (sitemaps, a URL list, a site's tree), whose URLs are the whole of their hosts, so that a
 * URL the ledger knows and the source no longer lists is gone; or from the generate ledger
 * (--from-state), whose changes since the last submission say themselves what was added, changed
 * and removed. Each URL's state is a digest of its entry: a new lastmod, image or alternate is a
 * change to announce.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { UrlEntry } from '../core/entry.js';
import { SitemapSet, type SitemapSetOptions } from '../diff/sitemap-set.js';
import { GenerateLedgerReader } from '../store/generate-ledger.js';
import { generateLedgerPath } from '../store/site-database.js';
import { REMOVED, type SubmissionLedger } from '../store/submission-ledger.js';

/** Hex digits of an entry's digest: 128 bits tell versions of an entry apart. */
const DIGEST_CHARS = 32;
const PROGRESS_EVERY = 10_000;

export interface Observed {
  /** Hosts seen, with their URLs seen in this run. */
  hosts: Map<string, number>;
  /** Hosts whose first run this is (for --from-state: the hosts of a site read for the first time). */
  firstRun: Set<string>;
  /** False when the source could not be read whole: nothing was taken for removed. */
  complete: boolean;
  /** URLs marked removed because the source no longer lists them, or the generate ledger said so. */
  removed: number;
  /** The sitemaps read, for --ping: the source's URL, or each site's entry point. */
  sitemaps: string[];
}

export interface ObserveOptions {
  ledger: SubmissionLedger;
  run: number;
  onProblem?: ((problem: Diagnostic) => void) | undefined;
  onProgress?: ((urls: number) => void) | undefined;
}

/** Reads a SOURCE whole into the ledger; unseen URLs of its hosts are removed when it was read whole. */
export async function observeSource(
  source: string,
  options: ObserveOptions & { set?: SitemapSetOptions | undefined; sitemapUrl?: string | undefined },
): Promise<Observed> {
  const { ledger, run } = options;
  const set = new SitemapSet(source, { ...options.set, onProblem: options.onProblem });
  const hosts = new Map<string, number>();
  let urls = 0;
  try {
    for await (const entry of set) {
      const host = hostOf(entry.loc);
      if (host === undefined) {
        options.onProblem?.(
          diagnostic('URL-001', `"${entry.loc}" is not an absolute http(s) URL; not submitted`, { url: entry.loc }),
        );
        continue;
      }
      hosts.set(host, (hosts.get(host) ?? 0) + 1);
      ledger.observe(run, host, entry.loc, entryDigest(entry));
      if (++urls % PROGRESS_EVERY === 0) options.onProgress?.(urls);
    }
  } finally {
    ledger.endObserving();
  }
  const firstRun = new Set([...hosts.keys()].filter((host) => !ledger.knowsHost(host)));
  const removed = set.complete ? ledger.markUnseenRemoved(run, [...hosts.keys()]) : 0;
  const sitemapUrl = options.sitemapUrl ?? (/^https?:\/\//i.test(source) ? source : undefined);
  return { hosts, firstRun, complete: set.complete, removed, sitemaps: sitemapUrl ? [sitemapUrl] : [] };
}

/**
 * Reads the generate ledger in `stateDir`: for each site, its changes since the last run this
 * ledger read; for a site read for the first time, every URL it has now (to be recorded, not sent).
 */
export function observeGenerateLedger(stateDir: string, options: ObserveOptions): Observed {
  const { ledger, run } = options;
  let reader: GenerateLedgerReader;
  try {
    reader = new GenerateLedgerReader(generateLedgerPath(stateDir));
  } catch (error) {
    // A ledger that is there but cannot be read (a newer sitemapkit's) says why itself.
    if (existsSync(generateLedgerPath(stateDir))) throw error;
    throw new Error(
      `no generate ledger at ${generateLedgerPath(stateDir)} (${(error as Error).message}): run "sitemapkit generate … --state ${stateDir}" first`,
      { cause: error },
    );
  }
  const observed: Observed = { hosts: new Map(), firstRun: new Set(), complete: true, removed: 0, sitemaps: [] };
  let urls = 0;
  const see = (loc: string, state: string, first: boolean) => {
    const host = hostOf(loc);
    if (host === undefined) return;
    observed.hosts.set(host, (observed.hosts.get(host) ?? 0) + 1);
    if (first) observed.firstRun.add(host);
    if (state === REMOVED) observed.removed += 1;
    ledger.observe(run, host, loc, state);
    if (++urls % PROGRESS_EVERY === 0) options.onProgress?.(urls);
  };
  try {
    for (const site of reader.sites()) {
      observed.sitemaps.push(`${site.baseUrl}sitemap.xml${site.gzipIndex ? '.gz' : ''}`);
      const mark = ledger.mark(site.baseUrl);
      if (mark === undefined) for (const { loc, digest } of reader.urlsOf(site.baseUrl)) see(loc, digest, true);
      else
        for (const change of reader.changesSince(site.baseUrl, mark, site.lastRun))
          see(change.loc, change.change === 'removed' ? REMOVED : change.digest!, false);
      ledger.endObserving();
      ledger.setMark(site.baseUrl, site.lastRun);
    }
  } finally {
    ledger.endObserving();
    reader.close();
  }
  return observed;
}

/** The digest of an entry as a source gives it: any change of a field is a change to announce. */
export function entryDigest(entry: UrlEntry): string {
  return createHash('sha256').update(JSON.stringify(entry)).digest('hex').slice(0, DIGEST_CHARS);
}

function hostOf(loc: string): string | undefined {
  try {
    const url = new URL(loc);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}
