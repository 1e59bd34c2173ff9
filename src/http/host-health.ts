/**
 * How each host has answered lately, for the wait before a retry. Backoff is there to give an
 * overloaded server air; a host that answers nearly everything is not overloaded, and a URL it
 * fails is the page's own fault (a broken page answers 500 every time). Waiting seconds for such
 * a URL only holds up the end of a crawl or an audit, so it is retried after a short wait, as
 * crawlers such as Scrapy and Crawlee retry at once. A host failing broadly gets the full
 * exponential backoff; Retry-After is always honoured (http/retries.ts).
 */

import { originOf } from '../core/url.js';

/** First attempts remembered per host: the most recent ones. */
const WINDOW = 50;
/** Fewer answers than this say nothing of a host's health. */
const MIN_ANSWERS = 20;
/** A host whose recent answers fail at most this share is healthy. */
const HEALTHY_FAILURE_SHARE = 0.1;
/** Hosts remembered at most (the oldest forgotten first): a walk of many sites stays small. */
const MAX_HOSTS = 1_000;

/** The recent answers of one host, a ring of WINDOW outcomes (1: failed). */
class RecentAnswers {
  private readonly failedAt = new Uint8Array(WINDOW);
  private next = 0;
  private count = 0;
  private failures = 0;

  add(failed: boolean): void {
    if (this.count === WINDOW) this.failures -= this.failedAt[this.next]!;
    else this.count++;
    this.failedAt[this.next] = failed ? 1 : 0;
    this.failures += failed ? 1 : 0;
    this.next = (this.next + 1) % WINDOW;
  }

  get healthy(): boolean {
    return this.count >= MIN_ANSWERS && this.failures <= this.count * HEALTHY_FAILURE_SHARE;
  }
}

/** The recent answers of each host (by origin). */
export class HostHealth {
  private readonly hosts = new Map<string, RecentAnswers>();

  /** Counts a first attempt at `url`: answered, or failed in a way worth retrying (a 5xx, a 429, no answer). */
  record(url: string, failed: boolean): void {
    const origin = originOf(url) ?? url;
    let answers = this.hosts.get(origin);
    if (answers === undefined) {
      if (this.hosts.size >= MAX_HOSTS) this.hosts.delete(this.hosts.keys().next().value!);
      this.hosts.set(origin, (answers = new RecentAnswers()));
    }
    answers.add(failed);
  }

  /** Whether the host of `url` answered nearly all of the recent requests for documents new to it. */
  isHealthy(url: string): boolean {
    return this.hosts.get(originOf(url) ?? url)?.healthy ?? false;
  }
}
