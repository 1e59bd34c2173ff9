/**
 * The audit's state keeps its sitemaps in the file, not in memory: a tree may hold a million, and
 * each sitemap URL kept in a Map cost about 130 bytes for the whole audit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SqliteAuditStore } from '../../src/store/audit-store.js';

test('listings of 40,000 sitemaps hold no memory per sitemap; each keeps its sitemap', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-store-'));
  const store = new SqliteAuditStore(join(dir, 'audit.sqlite'));
  try {
    let next = 0;
    const sitemap = (i: number) => `https://www.example.com/sitemaps/leaf/${i}.xml`;
    const list = (count: number) => {
      for (let end = next + count; next < end; next += 500) {
        store.addListings(
          Array.from({ length: 500 }, (_, k) => ({
            url: `https://www.example.com/page/${next + k}`,
            sitemap: sitemap(next + k),
            line: 3,
            sampleKey: next + k,
          })),
        );
      }
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    list(5_000);
    const before = list(5_000);
    const perSitemap = (list(30_000) - before) / 30_000;
    assert.ok(perSitemap < 40, `${Math.round(perSitemap)} bytes held a sitemap`);
    assert.equal(store.listedCount(), 40_000);
    const listed = store.nextToCheck(-1, 40_000);
    assert.equal(listed.find((l) => l.url === 'https://www.example.com/page/17')?.sitemap, sitemap(17));
    assert.equal(listed.find((l) => l.url === 'https://www.example.com/page/39999')?.sitemap, sitemap(39_999));
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
