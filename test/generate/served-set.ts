/**
 * What a web server would serve from an output directory: the entry point, the files it names,
 * and every URL in them, read with the project's parser. It throws when the entry point names a
 * file that is missing or does not read whole: a broken set, which publication must never leave.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Entry } from '../../src/core/index.js';
import { parseSitemap } from '../../src/parse/index.js';
import { BASE_URL } from './entries.js';

export interface ServedSet {
  kind: 'urlset' | 'text' | 'sitemapindex';
  /** The files the entry point names, in order (empty when it is the only file). */
  shards: string[];
  /** Every URL served, in order. */
  locs: string[];
}

export async function servedSet(outDir: string, entryPoint = 'sitemap.xml', baseUrl = BASE_URL): Promise<ServedSet> {
  const entry = await readWhole(outDir, entryPoint);
  if (entry.kind !== 'sitemapindex') return { kind: entry.kind, shards: [], locs: entry.locs };
  const shards = entry.locs.map((loc) => {
    assert.ok(loc.startsWith(baseUrl), `${loc} is not under ${baseUrl}`);
    return loc.slice(baseUrl.length);
  });
  const locs: string[] = [];
  for (const shard of shards) {
    const file = await readWhole(outDir, shard);
    assert.notEqual(file.kind, 'sitemapindex', `${shard} is an index inside an index`);
    locs.push(...file.locs);
  }
  return { kind: 'sitemapindex', shards, locs };
}

async function readWhole(outDir: string, name: string): Promise<{ kind: ServedSet['kind']; locs: string[] }> {
  const parsed = parseSitemap({ path: join(outDir, name) });
  const entries: Entry[] = [];
  for await (const entry of parsed) entries.push(entry);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(errors, [], `${name} does not read whole`);
  const kind = parsed.kind;
  assert.ok(
    kind === 'urlset' || kind === 'text' || kind === 'sitemapindex',
    `${name} is a ${kind ?? 'unreadable'} document`,
  );
  return { kind, locs: entries.map((e) => e.loc) };
}
