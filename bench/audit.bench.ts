/**
 * `npm run bench:audit`, two parts (`--part rate` or `--part rss` runs one):
 *
 * - rate: `sitemapkit audit` of a site listing 100,000 URLs (`--urls N`), against the minimal
 *   fetch-and-parse loop at the same concurrency (8 by default, `--concurrency N`): the sitemaps
 *   read with a regular expression, then every page fetched with undici and its head read with
 *   htmlparser2; no robots.txt, no politeness, no retries, no validation, no state, no rows. That
 *   loop is the practical limit of this machine. Goal: the audit at least 0.7× its rate. Each
 *   runs `--repeat N` times (default 3), in turns; its median run counts.
 * - rss: the audit's peak RSS at 10,000, 100,000 and 1,000,000 listed URLs (`--sizes a,b,c`).
 *   Goal: flat, and under 300 MB at a million.
 *
 * The site is served on 127.0.0.1 from a child process (sitemaps of 50,000 URLs under an index,
 * pages of ~2.5 KB with a canonical, a description and Last-Modified); the audit and the loop each
 * run in a child process of their own, so each peak RSS is its own. The machine may be shared:
 * the ratios are measured in the same run, so load weighs on both sides.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';
import { Agent, request } from 'undici';
import { parseCommandArgs, type Io } from '../src/cli/command.js';
import { command as auditCommand } from '../src/cli/audit.js';

const SELF = fileURLToPath(import.meta.url);
const PER_SITEMAP = 50_000;

interface Run {
  tool: string;
  urls: number;
  ms: number;
  cpuMs: number;
  maxRssKb: number;
}

// ---------------------------------------------------------------- the site (child process)

const FILLER = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>'.repeat(24);
const LAST_MODIFIED = 'Wed, 01 May 2024 10:00:00 GMT';

function serveBenchSite(urls: number): void {
  const sitemaps = Math.ceil(urls / PER_SITEMAP);
  let origin = '';
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const page = /^\/p\/(\d+)$/.exec(path);
    const sitemap = /^\/sitemap-(\d+)\.xml$/.exec(path);
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'last-modified': LAST_MODIFIED });
      res.end(
        `<!doctype html><html><head><meta charset="utf-8"><title>Page ${page[1]}</title><meta name="description" content="Page ${page[1]} of the benchmark site"><link rel="canonical" href="${origin}${path}"></head><body><main>${FILLER}</main></body></html>`,
      );
    } else if (sitemap) {
      const from = Number(sitemap[1]) * PER_SITEMAP;
      const parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
      ];
      for (let n = from; n < Math.min(urls, from + PER_SITEMAP); n++)
        parts.push(`<url><loc>${origin}/p/${n}</loc><lastmod>2024-05-0${1 + (n % 9)}</lastmod></url>\n`);
      parts.push('</urlset>\n');
      res.writeHead(200, { 'content-type': 'application/xml' }).end(parts.join(''));
    } else if (path === '/sitemap_index.xml') {
      const children = Array.from(
        { length: sitemaps },
        (_, i) => `<sitemap><loc>${origin}/sitemap-${i}.xml</loc></sitemap>`,
      );
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.join('\n')}\n</sitemapindex>\n`,
        );
    } else if (path === '/robots.txt') {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap_index.xml\n`);
    } else {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.stdout.write(`${JSON.stringify({ origin })}\n`);
  });
  process.stdin.resume();
  process.stdin.on('end', () => server.close(() => process.exit(0)));
}

// ---------------------------------------------------------------- the runners (child processes)

/**
 * What an audit that failed said, without its list of sitemaps (thousands of lines at a million
 * URLs, which would hide the rest): the report's other fields, or the text as it came.
 */
function failureSummary(output: string): string {
  try {
    const { sitemaps, ...rest } = JSON.parse(output) as { sitemaps?: { list?: unknown[] } };
    const { list: _list, ...counts } = sitemaps ?? {};
    return JSON.stringify({ ...rest, sitemaps: counts }).slice(0, 4000);
  } catch {
    return output.slice(-4000);
  }
}

/** Exactly what `sitemapkit audit` runs, in this process so that its peak RSS is measured. */
async function runAudit(origin: string, concurrency: number, work: string): Promise<Run> {
  const argv = [
    origin,
    '--state',
    join(work, 'state'),
    '--rows',
    join(work, 'rows.jsonl'),
    '--concurrency',
    String(concurrency),
    '--json',
    '-q',
  ];
  const chunks: string[] = [];
  const sink = { write: (chunk: string) => chunks.push(chunk) } as unknown as NodeJS.WritableStream;
  const io: Io = { stdout: sink, stderr: sink, stdin: process.stdin, isTerminal: false, stderrIsTerminal: false };
  const started = performance.now();
  const code = await auditCommand.run(parseCommandArgs(auditCommand.spec, argv), io);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`sitemapkit audit exited ${code}: ${failureSummary(chunks.join(''))}`);
  const report = JSON.parse(chunks.join('')) as { urls: { checked: number } };
  return {
    tool: 'sitemapkit audit',
    urls: report.urls.checked,
    ms,
    cpuMs: cpuMs(),
    maxRssKb: process.resourceUsage().maxRSS,
  };
}

/**
 * The practical limit: the sitemaps' <loc>s by a regular expression, then `concurrency` workers
 * each fetching a page with undici and reading its head with htmlparser2 (robots meta, canonical).
 */
async function runLoop(origin: string, concurrency: number): Promise<Run> {
  const agent = new Agent({ connections: concurrency });
  const text = async (url: string) => (await request(url, { dispatcher: agent })).body.text();
  const started = performance.now();
  const index = await text(`${origin}/sitemap_index.xml`);
  const urls: string[] = [];
  for (const [, sitemap] of index.matchAll(/<loc>([^<]*)<\/loc>/g))
    for (const [, url] of (await text(sitemap!)).matchAll(/<loc>([^<]*)<\/loc>/g)) urls.push(url!);
  let next = 0;
  let indexable = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const answer = await request(url, { dispatcher: agent });
      let noindex = false;
      let canonical: string | undefined;
      const parser = new Parser({
        onopentag(name, attributes) {
          if (name === 'meta' && attributes.name === 'robots') noindex ||= /noindex/i.test(attributes.content ?? '');
          if (name === 'link' && attributes.rel === 'canonical') canonical = attributes.href;
        },
      });
      for await (const chunk of answer.body) parser.write((chunk as Buffer).toString('utf8'));
      parser.end();
      if (answer.statusCode === 200 && !noindex && (canonical === undefined || canonical === url)) indexable += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await agent.close();
  if (indexable !== urls.length) throw new Error(`the loop found ${indexable} of ${urls.length} pages indexable`);
  return {
    tool: 'fetch-and-parse loop',
    urls: urls.length,
    ms: performance.now() - started,
    cpuMs: cpuMs(),
    maxRssKb: process.resourceUsage().maxRSS,
  };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// ---------------------------------------------------------------- the parent

function readNumber(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]?.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

function readSizes(): number[] {
  const index = process.argv.indexOf('--sizes');
  const raw = index === -1 ? '10000,100000,1000000' : (process.argv[index + 1] ?? '');
  return raw.split(',').map((size) => {
    const value = Number(size.replace(/_/g, ''));
    if (!Number.isInteger(value) || value < 1) throw new Error(`--sizes: "${size}" is not a number of URLs`);
    return value;
  });
}

/** Starts this file again in `mode`; resolves with its first JSON line, and the way it ended. */
function child(mode: string, args: string[]) {
  const proc = spawn(process.execPath, [SELF, mode, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = '';
  const firstLine = new Promise<string>((resolve, reject) => {
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline !== -1) resolve(buffer.slice(0, newline));
    });
    proc.on('close', (code) => reject(new Error(`${mode} ended (exit code ${code}) without answering`)));
  });
  const exited = new Promise<void>((resolve) => proc.on('close', () => resolve()));
  return { proc, firstLine, exited };
}

async function withSite<T>(urls: number, run: (origin: string, work: string) => Promise<T>): Promise<T> {
  const work = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-bench-'));
  const site = child('--serve', [String(urls)]);
  try {
    const { origin } = JSON.parse(await site.firstLine) as { origin: string };
    return await run(origin, work);
  } finally {
    site.proc.stdin.end();
    await site.exited;
    rmSync(work, { recursive: true, force: true });
  }
}

async function measure(tool: 'audit' | 'loop', origin: string, concurrency: number, work: string): Promise<Run> {
  const runner = child(`--run-${tool}`, [origin, String(concurrency), join(work, tool)]);
  const result = JSON.parse(await runner.firstLine) as Run;
  await runner.exited;
  return result;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** The run of median time among `runs`. */
function medianRun(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor((runs.length - 1) / 2)]!;
}

async function ratePart(): Promise<void> {
  const urls = readNumber('urls', 100_000);
  const concurrency = readNumber('concurrency', 8);
  const repeat = readNumber('repeat', 3);
  await withSite(urls, async (origin, work) => {
    console.log(
      `audit benchmark: ${urls.toLocaleString('en-US')} listed URLs on ${origin}, concurrency ${concurrency}, median of ${repeat} runs each, node ${process.version}`,
    );
    // The machine's speed drifts by a third from minute to minute: each tool runs `repeat` times,
    // in turns, and its median run counts.
    const loops: Run[] = [];
    const audits: Run[] = [];
    for (let round = 0; round < repeat; round++) {
      loops.push(await measure('loop', origin, concurrency, work));
      audits.push(await measure('audit', origin, concurrency, work));
    }
    const [loop, audit] = [medianRun(loops), medianRun(audits)];
    console.log('');
    console.log('tool                    URLs   seconds    URLs/s   CPU ms/URL   peak RSS');
    for (const run of [audit, loop]) {
      const seconds = run.ms / 1000;
      console.log(
        `${run.tool.padEnd(20)}  ${String(run.urls).padStart(6)}  ${seconds.toFixed(1).padStart(8)}  ${(run.urls / seconds).toFixed(0).padStart(8)}  ${(run.cpuMs / run.urls).toFixed(3).padStart(11)}  ${mb(run.maxRssKb).padStart(9)}`,
      );
    }
    const rate = (run: Run) => run.urls / (run.ms / 1000);
    console.log('');
    console.log(
      `URLs/s: sitemapkit audit is ${(rate(audit) / rate(loop)).toFixed(2)}× the fetch-and-parse loop at concurrency ${concurrency} (goal: at least 0.7×)`,
    );
    console.log(
      `CPU per URL: the audit needs ${(audit.cpuMs / audit.urls / (loop.cpuMs / loop.urls)).toFixed(2)}× the loop's`,
    );
  });
}

async function rssPart(): Promise<void> {
  const concurrency = readNumber('concurrency', 8);
  const runs: Run[] = [];
  for (const size of readSizes()) {
    await withSite(size, async (origin, work) => {
      console.log(`rss: auditing ${size.toLocaleString('en-US')} listed URLs on ${origin}…`);
      runs.push(await measure('audit', origin, concurrency, work));
    });
  }
  console.log('');
  console.log('listed URLs   seconds    URLs/s   peak RSS');
  for (const run of runs) {
    const seconds = run.ms / 1000;
    console.log(
      `${run.urls.toLocaleString('en-US').padStart(11)}  ${seconds.toFixed(1).padStart(8)}  ${(run.urls / seconds).toFixed(0).padStart(8)}  ${mb(run.maxRssKb).padStart(9)}`,
    );
  }
  const [first, last] = [runs[0]!, runs.at(-1)!];
  console.log('');
  console.log(
    `peak RSS: ${mb(last.maxRssKb)} at ${last.urls.toLocaleString('en-US')} URLs, ${(last.maxRssKb / first.maxRssKb).toFixed(2)}× that at ${first.urls.toLocaleString('en-US')} (goal: flat, under 300 MB at 1,000,000)`,
  );
}

async function main(): Promise<void> {
  const partIndex = process.argv.indexOf('--part');
  const part = partIndex === -1 ? undefined : process.argv[partIndex + 1];
  if (part !== undefined && part !== 'rate' && part !== 'rss')
    throw new Error(`--part must be rate or rss, not "${part}"`);
  if (part !== 'rss') await ratePart();
  if (part !== 'rate') await rssPart();
}

const [mode, ...args] = process.argv.slice(2);
const print = (run: Run) => process.stdout.write(`${JSON.stringify(run)}\n`);
if (mode === '--serve') serveBenchSite(Number(args[0]));
else if (mode === '--run-audit') void runAudit(args[0]!, Number(args[1]), args[2]!).then(print);
else if (mode === '--run-loop') void runLoop(args[0]!, Number(args[1])).then(print);
else await main();
