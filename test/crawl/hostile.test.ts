/**
 * Pages that lie about themselves (issue 10 §4, §7): a body that never ends, a gzip bomb, a page
 * larger than the limit, gzip served as HTML. Each is reported with its reason and none is listed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MAX_PAGE_BYTES } from '../../src/crawl/adapters.js';
import type { CrawlReport } from '../../src/report/crawl.js';
import { runCli } from '../helpers/cli.js';
import { HOSTILE_OUTCOMES, hostileSite } from './fixtures/hostile-pages.js';
import { serveSite, type RunningSite } from './fixtures/server.js';

interface LeftOutLine {
  url: string;
  reason: string;
  detail: string | null;
  found_on: string | null;
}

describe('crawl of hostile pages', () => {
  let site: RunningSite;
  let dir: string;
  before(async () => {
    site = await serveSite(hostileSite(DEFAULT_MAX_PAGE_BYTES));
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-hostile-'));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports each page cut off or not HTML with its reason, lists none of them, and exits 1', async () => {
    const leftOutFile = join(dir, 'left-out.jsonl');
    const result = await runCli([
      'crawl',
      `${site.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state'),
      '--json',
      '--report',
      leftOutFile,
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /sitemapkit crawl: 3 pages could not be read \(server error, no response or cut off\)/);
    const report = JSON.parse(result.stdout) as CrawlReport;
    assert.equal(report.unread, 3);

    const lines = readFileSync(leftOutFile, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LeftOutLine);
    const outcomes = Object.fromEntries(lines.map((line) => [line.url.slice(site.origin.length), line.reason]));
    const listed = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')
      .match(/<loc>[^<]*<\/loc>/g)!
      .map((loc) => loc.slice(5 + site.origin.length, -6));
    for (const path of listed) outcomes[path] = 'listed';
    assert.deepEqual(outcomes, HOSTILE_OUTCOMES);

    const detail = (path: string) => lines.find((line) => line.url === site.origin + path)?.detail;
    assert.equal(
      detail('/endless'),
      'cut off at 10,485,760 bytes (--max-page-bytes): the page is larger, or never ends',
    );
    assert.match(
      detail('/bomb')!,
      /^cut off at 10,485,760 bytes \(--max-page-bytes\): unpacked from [\d,]+ bytes on the wire: a compression bomb\?$/,
    );
    assert.equal(detail('/gzip-file'), 'served as text/html, but the body is gz data (application/gzip)');
    assert.equal(detail('/double-gzip'), 'served as text/html, but the body is gz data (application/gzip)');
    assert.equal(lines.find((line) => line.url.endsWith('/big'))?.found_on, `${site.origin}/`);
    assert.ok(site.requests.includes('/before-the-cut'), 'the link before the cut is followed');
    assert.ok(!site.requests.includes('/after-the-cut'), 'the link past the cut is never seen');
  });
});
