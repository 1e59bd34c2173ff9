/**
 * Benchmark of the generator: the same realistic URL list (10% with two images, some URLs with
 * `&`, most with a lastmod) written as sharded sitemaps by
 *   - sitemapkit (writeSitemaps),
 *   - sitemap.js (the `sitemap` package, SitemapAndIndexStream: the most used peer),
 *   - a naive baseline: the same XML by string concatenation into fs.createWriteStream
 *     (through zlib for gzip), which shows the practical limit on this machine,
 * each plain and gzipped, each in its own child process so that peak RSS is its own.
 *
 * Then end to end (`--part cli`, issue 14): the same entries as a JSONL file, turned into sitemaps
 * by `sitemapkit generate FILE` and by sitemap.js's SitemapAndIndexStream fed by a line reader
 * (readline, JSON.parse), each in its own process; and `sitemapkit generate -` with
 * --keep-duplicates on 10,000,000 entries piped in, whose peak RSS must stay flat.
 *
 * Ratios are of CPU time (user + system, every thread) by default: on a shared machine wall
 * time measures the neighbours too; `--clock wall` on a quiet one.
 *
 *   npm run bench:generate                       1,000,000 URLs, every contender, mode and part
 *   node dist/bench/generate.bench.js --urls 10000000 --only sitemapkit --part library
 *   options: --urls N (or BENCH_URLS), --only a,b, --modes plain,gzip, --part library|cli,
 *   --flat-urls N (the --keep-duplicates run, default 10,000,000; 0 skips it);
 *   BENCH_DEDUPE=off runs sitemapkit without duplicate detection (flat memory at any count)
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { SitemapAndIndexStream, SitemapStream } from 'sitemap';
import type { UrlEntry } from '../src/core/index.js';
import { writeSitemaps } from '../src/generate/index.js';
import { NAIVE_URLSET_HEADER, naiveUrlXml } from './naive-xml.js';
import type { Floor } from './generate-floor.js';
import { CLI, REPO_ROOT as ROOT } from './measure.js';

const HOST = 'https://www.example.com';
const CONTENDERS = ['sitemapkit', 'sitemap.js', 'naive'] as const;
type Contender = (typeof CONTENDERS)[number];
const MODES = ['plain', 'gzip'] as const;
type Mode = (typeof MODES)[number];

/**
 * The input, identical for every contender: entries in the shape of docs/architecture.md, generated on the
 * fly so they cost no memory. sitemap.js wants its own shape, so it pays for a conversion, as
 * its users do.
 */
function* pages(count: number): Generator<UrlEntry> {
  for (let i = 0; i < count; i++) {
    const category = `category-${i % 97}`;
    const loc =
      i % 7 === 0 ? `${HOST}/shop/${category}/item-${i}?colour=blue&size=m` : `${HOST}/shop/${category}/item-${i}`;
    const page: UrlEntry = { kind: 'url', loc };
    if (i % 5 !== 0) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      page.lastmod = i % 4 === 0 ? `2024-05-${day}T10:${String(i % 60).padStart(2, '0')}:00+00:00` : `2024-04-${day}`;
    }
    if (i % 3 === 0) {
      page.changefreq = i % 2 === 0 ? 'daily' : 'weekly';
      page.priority = 0.5;
    }
    if (i % 10 === 0)
      page.images = [
        { loc: `https://cdn.example.com/img/${i}/front.jpg` },
        { loc: `https://cdn.example.com/img/${i}/back.jpg` },
      ];
    yield page;
  }
}

// ---- the contenders (run inside a child process) --------------------------------------------

/** BENCH_DEDUPE=off measures the writer without its one per-URL cost, the duplicate set (8 bytes a URL). */
async function runSitemapkit(count: number, outDir: string, gzip: boolean): Promise<void> {
  await writeSitemaps(pages(count), { outDir, baseUrl: `${HOST}/`, gzip, dedupe: process.env.BENCH_DEDUPE !== 'off' });
}

async function runSitemapJs(count: number, outDir: string, gzip: boolean): Promise<void> {
  const index = new SitemapAndIndexStream({
    limit: 50_000,
    getSitemapStream: (i: number) => {
      const sitemap = new SitemapStream();
      const name = `sitemap-${i}.xml${gzip ? '.gz' : ''}`;
      const file = createWriteStream(join(outDir, name));
      if (gzip) sitemap.pipe(createGzip()).pipe(file);
      else sitemap.pipe(file);
      return [`${HOST}/${name}`, sitemap, file];
    },
  });
  function* items() {
    for (const page of pages(count)) yield sitemapJsItem(page);
  }
  await pipeline(Readable.from(items()), index, createWriteStream(join(outDir, 'sitemap-index.xml')));
}

/** An entry in sitemap.js's own shape, which its users convert to as this does. */
function sitemapJsItem(page: Omit<UrlEntry, 'kind'>) {
  return {
    url: page.loc,
    ...(page.lastmod ? { lastmod: page.lastmod } : {}),
    ...(page.changefreq ? { changefreq: page.changefreq, priority: page.priority! } : {}),
    ...(page.images ? { img: page.images.map((image) => ({ url: image.loc })) } : {}),
  };
}

/**
 * What anyone would write first: each file's XML concatenated into one string, then written
 * with fs.createWriteStream (through zlib for gzip). Fast, but it holds a whole file in memory.
 */
async function runNaive(count: number, outDir: string, gzip: boolean): Promise<void> {
  let shard = 0;
  const save = async (xml: string): Promise<void> => {
    const file = createWriteStream(join(outDir, `sitemap-${shard++}.xml${gzip ? '.gz' : ''}`));
    let target: Writable = file;
    if (gzip) {
      target = createGzip();
      target.pipe(file);
    }
    target.end(`${xml}</urlset>\n`);
    await once(file, 'close');
  };
  let xml = NAIVE_URLSET_HEADER;
  let inShard = 0;
  for (const page of pages(count)) {
    if (inShard === 50_000) {
      await save(xml);
      xml = NAIVE_URLSET_HEADER;
      inShard = 0;
    }
    xml += naiveUrlXml(page);
    inShard++;
  }
  await save(xml);
}

// ---- end to end: a JSONL file → sitemaps ------------------------------------------------------

const FLOOR_SCRIPT = join(ROOT, 'dist', 'bench', 'generate-floor.js');

/** The entries of pages() as JSON lines, `kind` left out as input files may. */
function* jsonLines(count: number): Generator<string> {
  let chunk = '';
  for (const { kind: _kind, ...page } of pages(count)) {
    chunk += `${JSON.stringify(page)}\n`;
    if (chunk.length >= 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** bench/.data/generate-<count>.jsonl, written once. */
async function ensureJsonl(count: number): Promise<string> {
  const dir = join(ROOT, 'bench', '.data');
  const path = join(dir, `generate-${count}.jsonl`);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`  writing ${path} (once)…\n`);
  await pipeline(Readable.from(jsonLines(count)), createWriteStream(`${path}.tmp`));
  renameSync(`${path}.tmp`, path);
  return path;
}

/** sitemap.js end to end, as its users feed it a JSONL file: a line reader, JSON.parse, its index stream. */
async function runSitemapJsJsonl(path: string, outDir: string): Promise<void> {
  const index = new SitemapAndIndexStream({
    limit: 50_000,
    getSitemapStream: (i: number) => {
      const sitemap = new SitemapStream();
      const name = `sitemap-${i}.xml`;
      const file = createWriteStream(join(outDir, name));
      sitemap.pipe(file);
      return [`${HOST}/${name}`, sitemap, file];
    },
  });
  async function* items() {
    for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
      if (line === '') continue;
      yield sitemapJsItem(JSON.parse(line) as Omit<UrlEntry, 'kind'>);
    }
  }
  await pipeline(Readable.from(items()), index, createWriteStream(join(outDir, 'sitemap-index.xml')));
}

interface ProcessRun {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  /** What the process printed on standard output. */
  stdout: string;
}

/** Runs `node args…` under /usr/bin/time, its standard input from `stdin` when given. */
async function timedNode(args: string[], stdin?: () => Iterable<string>): Promise<ProcessRun> {
  const started = process.hrtime.bigint();
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', process.execPath, ...args], {
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  if (stdin) {
    for (const chunk of stdin()) if (!child.stdin!.write(chunk)) await once(child.stdin!, 'drain');
    child.stdin!.end();
  }
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}:\n${stderr}`);
  const [user, system, maxRssKb] = stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number];
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    cpuSeconds: user + system,
    peakRssMb: maxRssKb / 1024,
    stdout,
  };
}

/**
 * The practical floor of `generate FILE`, measured in the same run: what node, reading the file,
 * JSON.parse and the naive writer cost with no rule checked and no duplicate found, and what the
 * duplicate set costs alone. It says how far 4× sitemap.js is from what this machine can do.
 */
async function floorOf(
  path: string,
  out: string,
  row: (name: string, run: ProcessRun) => string,
  ours: number,
  peer: number,
): Promise<void> {
  const floor = (kind: Floor) => {
    process.stderr.write(`  running the floor: ${kind}…\n`);
    return timedNode([FLOOR_SCRIPT, kind, path, join(out, `floor-${kind}`)]);
  };
  const bare = await timedNode(['-e', '0']);
  const read = await floor('read');
  const parse = await floor('parse');
  const write = await floor('write');
  const dedupe = Number((await floor('dedupe')).stdout.trim());
  console.log('  the practical floor, same file, same run:');
  console.log(row('  node starting, nothing else', bare));
  console.log(row('  + reading, decoding, lines found', read));
  console.log(row('  + JSON.parse of every line', parse));
  console.log(row('  + XML in 64 KiB chunks, written', write));
  console.log(`    duplicate set alone (its adds only): ${format(dedupe, 2)} CPU s`);
  const limit = write.cpuSeconds + dedupe;
  console.log(
    `  4× sitemap.js means ${format(peer / 4, 2)} CPU s; JSONL → XML with no rule checked takes ${format(write.cpuSeconds, 2)}, ` +
      `${format(limit, 2)} with the duplicate set: sitemapkit, every rule checked, takes ${format(ours / limit, 2)}× that`,
  );
}

async function cliPart(count: number, flatUrls: number, clock: 'cpu' | 'wall'): Promise<void> {
  const path = await ensureJsonl(count);
  const out = await mkdtemp(join(tmpdir(), 'sitemapkit-bench-cli-'));
  const secondsOf = (run: ProcessRun) => (clock === 'cpu' ? run.cpuSeconds : run.seconds);
  const row = (name: string, run: ProcessRun, urls = count) =>
    `${name.padEnd(34)} ${format(run.seconds, 2).padStart(8)} s ${format(run.cpuSeconds, 2).padStart(8)} CPU s ${format(urls / secondsOf(run)).padStart(11)} URLs/s (${clock}) ${format(run.peakRssMb).padStart(6)} MB`;
  try {
    console.log(`\nend to end: ${format(count)} JSON lines (${path}) → sitemaps, each tool in its own process`);
    process.stderr.write('  running sitemapkit generate…\n');
    const ours = await timedNode([CLI, 'generate', path, '--base-url', HOST, '--out', join(out, 'ours'), '--quiet']);
    console.log(row('sitemapkit generate FILE', ours));
    process.stderr.write('  running sitemap.js fed by a line reader…\n');
    const peer = await timedNode([fileURLToPath(import.meta.url), '--child-jsonl', path, '--out', join(out, 'peer')]);
    console.log(row('sitemap.js (readline + JSON.parse)', peer));
    const ratio = secondsOf(peer) / secondsOf(ours);
    console.log(
      `  sitemapkit generate is ${format(ratio, 2)}× as fast as sitemap.js on the same JSONL (goal ≥ 4×: ${ratio >= 4 ? 'met' : 'NOT met'})`,
    );
    await floorOf(path, out, row, secondsOf(ours), secondsOf(peer));
    if (flatUrls === 0) return;
    // Memory: entries piped in, --keep-duplicates (no duplicate set): the peak must not grow with the count.
    const flat: ProcessRun[] = [];
    for (const urls of [flatUrls / 10, flatUrls]) {
      process.stderr.write(`  running sitemapkit generate - --keep-duplicates on ${format(urls)} entries…\n`);
      const args = [CLI, 'generate', '-', '--input-format', 'jsonl', '--base-url', HOST, '--keep-duplicates'];
      const run = await timedNode([...args, '--out', join(out, `flat-${urls}`), '--quiet'], () => jsonLines(urls));
      console.log(row(`--keep-duplicates, ${format(urls)} from stdin`, run, urls));
      flat.push(run);
    }
    const growth = flat[1]!.peakRssMb / flat[0]!.peakRssMb;
    console.log(
      `  peak RSS at ${format(flatUrls)} is ${format(growth, 2)}× the peak at ${format(flatUrls / 10)} (goal: flat, ≤ 1.2×: ${growth <= 1.2 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

const RUNNERS: Record<Contender, (count: number, outDir: string, gzip: boolean) => Promise<void>> = {
  sitemapkit: runSitemapkit,
  'sitemap.js': runSitemapJs,
  naive: runNaive,
};

interface Measurement {
  seconds: number;
  /** CPU time of the process (user + system, all threads): steadier than wall time on a busy machine. */
  cpuSeconds: number;
  files: number;
  diskBytes: number;
  peakRssMb: number;
}

async function child(contender: Contender, mode: Mode, count: number): Promise<void> {
  const outDir = await mkdtemp(join(tmpdir(), `sitemapkit-bench-${contender}-`));
  try {
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    await RUNNERS[contender](count, outDir, mode === 'gzip');
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const cpu = process.cpuUsage(cpuStart);
    const names = await readdir(outDir);
    const sizes = await Promise.all(names.map(async (name) => (await stat(join(outDir, name))).size));
    const measurement: Measurement = {
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      files: names.length,
      diskBytes: sizes.reduce((a, b) => a + b, 0),
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
    process.stdout.write(`${JSON.stringify(measurement)}\n`);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

// ---- the parent: runs each contender in its own process and prints the table -----------------

function measure(contender: Contender, mode: Mode, count: number): Measurement {
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--child', contender, '--modes', mode, '--urls', String(count)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  if (result.status !== 0) throw new Error(`${contender} ${mode} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Measurement;
}

function format(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function main(): Promise<void> | void {
  const { values } = parseArgs({
    options: {
      urls: { type: 'string' },
      only: { type: 'string' },
      modes: { type: 'string' },
      child: { type: 'string' },
      'child-jsonl': { type: 'string' },
      out: { type: 'string' },
      part: { type: 'string' },
      clock: { type: 'string' },
      'flat-urls': { type: 'string' },
    },
  });
  if (values['child-jsonl'] !== undefined) {
    const outDir = values.out!;
    mkdirSync(outDir, { recursive: true });
    return runSitemapJsJsonl(values['child-jsonl'], outDir);
  }
  const count = Number((values.urls ?? process.env.BENCH_URLS ?? '1000000').replace(/_/g, ''));
  if (!Number.isInteger(count) || count < 1) throw new Error(`--urls must be a positive whole number`);
  const modes = (values.modes?.split(',') ?? [...MODES]) as Mode[];
  if (values.child !== undefined) return child(values.child as Contender, modes[0]!, count);
  if (values.clock !== undefined && values.clock !== 'cpu' && values.clock !== 'wall')
    throw new Error(`--clock must be cpu or wall, not "${values.clock}"`);
  const clock = values.clock === 'wall' ? 'wall' : 'cpu';
  const part = values.part;
  if (part !== undefined && part !== 'library' && part !== 'cli')
    throw new Error(`--part must be library or cli, not "${part}"`);
  const flatUrls = Number(values['flat-urls'] ?? 10_000_000);
  if (part !== 'cli') libraryPart(count, modes, (values.only?.split(',') ?? [...CONTENDERS]) as Contender[], clock);
  if (part !== 'library') return cliPart(count, flatUrls, clock);
}

function libraryPart(count: number, modes: Mode[], contenders: Contender[], clock: 'cpu' | 'wall'): void {
  const secondsOf = (m: Measurement) => (clock === 'cpu' ? m.cpuSeconds : m.seconds);

  console.log(
    `sitemapkit generate benchmark: ${format(count)} URLs (10% with two images, 1 in 7 with "&"), Node ${process.version}\n`,
  );
  const results = new Map<string, Measurement>();
  const xmlBytes = new Map<Contender, number>();
  const rows: string[][] = [
    ['contender', 'mode', 'seconds', 'CPU s', 'URLs/s', 'MB/s (XML)', 'files', 'on disk MB', 'peak RSS MB'],
  ];
  for (const mode of modes) {
    for (const contender of contenders) {
      process.stderr.write(`  running ${contender} ${mode}…\n`);
      const m = measure(contender, mode, count);
      results.set(`${contender} ${mode}`, m);
      if (mode === 'plain') xmlBytes.set(contender, m.diskBytes);
      const xml = xmlBytes.get(contender);
      rows.push([
        contender,
        mode,
        format(m.seconds, 2),
        format(m.cpuSeconds, 2),
        format(count / m.seconds),
        xml === undefined ? '–' : format(xml / 1e6 / m.seconds, 1),
        String(m.files),
        format(m.diskBytes / 1e6, 1),
        format(m.peakRssMb, 0),
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows)
    console.log(row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));

  console.log(`\nRatios (same run, same machine, ${clock === 'cpu' ? 'CPU time' : 'wall time'}):`);
  for (const mode of modes) {
    const ours = results.get(`sitemapkit ${mode}`);
    const peer = results.get(`sitemap.js ${mode}`);
    const naive = results.get(`naive ${mode}`);
    if (ours && peer) {
      const goal = mode === 'plain' ? 5 : 15;
      const ratio = secondsOf(peer) / secondsOf(ours);
      console.log(
        `  ${mode.padEnd(5)} sitemapkit vs sitemap.js: ${format(ratio, 2)}× faster (goal ≥ ${goal}×: ${ratio >= goal ? 'met' : 'NOT met'})`,
      );
    }
    if (ours && naive) {
      const ratio = secondsOf(ours) / secondsOf(naive);
      const goal = mode === 'plain' ? ' (goal ≤ 1.0×: ' + (ratio <= 1.0 ? 'met)' : 'NOT met)') : '';
      console.log(`  ${mode.padEnd(5)} sitemapkit vs naive baseline: ${format(ratio, 2)}× the naive time${goal}`);
    }
    if (ours)
      console.log(
        `  ${mode.padEnd(5)} sitemapkit peak RSS: ${format(ours.peakRssMb)} MB (goal < 150 MB: ${ours.peakRssMb < 150 ? 'met' : 'not met'})`,
      );
  }
}

await main();
