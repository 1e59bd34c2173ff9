/**
 * The crawl state file of an audit's --crawl: a run store on SQLite (store/run-store.ts) in which
 * the crawl is a run (run/crawl-site.ts). This handle only names the file and settles whether it
 * starts afresh: a fresh crawl deletes the file of an earlier one; a resumed one keeps it, unless
 * it is the crawl state of an earlier sitemapkit, which cannot be resumed.
 */
import { rmSync } from 'node:fs';
import { refuseFormerStore } from './state-file.js';

export class CrawlStore {
  /**
   * Names the crawl state at `file`. `fresh` discards an earlier crawl's state there; otherwise
   * the state is kept for resuming.
   */
  constructor(
    readonly file: string,
    { fresh = false }: { fresh?: boolean } = {},
  ) {
    if (fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    else refuseFormerStore(file, { table: 'crawl_urls', what: 'the crawl state' }, 'audit again without --resume');
  }

  /** Nothing to close: the crawl opens and closes the file itself. */
  close(): void {}
}
