/**
 * `npm run bench:build-dir` (issue 23 §7): `sitemapkit generate DIR` on a big build folder, against
 * the npm folder-to-sitemap CLI `static-sitemap-cli` (with its robots check on, as it reads every
 * page, and off, as it reads none) and against a bare scan that opens each page and reads it up to
 * `</head>` with no parsing at all (the practical limit of reading every head), in the same run.
 *
 * Goals: sitemapkit at least static-sitemap-cli's throughput (≥ 1.0×, CPU time) while reading
 * every head, ≥ 0.5× the bare head scan, peak RSS < 200 MB, no EMFILE at any size.
 *
 * The folder: BUILD_DIR_BENCH_PAGES pages (default 50,000; or `--pages N`) of 20–60 KB, in
 * folders of 500, a head of about 3 KB (styles, scripts, an inline script that reads
 * `window.location`, Open Graph, hreflang), a tenth of them meta-refresh redirect stubs of a few
 * hundred bytes (half of them with a `location.replace` script too), one in 50 noindex, one in 70
 * with its canonical on another page, one in 1,000 a page of 1.2 MB. `--make` only makes one and
 * prints its path; `--dir PATH` runs on a folder made so (and keeps it), which spares a minute of
 * making 50,000 pages for each run. `--dir` takes a real build as well (the Rust documentation
 * that rustup installs is one of 48,625 pages).
 *
 * A third reference, "list + stat + tokenize heads", does only what no correct run can skip (list
 * the pages with their modification times, tokenize each head with sitemapkit's scanner): its
 * ratio to the bare scan is the most this design can reach against it.
 *
 * Each tool runs in a child process of its own under GNU time: CPU seconds (user + system) and
 * peak RSS are the tool's alone.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadReferenceDecoder, ReferenceDecoderNotLoaded, scanPageHead } from '../src/html/head-scanner.js';
import { fileChunks, listPageFiles } from '../src/input/page-files.js';
import { haveGnuTime, timedNode, type ChildRun, CLI, REPO_ROOT as ROOT } from './measure.js';

const SELF = fileURLToPath(import.meta.url);
const BASE = 'https://docs.example.com/';

// ---------------------------------------------------------------- the bare head scan (child process)

/** Opens each .html file below `dir` and reads it until `</head>`: what reading every head costs at the least. */
function bareScan(dir: string): void {
  const buffer = Buffer.allocUnsafe(16 * 1024);
  let pages = 0;
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html')) {
        const fd = openSync(path, 'r');
        try {
          for (let position = 0; ;) {
            const read = readSync(fd, buffer, 0, buffer.length, position);
            if (read === 0 || buffer.subarray(0, read).includes('</head>')) break;
            position += read;
          }
        } finally {
          closeSync(fd);
        }
        pages++;
      }
    }
  };
  walk(dir);
  process.stdout.write(`${pages}\n`);
}

/**
 * What sitemapkit cannot do without on a build folder: list the pages with their modification
 * times (to see a build stamp) and tokenize every head with its own scanner; no rule, no entry, no
 * output. The ratio of the bare scan to it is the best sitemapkit could reach with this scanner.
 */
async function headsFloor(dir: string): Promise<void> {
  let heads = 0;
  for (const file of listPageFiles(dir)) {
    const scan = () => scanPageHead(fileChunks(join(dir, file.relative)), `${BASE}${file.relative}`);
    try {
      scan();
    } catch (error) {
      // As the folder reader does: htmlparser2 is loaded only for a head with a character reference.
      if (!(error instanceof ReferenceDecoderNotLoaded)) throw error;
      await loadReferenceDecoder();
      scan();
    }
    heads++;
  }
  process.stdout.write(`${heads}\n`);
}

// ---------------------------------------------------------------- the folder

function filler(bytes: number, seed: number): string {
  const words = ['sitemap', 'page', 'build', 'static', 'folder', 'search', 'engine', 'index', 'guide', 'example'];
  let text = '';
  let i = seed;
  while (text.length < bytes) {
    text += `<p>${Array.from({ length: 40 }, () => words[(i = (i * 7 + 3) % 10)]).join(' ')}.</p>\n`;
    if (text.length % 7 === 0) text += `<a href="/s${i % 100}/p${i}.html">related ${i}</a>\n`;
  }
  return text;
}

function pageHtml(n: number, folder: number): string {
  const path = `/s${folder}/p${n}.html`;
  if (n % 10 === 5) {
    // Half of them also redirect by script, as rustdoc's and Docusaurus's stubs do.
    const script =
      n % 20 === 5 ? `<script>location.replace("/s${folder}/p${n - 1}.html" + location.hash)</script>` : '';
    return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=/s${folder}/p${n - 1}.html"><link rel="canonical" href="/s${folder}/p${n - 1}.html"><title>Redirecting</title></head><body><p>Redirecting…</p>${script}</body></html>`;
  }
  const robots = n % 50 === 7 ? '<meta name="robots" content="noindex">' : '';
  const canonical = n % 70 === 11 ? `/s${folder}/p${n - 1}.html` : path;
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Docusaurus v3.5.2">
<title>Page ${n} | Example Docs</title>
<meta property="og:title" content="Page ${n} | Example Docs"><meta property="og:url" content="${BASE.slice(0, -1)}${path}">
<meta name="description" content="${filler(200, n)
    .replace(/<[^>]+>/g, '')
    .slice(0, 160)}">
${robots}<link rel="canonical" href="${canonical}">
<link rel="alternate" hreflang="en" href="${path}"><link rel="alternate" hreflang="x-default" href="${path}">
<link rel="stylesheet" href="/assets/css/styles.3f2a9c1b.css"><link rel="preload" href="/assets/js/runtime~main.8d7a6e5f.js" as="script">
<script src="/assets/js/main.1b2c3d4e.js" defer></script>
<script>if(window.location.protocol!=="file:")gtag("config","G-EXAMPLE",{page_location:window.location.href})</script>
<style>${'.c{color:#123}'.repeat(100)}</style>
</head>`;
  // One page in a thousand is a large one (an index of everything, as rustdoc writes): 1.2 MB.
  const size = n % 1000 === 999 ? 1_200_000 : 20_000 + ((n * 7919) % 40_000);
  return `${head}<body><nav>${'<a href="/">Home</a> '.repeat(30)}</nav><main><h1>Page ${n}</h1>${filler(size - head.length, n)}</main></body></html>`;
}

function makeFolder(pages: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-build-dir-bench-'));
  for (let n = 0; n < pages; n++) {
    const folder = Math.floor(n / 500);
    if (n % 500 === 0) mkdirSync(join(dir, `s${folder}`));
    writeFileSync(join(dir, `s${folder}`, `p${n}.html`), pageHtml(n, folder));
  }
  writeFileSync(join(dir, 'index.html'), pageHtml(1, 0));
  return dir;
}

// ---------------------------------------------------------------- the runs

interface Result {
  tool: string;
  run?: ChildRun;
  failed?: string;
}

async function measure(tool: string, args: string[]): Promise<Result> {
  try {
    return { tool, run: await timedNode(args, { cwd: ROOT }) };
  } catch (error) {
    const message = (error as Error).message;
    return {
      tool,
      failed: /EMFILE/.test(message) ? 'EMFILE: too many open files' : message.split('\n').slice(0, 3).join(' '),
    };
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--scan') return bareScan(args[1]!);
  if (args[0] === '--scan-heads') return await headsFloor(args[1]!);
  const flagValue = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    return at < 0 ? undefined : args[at + 1];
  };
  const given = flagValue('--dir');
  let pages = Number(flagValue('--pages') ?? process.env.BUILD_DIR_BENCH_PAGES ?? 50_000);
  // `--make`: only make the folder and print its path (to profile a tool on it by hand, or to run on with --dir).
  if (args.includes('--make')) return void console.log(makeFolder(pages));
  if (!haveGnuTime()) console.warn('GNU time (/usr/bin/time) is missing: CPU time and RSS cannot be measured');
  // The package exports no path of its own: its binary is where npm installed it.
  const sscli = join(ROOT, 'node_modules', 'static-sitemap-cli', 'src', 'cli.js');
  let dir: string;
  if (given === undefined) {
    console.log(`Making a build folder of ${pages.toLocaleString('en-US')} pages…`);
    dir = makeFolder(pages);
  } else {
    dir = given;
    pages = listPageFiles(dir).length;
    console.log(`The build folder ${dir}: ${pages.toLocaleString('en-US')} pages (kept)`);
  }
  const out = mkdtempSync(join(tmpdir(), 'sitemapkit-build-dir-out-'));
  try {
    const results: Result[] = [];
    // A first pass over the folder warms the page cache, so that no tool pays for the disk alone.
    await measure('warm-up', [SELF, '--scan', dir]);
    results.push(await measure('bare head scan', [SELF, '--scan', dir]));
    results.push(await measure('list + stat + tokenize heads', [SELF, '--scan-heads', dir]));
    results.push(
      await measure('sitemapkit generate', [CLI, 'generate', dir, '--base-url', BASE, '--out', join(out, 'sk'), '-q']),
    );
    // Another build of sitemapkit (BUILD_DIR_BENCH_BASELINE: its dist/cli/sitemapkit.js), to show a change's gain in one run.
    const baseline = process.env.BUILD_DIR_BENCH_BASELINE;
    if (baseline !== undefined)
      results.push(
        await measure('sitemapkit baseline', [
          baseline,
          'generate',
          dir,
          '--base-url',
          BASE,
          '--out',
          join(out, 'b'),
          '-q',
        ]),
      );
    results.push(await measure('static-sitemap-cli', [sscli, '-b', BASE, '-r', dir, '-f', 'xml', '-o']));
    results.push(
      await measure('static-sitemap-cli --no-robots', [sscli, '-b', BASE, '-r', dir, '-f', 'xml', '-o', '--no-robots']),
    );
    console.log(
      `\n${'tool'.padEnd(34)} ${'CPU s'.padStart(7)} ${'wall s'.padStart(7)} ${'pages/CPU s'.padStart(12)} ${'peak MB'.padStart(8)}`,
    );
    for (const { tool, run, failed } of results) {
      if (run === undefined) console.log(`${tool.padEnd(34)} failed: ${failed}`);
      else
        console.log(
          `${tool.padEnd(34)} ${run.cpuSeconds.toFixed(2).padStart(7)} ${run.seconds.toFixed(2).padStart(7)} ${Math.round(
            pages / run.cpuSeconds,
          )
            .toLocaleString('en-US')
            .padStart(12)} ${(run.maxRssMb?.toFixed(0) ?? '?').padStart(8)}`,
        );
    }
    const cpu = (tool: string) => results.find((result) => result.tool === tool)?.run?.cpuSeconds;
    const ours = cpu('sitemapkit generate');
    if (ours !== undefined) {
      console.log('\nThroughput of sitemapkit (CPU time), as a ratio to each peer (goal in brackets):');
      for (const [peer, goal] of [
        ['static-sitemap-cli', '≥ 1.0'],
        ['static-sitemap-cli --no-robots', '≥ 1.0'],
        ['bare head scan', '≥ 0.5'],
        ['list + stat + tokenize heads', 'the floor of this scanner'],
        ['sitemapkit baseline', 'the build before'],
      ] as const) {
        const theirs = cpu(peer);
        if (peer === 'sitemapkit baseline' && theirs === undefined) continue;
        console.log(
          `  vs ${peer.padEnd(32)} ${theirs === undefined ? 'n/a (it failed)' : `${(theirs / ours).toFixed(2)}×`}  (${goal})`,
        );
      }
      const rss = results.find((result) => result.tool === 'sitemapkit generate')?.run?.maxRssMb;
      console.log(`  peak RSS of sitemapkit: ${rss?.toFixed(0) ?? '?'} MB (< 200)`);
    }
  } finally {
    if (given === undefined) rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

await main();
