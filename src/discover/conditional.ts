/**
 * Conditional fetches for the tree walk (`tree --state DIR`): what was remembered of a sitemap
 * when it was last read whole (store/sitemap-memory.ts) turns the next request into a conditional
 * one (If-None-Match, If-Modified-Since), and a 304, or a body whose digest is the one remembered,
 * marks the sitemap unchanged. A crawler's daily ingestion of a site then reads only what changed.
 *
 * Two ways to meet a sitemap again, chosen by what the caller needs:
 * - `skipUnchanged` (tree's report, `--urls --changed-only`): conditional requests are sent, and a
 *   body is first spooled to a temporary file while it is digested, so that an unchanged one is
 *   never parsed and none of its entries goes out;
 * - otherwise (`--urls` without --changed-only, every entry wanted): plain requests, the body
 *   digested as it is parsed, and the sitemap marked unchanged afterwards.
 * Only a sitemap read whole is remembered; a 5xx, 408 or 429 (any failure) is never taken for
 * "unchanged" or "empty": the walk reports it, and the memory keeps what it had.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SitemapBody } from '../http/sitemap-fetch.js';
import type { RememberedProblems, TreeNode } from './tree-model.js';

/** A sitemap as it was when last read whole. */
export interface RememberedSitemap {
  url: string;
  etag?: string | undefined;
  lastModified?: string | undefined;
  /** SHA-256 of the body (Content-Encoding undone), hex. */
  digest: string;
  kind: string;
  urls: number;
  sitemaps: number;
  /** The child sitemaps an index lists (none for a urlset). */
  children: string[];
  newestLastmod?: string | undefined;
  oldestLastmod?: string | undefined;
  /** Its problems when it was read: reported again while it stays unchanged. */
  problems: RememberedProblems;
}

/** What conditional fetches need of the memory: the store implements it (store/sitemap-memory.ts). */
export interface SitemapRecall {
  recall(url: string): RememberedSitemap | undefined;
}

export interface ConditionalOptions {
  memory: SitemapRecall;
  /** Send conditional requests and hold back the entries of unchanged sitemaps (see above). */
  skipUnchanged: boolean;
  /** Where bodies are spooled (default the system's temporary folder). */
  tempDir?: string | undefined;
}

/** A 200's body, ready to be parsed (digested on the way), or known unchanged. */
export type OpenedBody =
  | { unchanged: RememberedSitemap }
  | { body: AsyncIterable<Uint8Array>; digest: () => string; close: () => Promise<void> };

export class ConditionalFetches {
  /** The sitemaps read whole in this walk, by URL, to be remembered at its end. */
  private readonly seen = new Map<string, RememberedSitemap>();

  constructor(private readonly options: ConditionalOptions) {}

  recall(url: string): RememberedSitemap | undefined {
    return this.options.memory.recall(url);
  }

  /** The headers of a conditional request for a sitemap remembered, when conditional requests are sent. */
  headersFor(remembered: RememberedSitemap | undefined): Record<string, string> | undefined {
    if (!this.options.skipUnchanged || remembered === undefined) return undefined;
    const headers: Record<string, string> = {};
    if (remembered.etag !== undefined) headers['if-none-match'] = remembered.etag;
    if (remembered.lastModified !== undefined) headers['if-modified-since'] = remembered.lastModified;
    return Object.keys(headers).length > 0 ? headers : undefined;
  }

  /**
   * The body of a 200 to parse, digested as it goes; or, when unchanged sitemaps are skipped and
   * this one was remembered, spooled first and found unchanged. A transfer that breaks off while
   * spooled throws as it would have while parsed.
   */
  async open(fetched: SitemapBody, remembered: RememberedSitemap | undefined): Promise<OpenedBody> {
    const hash = createHash('sha256');
    if (!this.options.skipUnchanged || remembered === undefined) {
      return { body: digesting(fetched.body, hash), digest: () => hash.digest('hex'), close: async () => {} };
    }
    const folder = await mkdtemp(join(this.options.tempDir ?? tmpdir(), 'sitemapkit-tree-'));
    const close = () => rm(folder, { recursive: true, force: true });
    try {
      const path = join(folder, 'body');
      const file = await open(path, 'w');
      try {
        for await (const chunk of digesting(fetched.body, hash)) await file.write(chunk);
      } finally {
        await file.close();
      }
      const digest = hash.digest('hex');
      if (digest === remembered.digest) {
        await close();
        return { unchanged: remembered };
      }
      return { body: createReadStream(path), digest: () => digest, close };
    } catch (error) {
      await close();
      throw error;
    }
  }

  /**
   * A sitemap read whole (`digest` of its body), or found unchanged: to be remembered at the walk's
   * end. `children`: the URLs of the sitemaps it listed that the walk follows (a big walk keeps
   * them out of the record).
   */
  note(
    record: TreeNode,
    headers: Readonly<Record<string, string>>,
    digest: string,
    problems: RememberedProblems,
    children: readonly string[],
  ): void {
    this.seen.set(record.url, {
      url: record.url,
      etag: headers.etag,
      lastModified: headers['last-modified'],
      digest,
      kind: record.kind ?? 'unknown',
      urls: record.urls,
      sitemaps: record.sitemaps,
      children: [...children],
      newestLastmod: record.newestLastmod,
      oldestLastmod: record.oldestLastmod,
      problems,
    });
  }

  /**
   * Marks `record` unchanged, as `remembered` says it is, with the validators of this answer when
   * it has new ones. Its remembered problems are the walk's to replay (a 304 must not hide them).
   */
  unchanged(record: TreeNode, remembered: RememberedSitemap, headers: Readonly<Record<string, string>>): void {
    Object.assign(record, {
      ok: true,
      read: 'unchanged',
      unchanged: true,
      kind: remembered.kind,
      urls: remembered.urls,
      sitemaps: remembered.sitemaps,
      ...(remembered.newestLastmod === undefined ? {} : { newestLastmod: remembered.newestLastmod }),
      ...(remembered.oldestLastmod === undefined ? {} : { oldestLastmod: remembered.oldestLastmod }),
    });
    this.seen.set(record.url, {
      ...remembered,
      etag: headers.etag ?? remembered.etag,
      lastModified: headers['last-modified'] ?? remembered.lastModified,
    });
  }

  /** Every sitemap of the walk read whole or found unchanged, to be remembered (after the output is out). */
  remembered(): RememberedSitemap[] {
    return [...this.seen.values()];
  }
}

async function* digesting(body: AsyncIterable<Uint8Array>, hash: Hash): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    hash.update(chunk);
    yield chunk;
  }
}
