/**
 * The progress of a crawl worked in this process: counts read from the queue when the work starts
 * (a resumed crawl's earlier work included) and when it ends, and counted from each visit in
 * between, so the progress line costs no query per page.
 */
import { UNREAD_REASONS, type CrawlProgress } from '../crawl/types.js';
import type { WorkQueue } from '../store/run-store.js';
import type { WorkKind } from './worker.js';

const UNREAD = new Set<string>(UNREAD_REASONS);

export class CrawlCounts implements CrawlProgress {
  fetched = 0;
  fetchedEarlier = 0;
  queued = 0;
  listed = 0;
  errors = 0;
  inFlight = 0;

  static async of(store: WorkQueue, name: string): Promise<CrawlCounts> {
    const counts = new CrawlCounts();
    await counts.refresh(store, name);
    counts.fetchedEarlier = counts.fetched;
    return counts;
  }

  async refresh(store: WorkQueue, name: string): Promise<void> {
    const status = await store.status(name);
    if (status === undefined) return;
    this.fetched = status.fetchedItems;
    this.queued = status.todo;
    this.listed = status.outcomes.listed ?? 0;
    this.errors = UNREAD_REASONS.reduce((sum, reason) => sum + (status.outcomes[reason] ?? 0), 0);
  }

  /** The counts as a plain value, for a caller to keep. */
  snapshot(): CrawlProgress {
    const { fetched, fetchedEarlier, queued, listed, errors, inFlight } = this;
    return { fetched, fetchedEarlier, queued, listed, errors, inFlight };
  }

  /** `kind`, its visits counted here; `told` after each. */
  counting<Result>(kind: WorkKind<Result>, told: () => void): WorkKind<Result> {
    return {
      ...kind,
      hostDelay: (host, signal) => kind.hostDelay(host, signal),
      visit: async (item, lease, signal) => {
        this.inFlight += 1;
        try {
          const visit = await kind.visit(item, lease, signal);
          // Pages, not requests: a page tried again, or a redirect followed, counts once.
          if (visit.outcome !== undefined && visit.fetched) this.fetched += 1;
          for (const found of visit.found ?? []) if (found.fetched === true) this.fetched += 1;
          for (const outcome of [visit.outcome, ...(visit.found ?? []).map((found) => found.outcome ?? null)]) {
            if (outcome === null) this.queued += 1;
            else if (outcome === 'listed') this.listed += 1;
            else if (outcome !== undefined && UNREAD.has(outcome)) this.errors += 1;
          }
          if (visit.outcome !== undefined) this.queued -= 1;
          return visit;
        } finally {
          this.inFlight -= 1;
          told();
        }
      },
    };
  }
}
