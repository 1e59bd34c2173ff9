/**
 * `diff --check-redirects`: a removed URL that now redirects to an added one was moved, not lost.
 * The rows of the diff are held on disk (store/diff-rows.ts) until the walk is over; then each
 * removed URL is requested (politely, through the work pool: a few at a time per host) and, when
 * a hop of its redirects lands on an added URL, its row becomes `{"change":"moved","loc":old,
 * "to":new}` and the added row of its target is left out. The rows then come out in URL order.
 *
 * A URL whose request fails keeps its removed row, and the failure is reported: a check that
 * could not be made says nothing.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { HttpClient } from '../http/client.js';
import { WorkPool, type HostPoliteness } from '../pool/index.js';
import { DiffRowStore } from '../store/diff-rows.js';
import type { DiffRow, SitemapDiff } from './diff.js';

export interface RedirectCheckOptions {
  http: HttpClient;
  /** Requests at once across hosts, and politeness per host. */
  concurrency?: number | undefined;
  perHost?: Partial<HostPoliteness> | undefined;
  signal?: AbortSignal | undefined;
  /** A removed URL whose check failed. */
  onProblem?: ((problem: Diagnostic) => void) | undefined;
  /** Removed URLs checked so far. */
  onProgress?: ((checked: number) => void) | undefined;
}

/** What a page's redirect check asks for: any page, read no further than its first bytes. */
const PAGE_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';
/** Removed URLs queued at once: the rest wait on disk. */
const PAGE_SIZE = 1_000;

/** The rows of `diff` with removed URLs that now redirect to added ones as moves, in URL order. */
export async function* withMoves(diff: SitemapDiff, options: RedirectCheckOptions): AsyncGenerator<DiffRow> {
  const held = new DiffRowStore();
  try {
    for await (const row of diff.unordered()) held.hold(row.loc, row.change, JSON.stringify(row));
    held.endHolding();
    const unchecked = await checkRemoved(held, options);
    const { moved, targets } = held.moves();
    Object.assign(diff.counts, {
      moved,
      removed: diff.counts.removed - moved,
      added: diff.counts.added - targets,
      unchecked,
    });
    for (const row of held.rows())
      yield row.movedTo === undefined
        ? (JSON.parse(row.row) as DiffRow)
        : { change: 'moved', loc: row.loc, to: row.movedTo };
  } finally {
    held.close();
  }
}

/** Requests every removed URL, a page of them at a time; returns how many could not be checked. */
async function checkRemoved(held: DiffRowStore, options: RedirectCheckOptions): Promise<number> {
  let failed = 0;
  let checked = 0;
  const pool = new WorkPool<string, string | undefined>({
    run: (loc, { signal }) => movedTo(loc, held, options.http, signal),
    onSettled: (loc, settled) => {
      checked += 1;
      options.onProgress?.(checked);
      if (settled.ok) {
        if (settled.value !== undefined) held.markMoved(loc, settled.value);
        return;
      }
      failed += 1;
      options.onProblem?.(
        diagnostic('FETCH-001', `its redirects could not be checked: ${(settled.error as Error).message}`, {
          severity: 'warning',
          url: loc,
        }),
      );
    },
    concurrency: options.concurrency,
    perHost: options.perHost,
    signal: options.signal,
  });
  for (
    let page = held.removedAfter('', PAGE_SIZE);
    page.length > 0;
    page = held.removedAfter(page.at(-1)!, PAGE_SIZE)
  ) {
    for (const loc of page) pool.enqueue(loc, hostOf(loc));
    await pool.idle();
    options.signal?.throwIfAborted();
  }
  return failed;
}

/** The added URL that `loc` now redirects to (the last such hop), if any. */
async function movedTo(
  loc: string,
  held: DiffRowStore,
  http: HttpClient,
  signal: AbortSignal,
): Promise<string | undefined> {
  const response = await http.get(loc, { accept: PAGE_ACCEPT, maxBytes: 1, signal });
  response.discard();
  return response.redirects
    .map((hop) => hop.to)
    .reverse()
    .find((to) => held.isAdded(to));
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
