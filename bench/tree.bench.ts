/**
 * `npm run bench:tree`: reading a whole sitemap tree over HTTP, end to end.
 *
 * A server in a child process (127.0.0.1) serves two trees generated once into bench/.data/:
 *  - big:  an index of 200 gzip children of 50,000 URLs each (10,000,000 URLs);
 *  - peer: an index of 1,000 gzip children of 1,000 URLs each (1,000,000 URLs), the size the
 *          `sitemapper` package can still hold in memory.
 * `sitemapkit tree --urls` (JSONL to /dev/null) reads both; sitemapper reads the peer tree; a bare
 * streaming fetch-and-scan (node:http over kept-alive connections, gunzip as the bytes come,
 * `<loc>` counted with indexOf in the bytes, 8 children at a time: no text, no entries, no
 * checks, no output) reads the big tree, the practical limit (issue 14). Each runs in a child process of its own under /usr/bin/time, so its
 * peak RSS and CPU time are its own. Prints URLs/s, CPU time, peak RSS and the ratios measured in
 * this run, of CPU time unless `--clock wall` (on a shared machine wall time measures the
 * neighbours too).
 *
 * Smaller runs: TREE_BENCH_CHILDREN / TREE_BENCH_URLS (big tree) and TREE_BENCH_PEER_CHILDREN /
 * TREE_BENCH_PEER_URLS, or `--small` (20 × 5,000 and 100 × 1,000).
 */
import { fork } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { timedNode, CLI, REPO_ROOT as ROOT } from './measure.js';

const SELF = fileURLToPath(import.meta.url);
const DATA = join(ROOT, 'bench', '.data', 'tree');

interface TreeSize {
  name: string;
  children: number;
  urls: number;
}

interface Run {
  tool: string;
  tree: string;
  urls: number;
  seconds: number;
  cpuSeconds: number;
  maxRssMb: number | undefined;
}

// ---------------------------------------------------------------- data (generated once)

/** Writes `<dir>/child-<i>.xml.gz` and `<dir>/sitemap_index.xml` unless they are there already. */
async function ensureTree(size: TreeSize): Promise<string> {
  const dir = join(DATA, `${size.children}x${size.urls}`);
  const done = join(dir, 'complete');
  if (existsSync(done)) return dir;
  mkdirSync(dir, { recursive: true });
  process.stderr.write(
    `generating ${size.children} × ${size.urls.toLocaleString('en-US')} URLs into ${dir} (once) …\n`,
  );
  for (let i = 0; i < size.children; i++) await writeChild(join(dir, `child-${i}.xml.gz`), i, size.urls);
  await writeFileAtomically(join(dir, 'complete'), '');
  return dir;
}

async function writeChild(path: string, child: number, urls: number): Promise<void> {
  const gzip = createGzip();
  const out = createWriteStream(`${path}.tmp`);
  gzip.pipe(out);
  const write = async (text: string) => {
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  await write('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n');
  let batch = '';
  for (let j = 0; j < urls; j++) {
    const day = String(1 + (j % 28)).padStart(2, '0');
    batch += `<url><loc>https://shop.example.com/c${child}/products/item-${j}.html</loc><lastmod>2024-05-${day}T10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n`;
    if (batch.length > 64 * 1024) {
      await write(batch);
      batch = '';
    }
  }
  await write(`${batch}</urlset>\n`);
  gzip.end();
  await once(out, 'close');
  renameSync(`${path}.tmp`, path);
}

async function writeFileAtomically(path: string, text: string): Promise<void> {
  const out = createWriteStream(`${path}.tmp`);
  out.end(text);
  await once(out, 'close');
  renameSync(`${path}.tmp`, path);
}

// ---------------------------------------------------------------- the server (child process)

/** Serves /<tree>/sitemap_index.xml (made on the fly) and /<tree>/child-<i>.xml.gz from disk. */
function serve(trees: Record<string, { dir: string; children: number }>): void {
  const server = createServer((request, response) => {
    const match = /^\/([a-z]+)\/(sitemap_index\.xml|child-(\d+)\.xml\.gz)$/.exec(request.url ?? '');
    const tree = match ? trees[match[1]!] : undefined;
    if (!match || !tree) {
      response.writeHead(404).end();
      return;
    }
    if (match[2] === 'sitemap_index.xml') {
      const origin = `http://${request.headers.host}`;
      const children = Array.from(
        { length: tree.children },
        (_, i) => `<sitemap><loc>${origin}/${match[1]}/child-${i}.xml.gz</loc></sitemap>`,
      );
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.join('\n')}\n</sitemapindex>\n`,
        );
      return;
    }
    const path = join(tree.dir, `child-${match[3]}.xml.gz`);
    response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': statSync(path).size });
    createReadStream(path).pipe(response);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
}

// ---------------------------------------------------------------- measuring

/** `node args…` measured in `ROOT` (measure.ts); stdout dropped unless 'pipe' or a file. */
const timed = (args: string[], stdout?: string) =>
  timedNode(args, { cwd: ROOT, ...(stdout === undefined ? {} : { stdout }) });

async function runSitemapkit(origin: string, tree: string): Promise<Run> {
  const { stderr, seconds, cpuSeconds, maxRssMb } = await timed([
    CLI,
    'tree',
    `${origin}/${tree}/sitemap_index.xml`,
    '--urls',
  ]);
  const urls = Number(/([\d,]+) URLs from/.exec(stderr)?.[1]?.replace(/,/g, '') ?? NaN);
  return { tool: 'sitemapkit tree --urls', tree, urls, seconds, cpuSeconds, maxRssMb };
}

/**
 * The practical limit: the index fetched, then its children 8 at a time over kept-alive
 * connections, each gunzipped as it streams, `<loc>` counted with indexOf in the bytes. Nothing
 * else: no text decoded (decoding as the bytes come took 4× the CPU of the scan; with the global
 * fetch's Web stream on top, this "limit" spent 33 CPU s on 10,000,000 URLs against 20 for
 * sitemapkit's whole walk).
 */
const BARE_SCAN = `import { Agent, get } from 'node:http';
import { createGunzip } from 'node:zlib';
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const LOC = Buffer.from('<loc>');
async function scan(url, keep) {
  const response = await new Promise((resolve, reject) => get(url, { agent }, resolve).on('error', reject));
  if (response.statusCode !== 200) throw new Error(url + ' answered ' + response.statusCode);
  const body = url.endsWith('.gz') ? response.pipe(createGunzip({ chunkSize: 128 * 1024 })) : response;
  let count = 0, carry = Buffer.alloc(0);
  const locs = [];
  for await (const chunk of body) {
    const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    for (let at = bytes.indexOf(LOC); at !== -1; at = bytes.indexOf(LOC, at + 5)) {
      count++;
      if (keep) locs.push(bytes.toString('utf8', at + 5, bytes.indexOf('</loc>', at)));
    }
    carry = Buffer.from(bytes.subarray(bytes.length - 4));
  }
  return { count, locs };
}
const index = await scan(process.argv[1], true);
let urls = 0, next = 0;
await Promise.all(Array.from({ length: 8 }, async () => {
  while (next < index.locs.length) { const { count } = await scan(index.locs[next++], false); urls += count; }
}));
agent.destroy();
process.stdout.write(JSON.stringify({ urls }));`;

async function runBareScan(origin: string, tree: string): Promise<Run> {
  const { stdout, seconds, cpuSeconds, maxRssMb } = await timed(
    ['--input-type=module', '-e', BARE_SCAN, `${origin}/${tree}/sitemap_index.xml`],
    'pipe',
  );
  const { urls } = JSON.parse(stdout) as { urls: number };
  return { tool: 'bare fetch-and-scan', tree, urls, seconds, cpuSeconds, maxRssMb };
}

async function runSitemapper(origin: string, tree: string): Promise<Run> {
  const script = `import Sitemapper from 'sitemapper';
const result = await new Sitemapper({ url: ${JSON.stringify(`${origin}/${tree}/sitemap_index.xml`)}, timeout: 3600000, concurrency: 8 }).fetch();
process.stdout.write(JSON.stringify({ urls: result.sites.length, errors: result.errors.length }));`;
  const { stdout, seconds, cpuSeconds, maxRssMb } = await timed(
    ['--max-old-space-size=8192', '--input-type=module', '-e', script],
    'pipe',
  );
  const { urls, errors } = JSON.parse(stdout) as { urls: number; errors: number };
  if (errors > 0) throw new Error(`sitemapper reported ${errors} errors`);
  return { tool: 'sitemapper', tree, urls, seconds, cpuSeconds, maxRssMb };
}

// ---------------------------------------------------------------- report

function sizes(): { big: TreeSize; peer: TreeSize } {
  const small = process.argv.includes('--small');
  const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  return {
    big: {
      name: 'big',
      children: env('TREE_BENCH_CHILDREN', small ? 20 : 200),
      urls: env('TREE_BENCH_URLS', small ? 5_000 : 50_000),
    },
    peer: {
      name: 'peer',
      children: env('TREE_BENCH_PEER_CHILDREN', small ? 100 : 1_000),
      urls: env('TREE_BENCH_PEER_URLS', 1_000),
    },
  };
}

const CLOCK =
  process.argv.includes('--clock') && process.argv[process.argv.indexOf('--clock') + 1] === 'wall' ? 'wall' : 'cpu';

/** A run's seconds by the clock the ratios use. */
function secondsOf(run: Run): number {
  return CLOCK === 'cpu' ? run.cpuSeconds : run.seconds;
}

function row(run: Run): string {
  const rate = Math.round(run.urls / secondsOf(run)).toLocaleString('en-US');
  const rss = run.maxRssMb === undefined ? 'n/a' : `${run.maxRssMb.toFixed(0)} MB`;
  return `${run.tool.padEnd(24)} ${run.tree.padEnd(5)} ${run.urls.toLocaleString('en-US').padStart(11)} URLs ${run.seconds.toFixed(1).padStart(7)} s ${run.cpuSeconds.toFixed(1).padStart(7)} CPU s ${rate.padStart(11)} URLs/s (${CLOCK})  peak RSS ${rss.padStart(8)}`;
}

async function main(): Promise<void> {
  if (process.argv[2] === 'serve') {
    serve(JSON.parse(process.argv[3]!) as Record<string, { dir: string; children: number }>);
    return;
  }
  const { big, peer } = sizes();
  const trees = {
    big: { dir: await ensureTree(big), children: big.children },
    peer: { dir: await ensureTree(peer), children: peer.children },
  };
  const server = fork(SELF, ['serve', JSON.stringify(trees)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [{ port }] = (await once(server, 'message')) as [{ port: number }];
  const origin = `http://127.0.0.1:${port}`;
  try {
    console.log(`sitemap tree over HTTP (server in a child process on 127.0.0.1; each reader in its own process)`);
    console.log(
      `big:  ${big.children} gzip children × ${big.urls.toLocaleString('en-US')} URLs; peer: ${peer.children} × ${peer.urls.toLocaleString('en-US')}\n`,
    );
    const ours = await runSitemapkit(origin, 'big');
    console.log(row(ours));
    const bare = await runBareScan(origin, 'big');
    console.log(row(bare));
    const oursPeer = await runSitemapkit(origin, 'peer');
    console.log(row(oursPeer));
    const theirs = await runSitemapper(origin, 'peer');
    console.log(row(theirs));

    const expected = big.children * big.urls;
    if (ours.urls !== expected) throw new Error(`sitemapkit read ${ours.urls} URLs of ${expected}`);
    if (oursPeer.urls !== theirs.urls)
      throw new Error(`URL counts differ on the peer tree: ${oursPeer.urls} vs ${theirs.urls}`);
    if (bare.urls !== expected) throw new Error(`the bare scan counted ${bare.urls} URLs of ${expected}`);
    const speed = oursPeer.urls / secondsOf(oursPeer) / (theirs.urls / secondsOf(theirs));
    const ofLimit = secondsOf(bare) / secondsOf(ours);
    /** The same ratio of seconds on the other clock, for the record. */
    const otherClock = (a: Run, b: Run) =>
      CLOCK === 'cpu'
        ? `${(a.seconds / b.seconds).toFixed(2)}× in wall time`
        : `${(a.cpuSeconds / b.cpuSeconds).toFixed(2)}× in CPU time`;
    console.log(
      `\npeer tree: sitemapkit is ${speed.toFixed(1)}× sitemapper's URLs/s (${otherClock(theirs, oursPeer)})` +
        (oursPeer.maxRssMb && theirs.maxRssMb
          ? `, with ${(theirs.maxRssMb / oursPeer.maxRssMb).toFixed(1)}× less peak RSS`
          : ''),
    );
    console.log(
      `big tree: sitemapkit reads at ${ofLimit.toFixed(2)}× the speed of the bare fetch-and-scan (${otherClock(bare, ours)})`,
    );
    console.log(
      `goals (${CLOCK === 'cpu' ? 'CPU time' : 'wall time'}): ≥ 10× sitemapper's URLs/s: ${speed >= 10 ? 'met' : 'NOT met'}; ` +
        `≥ 0.5× the bare fetch-and-scan on the big tree: ${ofLimit >= 0.5 ? 'met' : 'NOT met'}; ` +
        `peak RSS < 200 MB on the big tree: ${ours.maxRssMb === undefined ? 'not measured' : ours.maxRssMb < 200 ? 'met' : 'NOT met'}` +
        (expected < 10_000_000 ? ` (at ${expected.toLocaleString('en-US')} URLs, not 10,000,000)` : ''),
    );
  } finally {
    server.kill();
  }
}

await main();
