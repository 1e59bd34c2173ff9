/**
 * `crawl --use-sitemaps`: the page URLs of a site's existing sitemaps (robots.txt and well-known
 * locations), as more URLs to start from, and, once they are all read, the sitemaps that could not
 * be read whole: the pages only they list, which no link may lead to, are missing. Used by the
 * crawl of one process and by the workers of a crawl run alike.
 */
import type { HttpClient } from '../http/client.js';
import {
  unreadNodes,
  walkSitemapTree,
  type SitemapTreeWalk,
  type TreeNode,
  type TreeOptions,
} from '../discover/tree.js';

export class SitemapSeeds {
  private walk: SitemapTreeWalk | undefined;
  private readToTheEnd = false;

  /** @param politeness how many sitemaps are read at once, per host and in all (the walk's defaults otherwise) */
  constructor(
    private readonly http: HttpClient,
    private readonly politeness: Pick<TreeOptions, 'concurrency' | 'perHost'> = {},
  ) {}

  /** The URLs listed by the sitemaps of `site` (an origin), as they are read. */
  async *urls(site: string): AsyncIterable<string> {
    this.walk = walkSitemapTree(site, { http: this.http, ...this.politeness });
    for await (const entry of this.walk) if (entry.kind === 'url') yield entry.loc;
    this.readToTheEnd = true;
  }

  /** The sitemaps not read whole, once every URL was read (none before, or when all were). */
  async unread(): Promise<TreeNode[]> {
    if (!this.walk || !this.readToTheEnd) return [];
    return unreadNodes((await this.walk.tree).roots);
  }
}
