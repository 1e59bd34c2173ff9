/**
 * Benchmark of serving a sitemap from a route. One shard of 50,000 URLs (realistic entries: most
 * with a lastmod, a third with changefreq and priority, 1 in 7 with `&`) is answered over HTTP on
 * 127.0.0.1 from a paged in-memory source by
 *   - sitemapkit: sitemapHandler (serveSitemaps bridged to node:http), the shard /sitemap-0.xml of
 *     a set of 100,000, its validators found by a first pass over the page;
 *   - sitemap.js: its SitemapStream fed the same page and piped to the same kind of response, as
 *     its README serves a sitemap from Express;
 * each plain and gzip (sitemap.js through zlib's createGzip), each server in a child process of
 * its own so that its peak RSS is its own. The client (this process) times each request from its
 * start to the last byte; the first request is "cold", the best of the others "warm".
 *
 * Then the 200th shard of a set of 10,000,000 URLs (a source that computes its pages, as a
 * database query would return them) against the 1st, through the same sitemapkit server.
 *
 *   npm run bench:serve
 *   node dist/bench/serve.bench.js --rounds 8
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import type { UrlEntry } from '../src/core/index.js';
import type { PagedSource } from '../src/serve/serve-sitemaps.js';

const HOST = 'https://www.example.com';
const SHARD = 50_000;
const CONTENDERS = ['sitemapkit', 'sitemap.js'] as const;
type Contender = (typeof CONTENDERS)[number];
const MODES = ['plain', 'gzip'] as const;

/** Entry i of the set (the same shape generate.bench.ts writes). */
function entryAt(i: number): UrlEntry {
  const category = `category-${i % 97}`;
  const loc =
    i % 7 === 0 ? `${HOST}/shop/${category}/item-${i}?colour=blue&size=m` : `${HOST}/shop/${category}/item-${i}`;
  const entry: UrlEntry = { kind: 'url', loc };
  if (i % 5 !== 0) entry.lastmod = `2024-04-${String(1 + (i % 28)).padStart(2, '0')}`;
  if (i % 3 === 0) {
    entry.changefreq = i % 2 === 0 ? 'daily' : 'weekly';
    entry.priority = 0.5;
  }
  return entry;
}

/** A set held in memory, read a page at a time (an array slice per page). */
function inMemorySource(count: number): PagedSource & { all: UrlEntry[] } {
  const all = Array.from({ length: count }, (_, i) => entryAt(i));
  return { all, count: () => count, page: (index, size) => all.slice(index * size, (index + 1) * size) };
}

/** A set too large to hold, its pages computed as a query would return them. */
function computedSource(count: number): PagedSource {
  return {
    count: () => count,
    *page(index, size) {
      for (let i = index * size; i < Math.min(count, (index + 1) * size); i++) yield entryAt(i);
    },
  };
}

// ---- the servers (each in a child process) ----------------------------------------------------

async function serve(contender: Contender | 'sitemapkit-10M'): Promise<void> {
  let handle: (url: string, response: ServerResponse, request: IncomingMessage) => Promise<void>;
  if (contender === 'sitemap.js') {
    const { SitemapStream } = await import('sitemap');
    const source = inMemorySource(2 * SHARD);
    handle = async (url, response) => {
      const gzip = url.endsWith('.gz');
      response.writeHead(200, { 'content-type': gzip ? 'application/gzip' : 'application/xml' });
      const items = Readable.from(source.page(0, SHARD) as UrlEntry[]).map((entry: UrlEntry) => ({
        url: entry.loc,
        lastmod: entry.lastmod,
        changefreq: entry.changefreq,
        priority: entry.priority,
      }));
      const sitemap = new SitemapStream({ hostname: HOST });
      await (gzip ? pipeline(items, sitemap, createGzip(), response) : pipeline(items, sitemap, response));
    };
  } else {
    const { sitemapHandler } = await import('../src/serve/node.js');
    const source = contender === 'sitemapkit' ? inMemorySource(2 * SHARD) : computedSource(10_000_000);
    const sitemaps = sitemapHandler(source, { baseUrl: `${HOST}/`, dedupe: false });
    handle = (_url, response, request) => sitemaps(request, response);
  }
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    if (url === '/rss') return response.end(String(process.resourceUsage().maxRSS / 1024));
    void handle(url, response, request);
  });
  server.listen(0, '127.0.0.1', () => console.log(`port ${(server.address() as { port: number }).port}`));
}

// ---- the client (the parent) ---------------------------------------------------------------------

interface Timing {
  cold: number;
  warm: number;
  bytes: number;
}

async function startServer(contender: string): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', contender], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const found = /port (\d+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.on('exit', () => reject(new Error(`the ${contender} server exited`)));
  });
  return { origin: `http://127.0.0.1:${port}`, child };
}

/** Seconds from the request to the last byte of the body. */
async function timeToLastByte(url: string): Promise<{ seconds: number; bytes: number }> {
  const start = process.hrtime.bigint();
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, bytes };
}

async function measure(url: string, rounds: number): Promise<Timing> {
  const first = await timeToLastByte(url);
  let warm = Infinity;
  for (let round = 1; round < rounds; round++) warm = Math.min(warm, (await timeToLastByte(url)).seconds);
  return { cold: first.seconds, warm: rounds > 1 ? warm : first.seconds, bytes: first.bytes };
}

async function peakRss(origin: string): Promise<number> {
  return Number(await (await fetch(`${origin}/rss`)).text());
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
}

const format = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { serve: { type: 'string' }, rounds: { type: 'string' } } });
  if (values.serve !== undefined) return serve(values.serve as Contender);
  const rounds = Math.max(2, Number(values.rounds ?? 6));
  console.log(
    `sitemapkit serve benchmark, Node ${process.version}: one shard of ${format(SHARD)} URLs over HTTP on 127.0.0.1, each server in its own process; ${rounds} requests each ("cold" the first, "warm" the best of the others).\n`,
  );
  const rows = [['mode', 'contender', 'cold s', 'warm s', 'warm URLs/s', 'MB', 'server peak RSS MB']];
  const results = new Map<string, Timing & { rss: number }>();
  for (const mode of MODES) {
    for (const contender of CONTENDERS) {
      process.stderr.write(`  ${mode}: ${contender}…\n`);
      const { origin, child } = await startServer(contender);
      try {
        const path = contender === 'sitemapkit' ? '/sitemap-0.xml' : '/sitemap.xml';
        const timing = await measure(`${origin}${path}${mode === 'gzip' ? '.gz' : ''}`, rounds);
        const rss = await peakRss(origin);
        results.set(`${mode} ${contender}`, { ...timing, rss });
        rows.push([
          mode,
          contender,
          format(timing.cold, 3),
          format(timing.warm, 3),
          format(SHARD / timing.warm),
          format(timing.bytes / 1e6, 1),
          format(rss),
        ]);
      } finally {
        await stop(child);
      }
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows)
    console.log(row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));

  console.log('\nRatios (same run, same machine, time to last byte):');
  for (const mode of MODES) {
    const ours = results.get(`${mode} sitemapkit`)!;
    const peer = results.get(`${mode} sitemap.js`)!;
    const speedup = (run: 'cold' | 'warm') => peer[run] / ours[run];
    const goal = (run: 'cold' | 'warm') => (speedup(run) >= 3 ? 'met' : 'not met');
    console.log(
      `  ${mode}: sitemapkit serves the shard at cold ${format(speedup('cold'), 2)}×, warm ${format(speedup('warm'), 2)}× the throughput of sitemap.js (goal ≥ 3×: cold ${goal('cold')}, warm ${goal('warm')}); peak RSS ${format(ours.rss)} MB against ${format(peer.rss)} MB`,
    );
  }

  process.stderr.write('  10,000,000 URLs: shard 0 and shard 199…\n');
  const { origin, child } = await startServer('sitemapkit-10M');
  try {
    // Interleaved, so that warming up and the machine's load fall on both alike.
    const first: number[] = [];
    const last: number[] = [];
    for (let round = 0; round < rounds; round++) {
      first.push((await timeToLastByte(`${origin}/sitemap-0.xml`)).seconds);
      last.push((await timeToLastByte(`${origin}/sitemap-199.xml`)).seconds);
    }
    const best = (times: number[]) => Math.min(...times.slice(1));
    const ratio = best(last) / best(first);
    console.log(
      `\n10,000,000 URLs: the 200th shard takes ${format(best(last), 3)} s, the 1st ${format(best(first), 3)} s (warm): ${format(ratio, 2)}× (goal: no more than the 1st, within noise ≤ 1.1×: ${ratio <= 1.1 ? 'met' : 'not met'}); server peak RSS ${format(await peakRss(origin))} MB`,
    );
  } finally {
    await stop(child);
  }
}

await main();
