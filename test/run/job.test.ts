/**
 * A stored run read as a typed job: the options its creator set down come back as the job's type,
 * and a run of another kind is refused with both kinds named, never read as the wrong options.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { auditJob } from '../../src/run/audit-checks.js';
import { crawlJob, type CrawlRunOptions } from '../../src/run/crawl-pages.js';
import { runOfJob } from '../../src/run/job.js';
import { RunStore } from '../../src/store/run-store.js';

test('a run of the crawl job reads as one; read as an audit it is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-job-'));
  const store = await RunStore.open(join(dir, 'runs.sqlite'));
  try {
    const options: CrawlRunOptions = {
      startUrls: ['http://a.test/'],
      include: [],
      exclude: [],
      keepParams: [],
      stripParams: [],
      trapLimits: {},
      maxPageBytes: 1000,
      delayMs: 0,
      concurrency: 2,
    };
    const { run } = await store.createOrJoin({ name: 'typed', kind: crawlJob.kind, options, state: 'running' }, [], {
      concurrency: 2,
    });
    const stored = (await store.run('typed'))!;
    assert.deepEqual(runOfJob(crawlJob, stored).options.startUrls, ['http://a.test/']);
    assert.throws(() => runOfJob(auditJob, run), /the run "typed" is of the kind crawl, not audit/);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
