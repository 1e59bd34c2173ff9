/**
 * Benchmark of the parser. The same sitemaps (50,000 URLs ≈ 10 MB and 250,000 URLs, each plain
 * and gzip, kept in bench/.data/) are read by
 *   - sitemapkit (parseSitemap), read as most code reads it: `for await` of each entry,
 *   - sitemapkit batches: the same parse read a chunk's entries at a time (entryBatches), as parse,
 *     validate and tree read it: no await per entry,
 *   - sitemapkit/web on Node (its parseSitemap on a Web ReadableStream of the file, read in the
 *     same 1 MiB chunks; gzip through DecompressionStream): goal within 1.3× of the Node entry,
 *   - the `sitemap` package's parser (XMLToSitemapItemStream), its most used peer,
 *   - sitemapper, fetching from a local HTTP server on 127.0.0.1 (as it only reads URLs),
 * and, as reference lines, saxes with a minimal handler, a bare indexOf scan for `<loc>`, and
 * gunzip alone. Each contender runs in its own child process, so peak RSS is its own; the clock
 * starts once its modules are loaded (the same few tens of milliseconds for each). Each file is
 * read three times (--rounds) in each of three processes (--processes; the contenders take
 * turns): the median first read is "cold" (the code is not yet optimised by V8), the fastest of
 * the others "warm" (a crawler parsing sitemap after sitemap). (One process may be a fifth slower
 * than the next throughout on this machine: the best of three is steadier.) Then a 1 GB
 * urlset, generated on the fly by another process and never stored, is parsed from a pipe to
 * check that memory stays flat.
 *
 * Ratios are of CPU time (user + system, every thread of the contender's process) by default:
 * on a machine shared with other work, wall time measures the neighbours as much as the parser.
 * `--clock wall` uses wall time (on a quiet machine the two agree for this single-threaded work).
 * Goals (issue 14): warm, at least 0.5× the speed of the bare indexOf scan on 250,000 plain URLs;
 * the gzip file within 1.2× the time of the plain one.
 *
 *   npm run bench:parse
 *   node dist/bench/parse.bench.js --only sitemapkit,saxes --sizes 50000 --rounds 5 --processes 1
 *   BENCH_SKIP_1GB=1 skips the 1 GB stream; BENCH_1GB_BYTES changes its size.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';

// Each contender's library is imported only in the child that runs it, so that peak RSS is its own.
const loadParser = async () => (await import('../src/parse/index.js')).parseSitemap;

const DATA_DIR = fileURLToPath(new URL('../../bench/.data/', import.meta.url));
const CONTENDERS = [
  'sitemapkit',
  'sitemapkit batches',
  'sitemapkit/web',
  'sitemap.js',
  'sitemapper',
  'saxes',
  'indexOf',
  'gunzip',
] as const;
type Contender = (typeof CONTENDERS)[number];
const HEADER =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n';

/** One `<url>` of the realistic test sitemap: most with lastmod, a third with changefreq and priority, 10% with images, 1 in 7 with `&`. */
function urlXml(i: number): string {
  const category = `category-${i % 97}`;
  let xml = `  <url>\n    <loc>https://www.example.com/shop/${category}/item-${i}${i % 7 === 0 ? '?colour=blue&amp;size=m' : ''}</loc>\n`;
  if (i % 5 !== 0)
    xml += `    <lastmod>2024-05-${String(1 + (i % 28)).padStart(2, '0')}${i % 4 === 0 ? `T10:${String(i % 60).padStart(2, '0')}:00+00:00` : ''}</lastmod>\n`;
  if (i % 3 === 0)
    xml += `    <changefreq>${i % 2 === 0 ? 'daily' : 'weekly'}</changefreq>\n    <priority>0.5</priority>\n`;
  if (i % 10 === 0)
    xml += `    <image:image>\n      <image:loc>https://cdn.example.com/img/${i}/front.jpg</image:loc>\n    </image:image>\n`;
  return `${xml}  </url>\n`;
}

/** A urlset of `count` URLs as a stream of chunks (for files and for the 1 GB run alike). */
function* urlsetChunks(count: number): Generator<Buffer> {
  let chunk = HEADER;
  for (let i = 0; i < count; i++) {
    chunk += urlXml(i);
    if (chunk.length > 65_536) {
      yield Buffer.from(chunk);
      chunk = '';
    }
  }
  yield Buffer.from(`${chunk}</urlset>\n`);
}

async function ensureData(count: number): Promise<{ plain: string; gzip: string }> {
  mkdirSync(DATA_DIR, { recursive: true });
  const plain = join(DATA_DIR, `urlset-${count}.xml`);
  const gzip = `${plain}.gz`;
  if (!existsSync(plain)) {
    const out = createWriteStream(plain);
    for (const chunk of urlsetChunks(count)) if (!out.write(chunk)) await once(out, 'drain');
    out.end();
    await once(out, 'close');
  }
  if (!existsSync(gzip)) {
    const out = createReadStream(plain).pipe(createGzip()).pipe(createWriteStream(gzip));
    await once(out, 'close');
  }
  return { plain, gzip };
}

// ---- the contenders (each inside its own child process) -----------------------------------

/** A file's bytes, inflated when gzip: the gunzip reference and the peers' input (128 KiB output chunks, zlib's fastest here). */
function bytesOf(path: string): Readable {
  const file = createReadStream(path, { highWaterMark: 65_536 });
  return path.endsWith('.gz') ? file.pipe(createGunzip({ chunkSize: 128 * 1024 })) : file;
}

/**
 * Each contender in two steps: loading its code (not timed: module loading is the same few tens
 * of milliseconds for every library and says nothing about parsing), then reading a file (timed).
 */
type Reader = (path: string) => Promise<number>;

async function loadSitemapkit(): Promise<Reader> {
  const parseSitemap = await loadParser();
  return async (path) => {
    let n = 0;
    for await (const _ of parseSitemap({ path })) n++;
    return n;
  };
}

async function loadSitemapkitBatches(): Promise<Reader> {
  const { entryBatches, parseSitemap } = await import('../src/parse/index.js');
  return async (path) => {
    let n = 0;
    for await (const batch of entryBatches(parseSitemap({ path }))) n += batch.length;
    return n;
  };
}

/** The web entry, as a web application on Node reads a file: a ReadableStream of 1 MiB chunks, one read ahead. */
async function loadSitemapkitWeb(): Promise<Reader> {
  const { parseSitemap } = await import('../src/web.js');
  return async (path) => {
    let n = 0;
    for await (const _ of parseSitemap(fileStream(path))) n++;
    return n;
  };
}

function fileStream(path: string): ReadableStream<Uint8Array> {
  let file: FileHandle;
  return new ReadableStream<Uint8Array>({
    async start() {
      file = await open(path, 'r');
    },
    async pull(controller) {
      const buffer = new Uint8Array(1024 * 1024);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead > 0) return controller.enqueue(buffer.subarray(0, bytesRead));
      await file.close();
      controller.close();
    },
    cancel: () => file.close(),
  });
}

async function loadSitemapJs(): Promise<Reader> {
  const { ErrorLevel, XMLToSitemapItemStream } = await import('sitemap');
  return async (path) => {
    let n = 0;
    const parser: Transform = new XMLToSitemapItemStream({ level: ErrorLevel.SILENT, logger: false });
    for await (const _ of bytesOf(path).pipe(parser)) n++;
    return n;
  };
}

/** sitemapper reads URLs only: the file is served from 127.0.0.1 by this same process. */
async function loadSitemapper(): Promise<Reader> {
  const { default: Sitemapper } = await import('sitemapper');
  return async (path) => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': path.endsWith('.gz') ? 'application/gzip' : 'application/xml' });
      createReadStream(path).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const name = path.endsWith('.gz') ? 'sitemap.xml.gz' : 'sitemap.xml';
      const result = await new Sitemapper({ url: `http://127.0.0.1:${port}/${name}`, timeout: 600_000 }).fetch();
      if (result.errors.length > 0 && result.sites.length === 0)
        throw new Error(JSON.stringify(result.errors).slice(0, 300));
      return result.sites.length;
    } finally {
      server.close();
    }
  };
}

async function loadSaxes(): Promise<Reader> {
  const { SaxesParser } = await import('saxes');
  return async (path) => {
    let n = 0;
    const parser = new SaxesParser({ xmlns: true });
    parser.on('opentag', (tag) => {
      if (tag.local === 'url') n++;
    });
    for await (const chunk of bytesOf(path).setEncoding('utf8')) parser.write(chunk as string);
    parser.close();
    return n;
  };
}

async function readIndexOf(path: string): Promise<number> {
  let n = 0;
  let carry = '';
  for await (const chunk of bytesOf(path).setEncoding('utf8')) {
    const text = carry + (chunk as string);
    let at = text.indexOf('<loc>');
    while (at !== -1) {
      n++;
      at = text.indexOf('<loc>', at + 5);
    }
    carry = text.slice(-4);
  }
  return n;
}

async function readGunzip(path: string): Promise<number> {
  let bytes = 0;
  for await (const chunk of bytesOf(path)) bytes += (chunk as Buffer).length;
  return bytes;
}

const LOADERS: Record<Contender, () => Promise<Reader>> = {
  sitemapkit: loadSitemapkit,
  'sitemapkit batches': loadSitemapkitBatches,
  'sitemapkit/web': loadSitemapkitWeb,
  'sitemap.js': loadSitemapJs,
  sitemapper: loadSitemapper,
  saxes: loadSaxes,
  indexOf: () => Promise.resolve(readIndexOf),
  gunzip: () => Promise.resolve(readGunzip),
};

/** Wall and CPU seconds of one read. */
interface Timing {
  seconds: number;
  cpuSeconds: number;
}

interface Measurement {
  /** The first read, in a fresh process: the code is not yet compiled by the optimising tiers. */
  cold: Timing;
  /** The fastest of the reads after it by each clock, as in a long-running crawler (absent with one round). */
  warm?: Timing;
  count: number;
  peakRssMb: number;
  /** Bytes parsed (the generated stream's size, as counted by the parser). */
  bytes: number;
}

async function timed<T>(work: () => Promise<T>): Promise<{ timing: Timing; result: T }> {
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const result = await work();
  const cpu = process.cpuUsage(cpuStart);
  return {
    timing: { seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuSeconds: (cpu.user + cpu.system) / 1e6 },
    result,
  };
}

async function child(
  contender: Contender | 'stream',
  path: string,
  streamBytes: number,
  rounds: number,
): Promise<void> {
  let m: Measurement;
  if (contender === 'stream') {
    const parseSitemap = await loadParser();
    // Enough URLs for `streamBytes` (their average size measured on the first thousand), generated
    // by a process of their own and read from its output, so that the peak RSS is the parser's alone.
    const averageUrlBytes = Array.from({ length: 1000 }, (_, i) => urlXml(i).length).reduce((a, b) => a + b) / 1000;
    const generator = spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), '--emit', String(Math.ceil(streamBytes / averageUrlBytes))],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    // No byte limit here: the point is a document far larger than any real sitemap.
    const parsed = parseSitemap(generator.stdout, { limits: { maxBytes: Number.MAX_SAFE_INTEGER } });
    const { timing, result } = await timed(async () => {
      let count = 0;
      for await (const _ of parsed) count++;
      return count;
    });
    m = { cold: timing, count: result, peakRssMb: 0, bytes: parsed.stats.bytesDecoded };
  } else {
    const read = await LOADERS[contender]();
    const first = await timed(() => read(path));
    m = { cold: first.timing, count: first.result, peakRssMb: 0, bytes: 0 };
    for (let round = 1; round < rounds; round++) {
      const { timing } = await timed(() => read(path));
      m.warm = {
        seconds: Math.min(m.warm?.seconds ?? Infinity, timing.seconds),
        cpuSeconds: Math.min(m.warm?.cpuSeconds ?? Infinity, timing.cpuSeconds),
      };
    }
  }
  m.peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(m)}\n`);
}

/** Writes a urlset of `count` URLs to stdout (the 1 GB stream's source). */
async function emit(count: number): Promise<void> {
  for (const chunk of urlsetChunks(count)) if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}

// ---- the parent ------------------------------------------------------------------------------

function measure(
  contender: Contender | 'stream',
  path: string,
  rounds: number,
  streamBytes = 0,
  nodeFlags: string[] = [],
): Measurement | string {
  const args = [
    '--child',
    contender,
    '--path',
    path,
    '--stream-bytes',
    String(streamBytes),
    '--rounds',
    String(rounds),
  ];
  const result = spawnSync(process.execPath, [...nodeFlags, fileURLToPath(import.meta.url), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) return `failed: ${result.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 160)}`;
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Measurement;
}

/**
 * One measurement of a contender's processes: the median first read (by CPU time), the fastest
 * later read by each clock, the highest peak RSS; the first failure, if one failed.
 */
function combined(runs: (Measurement | string)[]): Measurement | string {
  const failed = runs.find((run) => typeof run === 'string');
  if (failed !== undefined) return failed;
  const measurements = runs as Measurement[];
  const colds = measurements.map((m) => m.cold).sort((a, b) => a.cpuSeconds - b.cpuSeconds);
  const warms = measurements.map((m) => m.warm).filter((warm) => warm !== undefined);
  return {
    cold: colds[(colds.length - 1) >> 1]!,
    ...(warms.length === 0
      ? {}
      : {
          warm: {
            seconds: Math.min(...warms.map((warm) => warm.seconds)),
            cpuSeconds: Math.min(...warms.map((warm) => warm.cpuSeconds)),
          },
        }),
    count: measurements[0]!.count,
    peakRssMb: Math.max(...measurements.map((m) => m.peakRssMb)),
    bytes: measurements[0]!.bytes,
  };
}

const format = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      sizes: { type: 'string' },
      rounds: { type: 'string' },
      processes: { type: 'string' },
      child: { type: 'string' },
      path: { type: 'string' },
      'stream-bytes': { type: 'string' },
      emit: { type: 'string' },
      clock: { type: 'string' },
    },
  });
  const rounds = Math.max(1, Number(values.rounds ?? 3));
  const processes = Math.max(1, Number(values.processes ?? 3));
  if (values.emit !== undefined) return emit(Number(values.emit));
  if (values.child !== undefined)
    return child(values.child as Contender, values.path!, Number(values['stream-bytes']), rounds);
  const contenders = (values.only?.split(',') ?? [...CONTENDERS]) as Contender[];
  if (values.clock !== undefined && values.clock !== 'cpu' && values.clock !== 'wall')
    throw new Error(`--clock must be cpu or wall, not "${values.clock}"`);
  const clock = values.clock === 'wall' ? 'wall' : 'cpu';
  /** The seconds of a timing by the clock the ratios use. */
  const secondsOf = (t: Timing) => (clock === 'cpu' ? t.cpuSeconds : t.seconds);
  const sizes = (values.sizes ?? '50000,250000').split(',').map(Number);
  console.log(
    `sitemapkit parse benchmark, Node ${process.version}; each contender in ${processes} processes of its own in turn, each reading each file ${rounds} times:`,
  );
  console.log(
    '"cold" is the median of the processes\' first reads (code not yet optimised), "warm" the fastest of the other reads (a long-running crawler). MB/s are of uncompressed XML.\n',
  );
  const rows: string[][] = [
    [
      'file',
      'contender',
      'cold s',
      'warm s',
      'cold CPU s',
      'warm CPU s',
      `warm MB/s (${clock})`,
      `warm URLs/s (${clock})`,
      'URLs',
      'peak RSS MB',
    ],
  ];
  const ratios: string[] = [];
  /** sitemapkit's timings per file size, plain and gzip, for the gzip-against-plain goal. */
  const ownTimings = new Map<number, Partial<Record<string, Measurement>>>();
  for (const size of sizes) {
    const files = await ensureData(size);
    const xmlBytes = statSync(files.plain).size;
    for (const [mode, path] of Object.entries(files)) {
      const results = new Map<string, Measurement>();
      const measured = new Map<Contender, (Measurement | string)[]>();
      // Process after process, the contenders taking turns: a process may be slower throughout (the
      // machine's other work, where its heap landed), and taking turns spreads that over all of them.
      for (let turn = 1; turn <= processes; turn++)
        for (const contender of contenders) {
          if (contender === 'gunzip' && mode === 'plain') continue;
          process.stderr.write(`  ${size} ${mode}: ${contender} (process ${turn} of ${processes})…\n`);
          measured.set(contender, [...(measured.get(contender) ?? []), measure(contender, path, rounds)]);
        }
      for (const [contender, runs] of measured) {
        const m = combined(runs);
        const label = `${format(size)} ${mode}`;
        if (typeof m === 'string') {
          rows.push([label, contender, m, '', '', '', '', '', '', '']);
          continue;
        }
        results.set(contender, m);
        const warm = m.warm ?? m.cold;
        const gunzip = contender === 'gunzip';
        rows.push([
          label,
          contender,
          format(m.cold.seconds, 2),
          format(warm.seconds, 2),
          format(m.cold.cpuSeconds, 2),
          format(warm.cpuSeconds, 2),
          format(xmlBytes / 1e6 / secondsOf(warm), 1),
          gunzip ? '–' : format(m.count / secondsOf(warm)),
          gunzip ? '–' : format(m.count),
          format(m.peakRssMb),
        ]);
      }
      const ours = results.get('sitemapkit');
      if (!ours) continue;
      ownTimings.set(size, { ...ownTimings.get(size), [mode]: ours });
      const label = `${format(size)} ${mode}`;
      /** "cold a× · warm b×" of a ratio worked out on both timings. */
      const both = (ratio: (run: 'cold' | 'warm') => number) =>
        `cold ${format(ratio('cold'), 2)}×, warm ${format(ratio('warm'), 2)}×`;
      const timing = (m: Measurement, run: 'cold' | 'warm') => secondsOf(run === 'cold' ? m.cold : (m.warm ?? m.cold));
      const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
      for (const name of ['sitemap.js', 'sitemapper', 'saxes', 'indexOf'] as const) {
        const peer = results.get(name);
        if (!peer) continue;
        const speedup = (run: 'cold' | 'warm') => timing(peer, run) / timing(ours, run);
        const goal =
          name === 'sitemap.js' && mode === 'plain'
            ? ` (goal ≥ 20×: cold ${verdict(speedup('cold') >= 20)}, warm ${verdict(speedup('warm') >= 20)})`
            : name === 'indexOf' && mode === 'plain' && size === 250_000
              ? ` (goal ≥ 0.5× warm: ${verdict(speedup('warm') >= 0.5)})`
              : '';
        ratios.push(`  ${label}: sitemapkit is ${both(speedup)} as fast as ${name}${goal}`);
      }
      const batches = results.get('sitemapkit batches');
      const indexOf = results.get('indexOf');
      if (batches && indexOf && mode === 'plain') {
        const speedup = (run: 'cold' | 'warm') => timing(indexOf, run) / timing(batches, run);
        const goal = size === 250_000 ? ` (goal ≥ 0.5× warm: ${verdict(speedup('warm') >= 0.5)})` : '';
        ratios.push(`  ${label}: sitemapkit batches is ${both(speedup)} as fast as indexOf${goal}`);
      }
      const web = results.get('sitemapkit/web');
      if (web) {
        const slowdown = (run: 'cold' | 'warm') => timing(web, run) / timing(ours, run);
        const met = (run: 'cold' | 'warm') => (slowdown(run) <= 1.3 ? 'met' : 'not met');
        ratios.push(
          `  ${label}: sitemapkit/web on Node takes ${both(slowdown)} the time of the Node entry (goal ≤ 1.3×: cold ${met('cold')}, warm ${met('warm')})`,
        );
      }
      const gunzip = results.get('gunzip');
      if (mode === 'gzip' && gunzip) {
        const slowdown = (run: 'cold' | 'warm') => timing(ours, run) / timing(gunzip, run);
        ratios.push(
          `  ${label}: sitemapkit takes ${both(slowdown)} the time of gunzip alone (goal ≤ 1.3×: cold ${verdict(slowdown('cold') <= 1.3)}, warm ${verdict(slowdown('warm') <= 1.3)})`,
        );
      }
      const plain = ownTimings.get(size)?.plain;
      if (mode === 'gzip' && plain) {
        const slowdown = (run: 'cold' | 'warm') => timing(ours, run) / timing(plain, run);
        ratios.push(
          `  ${label}: sitemapkit takes ${both(slowdown)} the time of the plain file (goal ≤ 1.2×: cold ${verdict(slowdown('cold') <= 1.2)}, warm ${verdict(slowdown('warm') <= 1.2)})`,
        );
      }
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  for (const row of rows)
    console.log(row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  console.log(`\nRatios (same run, same machine, ${clock === 'cpu' ? 'CPU time' : 'wall time'}):`);
  for (const line of ratios) console.log(line);
  if (process.env.BENCH_SKIP_1GB === '1' || !contenders.includes('sitemapkit')) return;
  const streamBytes = Number(process.env.BENCH_1GB_BYTES ?? 1024 ** 3);
  // Twice: with Node's defaults, and with V8's young generation capped (semi-spaces of 4 MB), which
  // shows how much of the peak is the collector's sizing rather than data the parser holds.
  for (const flags of [[], ['--max-semi-space-size=4']]) {
    const setting = flags.length === 0 ? 'Node defaults' : flags.join(' ');
    process.stderr.write(`  ${format(streamBytes / 1e6)} MB stream (${setting}): sitemapkit…\n`);
    const m = measure('stream', '', 1, streamBytes, flags);
    if (typeof m === 'string') console.log(`\n${format(streamBytes / 1e6)} MB stream: ${m}`);
    else {
      const { seconds, cpuSeconds } = m.cold;
      console.log(
        `${flags.length === 0 ? '\n' : ''}${format(m.bytes / 1e6)} MB generated stream (${setting}): ${format(m.count)} URLs in ${format(seconds, 1)} s (${format(m.bytes / 1e6 / seconds, 1)} MB/s, CPU ${format(cpuSeconds, 1)} s), peak RSS ${format(m.peakRssMb)} MB (goal < 100 MB: ${m.peakRssMb < 100 ? 'met' : 'not met'})`,
      );
    }
  }
}

await main();
