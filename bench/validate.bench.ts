/**
 * Benchmark of the validator against the parser it streams over: the same 50,000-URL sitemap
 * (about 10 MB; lastmod, changefreq, priority on every URL, an image on one in ten, an hreflang
 * pair on one in five) read by
 *   - parse:    locatedEntryBatches(parseSitemap(file)), counting entries: the fastest positioned
 *               parse, read as validate reads it (the floor: validation cannot beat it)
 *   - validate: validateSitemap(file) with a location, so every rule runs, scope included
 * alternately in one process, several rounds; prints the median time of each, MB/s, URLs/s and
 * the validate-vs-parse speed ratio (the target is at least 0.5: validation at no less than
 * half the parser's speed). Then memory: the peak live heap (sampled after forced GCs) of parse
 * and validate on an image-heavy document (10,000 URLs with 30 images each, about 33 MB), where
 * the validator should hold little more than its URL set.
 *
 *   npm run build && node dist/bench/validate.bench.js [--urls 50000] [--rounds 5] [--gzip]
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { locatedEntryBatches, parseSitemap } from '../src/parse/index.js';
import { validateSitemap } from '../src/validate/index.js';

const SITE = 'https://www.example.com';
const DATA_DIR = fileURLToPath(new URL('../../bench/.data/', import.meta.url));

function buildSitemap(urls: number): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n',
  ];
  for (let i = 0; i < urls; i++) {
    const loc = `${SITE}/catalog/products/item-${i}?color=blue&amp;size=${i % 7}`;
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    parts.push(
      `  <url>\n    <loc>${loc}</loc>\n    <lastmod>2023-${month}-${day}T10:${String(i % 60).padStart(2, '0')}:00+00:00</lastmod>\n    <changefreq>weekly</changefreq>\n    <priority>${(i % 10) / 10}</priority>\n`,
    );
    if (i % 10 === 0) parts.push(`    <image:image><image:loc>${SITE}/img/${i}.jpg</image:loc></image:image>\n`);
    if (i % 5 === 0) {
      parts.push(
        `    <xhtml:link rel="alternate" hreflang="en" href="${loc}"/>\n    <xhtml:link rel="alternate" hreflang="x-default" href="${loc}"/>\n`,
      );
    }
    parts.push('  </url>\n');
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

/** Wall-clock and CPU time of one run: on a shared machine CPU time is the steadier figure. */
async function timeIt(run: () => Promise<number>): Promise<{ ms: number; cpuMs: number; count: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const count = await run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, count };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function buildImageHeavySitemap(urls: number, imagesPerUrl: number): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n',
  ];
  for (let i = 0; i < urls; i++) {
    parts.push(`<url><loc>${SITE}/p/${i}/a-product-name</loc>\n`);
    for (let j = 0; j < imagesPerUrl; j++)
      parts.push(`  <image:image><image:loc>${SITE}/img/${i}/${j}/an-image-name.jpg</image:loc></image:image>\n`);
    parts.push('</url>\n');
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

/** The largest live heap seen while `run` works, sampling after a forced GC every 50 ms. */
async function peakLiveHeap(run: () => Promise<unknown>): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  let peak = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 50);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return peak / 1_048_576;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { urls: { type: 'string' }, rounds: { type: 'string' }, gzip: { type: 'boolean' } },
  });
  const urls = Number(values.urls ?? 50_000);
  const rounds = Number(values.rounds ?? 5);
  await mkdir(DATA_DIR, { recursive: true });
  const xml = buildSitemap(urls);
  const file = join(DATA_DIR, `validate-${urls}.xml${values.gzip ? '.gz' : ''}`);
  await writeFile(file, values.gzip ? gzipSync(xml) : xml);
  const megabytes = Buffer.byteLength(xml) / 1_048_576;
  console.log(
    `${urls.toLocaleString('en-US')} URLs, ${megabytes.toFixed(1)} MB${values.gzip ? ` (gzip: ${((await stat(file)).size / 1_048_576).toFixed(1)} MB on disk)` : ''}, ${rounds} rounds, Node ${process.version}`,
  );

  const parse = async () => {
    let count = 0;
    for await (const batch of locatedEntryBatches(parseSitemap(file)))
      for (const located of batch) if (located.entry.loc) count++;
    return count;
  };
  const validate = async () => {
    const result = await validateSitemap(file, {
      location: `${SITE}/sitemap.xml`,
      now: new Date('2024-01-01T00:00:00Z'),
      maxDiagnostics: 100,
    });
    if (result.errors > 0)
      throw new Error(`the benchmark file should be valid: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
    return result.urls;
  };
  await parse(); // warm-up: JIT and file cache
  await validate();
  const times = { parse: [] as number[], validate: [] as number[] };
  const cpuTimes = { parse: [] as number[], validate: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of [
      ['parse', parse],
      ['validate', validate],
    ] as const) {
      const { ms, cpuMs, count } = await timeIt(run);
      if (count !== urls) throw new Error(`${name} read ${count} URLs, expected ${urls}`);
      times[name].push(ms);
      cpuTimes[name].push(cpuMs);
    }
  }
  for (const name of ['parse', 'validate'] as const) {
    const ms = median(times[name]);
    console.log(
      `${name.padEnd(9)} ${ms.toFixed(0).padStart(6)} ms wall (${median(cpuTimes[name]).toFixed(0)} ms CPU)  ${(megabytes / (ms / 1000)).toFixed(1).padStart(6)} MB/s  ${Math.round(
        urls / (ms / 1000),
      )
        .toLocaleString('en-US')
        .padStart(10)} URLs/s`,
    );
  }
  const ratio = median(times.parse) / median(times.validate);
  const cpuRatio = median(cpuTimes.parse) / median(cpuTimes.validate);
  const verdict = (r: number) => (r >= 0.5 ? 'met' : 'NOT met');
  console.log(
    `validate-vs-parse speed ratio: ${ratio.toFixed(2)} wall-clock, ${cpuRatio.toFixed(2)} CPU time (target ≥ 0.50: ${verdict(ratio)} / ${verdict(cpuRatio)})`,
  );

  const heavy = join(DATA_DIR, 'validate-images.xml');
  await writeFile(heavy, buildImageHeavySitemap(10_000, 30)); // the string is garbage once written
  const heavyMb = (await stat(heavy)).size / 1_048_576;
  const parseHeap = await peakLiveHeap(async () => {
    for await (const located of parseSitemap(heavy).located()) if (!located.entry.loc) throw new Error('no loc');
  });
  const validateHeap = await peakLiveHeap(() => validateSitemap(heavy, { location: `${SITE}/sitemap.xml` }));
  console.log(
    `memory, 10,000 URLs x 30 images (${heavyMb.toFixed(0)} MB): peak live heap parse ${parseHeap.toFixed(1)} MB, validate ${validateHeap.toFixed(1)} MB`,
  );
}

await main();
