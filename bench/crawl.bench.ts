/**
 * `npm run bench:crawl`, two parts (`--part peer` or `--part retries` runs one):
 *
 * - peer: sitemapkit's crawler against the `sitemap-generator` npm package on the same generated
 *   site (20,000 pages by default), with the same concurrency. Prints pages/s, CPU per page, peak
 *   RSS, the ratios, and how the listed sets differ.
 * - retries (issue 15 §3): a 5,000-page site where 1% of the pages answer 500, crawled with
 *   concurrency 8 by sitemapkit with its default retries, by sitemapkit with `--retries 0`, by the library's `crawlSite`, and by
 *   a minimal crawler (fetch and htmlparser2, no politeness, no retries, no state): the practical
 *   limit. Goal: the default crawl within 1.3× of `--retries 0`, so a URL waiting for its retry
 *   does not hold a worker, and `--retries 0` at least 0.8× the minimal crawler's rate (issue 26:
 *   a crawl of one process is a run, one worker on its crawl state file). The same crawl on a
 *   shared SQLite store (`--run`: batches committed whole) is measured beside them. Each crawler
 *   runs `--repeat N` times (CRAWL_BENCH_REPEAT, default 3), in turns; its median run counts.
 *
 * Sites are served on 127.0.0.1 from a child process; each crawler runs in a child process of its
 * own, so its peak RSS is its own.
 *
 * Size of the peer site: CRAWL_BENCH_PAGES=2000 or `--pages 2000`; concurrency:
 * CRAWL_BENCH_CONCURRENCY (default 4).
 *
 * The site: a tree of pages, ten links each plus a cross link and a link home, ~3 KB of HTML,
 * Last-Modified on every page; every 100th page is noindex, every 150th has its canonical on
 * /p/0, every 200th links to a 404, every 250th links through a 301 to an existing page; in the
 * retries part, every page numbered 42 modulo 100 answers 500, every time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';
import { parseCommandArgs, type Io } from '../src/cli/command.js';
import { CRAWL_NETWORK_DEFAULTS, command as crawlCommand } from '../src/cli/crawl.js';
import { HttpClient } from '../src/http/client.js';
import { crawlSite } from '../src/run/crawl-site.js';
import { normaliseCrawlUrl } from '../src/crawl/normalise.js';

const SELF = fileURLToPath(import.meta.url);

interface CrawlerRun {
  tool: string;
  ms: number;
  /** CPU time (user + system) of the crawler's process: steadier than wall time on a busy machine. */
  cpuMs: number;
  maxRssKb: number;
  listed: string[];
  /** Page requests the server answered for this run. */
  requests?: number;
}

// ---------------------------------------------------------------- the site (child process)

const FILLER =
  '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>'.repeat(
    12,
  );
const LAST_MODIFIED = 'Wed, 01 May 2024 10:00:00 GMT';

function sitePage(n: number, pages: number): { status: number; headers: Record<string, string>; body: string } {
  const links: string[] = ['<a href="/">Home</a>'];
  for (let child = 10 * n + 1; child <= 10 * n + 10 && child < pages; child++)
    links.push(`<a href="/p/${child}">Page ${child}</a>`);
  links.push(`<a href="/p/${(n * 7919) % pages}">Related</a>`);
  if (n % 200 === 7) links.push(`<a href="/gone/${n}">Gone</a>`);
  if (n % 250 === 11) links.push(`<a href="/moved/${n}">Moved</a>`);
  let head = `<title>Page ${n}</title>`;
  if (n % 100 === 99) head += '<meta name="robots" content="noindex">';
  if (n % 150 === 149) head += '<link rel="canonical" href="/p/0">';
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'last-modified': LAST_MODIFIED },
    body: `<!doctype html><html><head>${head}</head><body><nav>${links.join(' ')}</nav>${FILLER}</body></html>`,
  };
}

/**
 * Which pages answer 500: none; the pages numbered 42 modulo 100 on their first request only (a
 * passing failure); or those pages on every request (a lasting one).
 */
type Failing = 'none' | 'once' | 'always';

function serveBenchSite(pages: number, failing: Failing): void {
  let requests = 0;
  const failed = new Set<string>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== '/robots.txt') requests += 1;
    const page = /^\/p\/(\d+)$/.exec(path);
    const moved = /^\/moved\/(\d+)$/.exec(path);
    const fails =
      failing !== 'none' && page && Number(page[1]) % 100 === 42 && (failing === 'always' || !failed.has(path));
    if (fails) {
      failed.add(path);
      response.writeHead(500, { 'content-type': 'text/html' }).end('<!doctype html><title>Server error</title>');
    } else if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    } else if (path === '/') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><head><title>Home</title></head><body><a href="/p/0">Start</a></body></html>');
    } else if (page && Number(page[1]) < pages) {
      const { status, headers, body } = sitePage(Number(page[1]), pages);
      response.writeHead(status, headers).end(body);
    } else if (moved) {
      response.writeHead(301, { location: `/p/${moved[1]}` }).end();
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    }
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(
      `${JSON.stringify({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
    );
  });
  // The parent asks for the request count between runs, over stdin: the next run starts afresh.
  process.stdin.setEncoding('utf8').on('data', () => {
    process.stdout.write(`${JSON.stringify({ requests })}\n`);
    requests = 0;
    failed.clear();
  });
  process.stdin.on('end', () => server.close(() => process.exit(0)));
}

// ---------------------------------------------------------------- the crawlers (child processes)

/** `sitemapkit crawl`; exit 1 is expected when the site has pages that fail for good. */
async function runSitemapkit(origin: string, concurrency: number, work: string, extra: string[]): Promise<CrawlerRun> {
  const out = join(work, 'sitemapkit-out');
  const argv = [
    '--out',
    out,
    '--state',
    join(work, 'sitemapkit-state'),
    '--concurrency',
    String(concurrency),
    '--json',
    ...extra,
    `${origin}/`,
  ];
  const chunks: string[] = [];
  const sink = { write: (chunk: string) => chunks.push(chunk) } as unknown as NodeJS.WritableStream;
  const io: Io = { stdout: sink, stderr: sink, stdin: process.stdin, isTerminal: false, stderrIsTerminal: false };
  const started = performance.now();
  // Exactly what `sitemapkit crawl` runs, in this process so that its peak RSS is measured.
  const code = await crawlCommand.run(parseCommandArgs(crawlCommand.spec, argv), io);
  const ms = performance.now() - started;
  const unread = code === 1 && chunks.some((chunk) => /could not be read/.test(chunk));
  if (code !== 0 && !unread) throw new Error(`sitemapkit crawl exited ${code}: ${chunks.join('')}`);
  const xml = readFileSync(join(out, 'sitemap.xml'), 'utf8');
  const listed = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
  return { tool: 'sitemapkit', ms, cpuMs: cpuMs(), maxRssKb: process.resourceUsage().maxRSS, listed };
}

/** The library's `crawlSite`: the same run on a temporary queue, its entries read back. */
async function runLibrary(origin: string, concurrency: number): Promise<CrawlerRun> {
  const http = new HttpClient({ retries: CRAWL_NETWORK_DEFAULTS.retries });
  const started = performance.now();
  const listed: string[] = [];
  try {
    for await (const entry of crawlSite({ startUrl: `${origin}/`, http, concurrency })) listed.push(entry.loc);
  } finally {
    await http.close();
  }
  const ms = performance.now() - started;
  return { tool: 'crawlSite (library)', ms, cpuMs: cpuMs(), maxRssKb: process.resourceUsage().maxRSS, listed };
}

interface Generator {
  on(event: 'add' | 'done' | 'error', listener: (arg: unknown) => void): void;
  start(): void;
  getCrawler(): { maxConcurrency: number; interval: number };
}

async function runPeer(origin: string, concurrency: number, work: string): Promise<CrawlerRun> {
  const SitemapGenerator = createRequire(import.meta.url)('sitemap-generator') as (
    url: string,
    options: object,
  ) => Generator;
  const generator = SitemapGenerator(`${origin}/`, {
    filepath: join(work, 'peer-sitemap.xml'),
    stripQuerystring: true,
  });
  // simplecrawler waits 250 ms between requests by default: same concurrency, no pause, as ours.
  const crawler = generator.getCrawler();
  crawler.maxConcurrency = concurrency;
  crawler.interval = 0;
  const listed: string[] = [];
  generator.on('add', (url) => listed.push(url as string));
  const started = performance.now();
  await new Promise<void>((resolve) => {
    generator.on('done', () => resolve());
    generator.start();
  });
  return {
    tool: 'sitemap-generator',
    ms: performance.now() - started,
    cpuMs: cpuMs(),
    maxRssKb: process.resourceUsage().maxRSS,
    listed,
  };
}

/**
 * The practical limit: breadth-first with fetch and htmlparser2, `concurrency` requests at a time,
 * no robots.txt, no politeness, no retries, no state. Lists every 200 HTML page.
 */
async function runMinimal(origin: string, concurrency: number): Promise<CrawlerRun> {
  const seen = new Set<string>([`${origin}/`]);
  const queue = [`${origin}/`];
  const listed: string[] = [];
  const started = performance.now();
  const visit = async (url: string) => {
    const response = await fetch(url);
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html')) {
      await response.body?.cancel();
      return;
    }
    listed.push(url);
    const parser = new Parser({
      onopentag(name, attributes) {
        if (name !== 'a' || attributes.href === undefined) return;
        const link = new URL(attributes.href, url);
        link.hash = '';
        if (link.origin === origin && !seen.has(link.href)) {
          seen.add(link.href);
          queue.push(link.href);
        }
      },
    });
    parser.end(await response.text());
  };
  let running = 0;
  await new Promise<void>((resolve, reject) => {
    const next = () => {
      while (running < concurrency && queue.length > 0) {
        running += 1;
        visit(queue.shift()!).then(() => {
          running -= 1;
          if (queue.length === 0 && running === 0) resolve();
          else next();
        }, reject);
      }
    };
    next();
  });
  return {
    tool: 'fetch + htmlparser2',
    ms: performance.now() - started,
    cpuMs: cpuMs(),
    maxRssKb: process.resourceUsage().maxRSS,
    listed,
  };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// ---------------------------------------------------------------- the parent

function readArg(name: string, env: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const raw = index === -1 ? process.env[env] : process.argv[index + 1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} / ${env} must be a positive whole number, not "${raw}"`);
  return value;
}

/** Starts this file again in `mode`, and returns its JSON lines as they come. */
function child(mode: string, args: string[]) {
  const proc = spawn(process.execPath, [SELF, mode, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buffer = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  // 'close', not 'exit': the child's last lines may still be in the pipe when it exits.
  const exited = new Promise<string>((resolve) =>
    proc.on('close', (code, signal) => resolve(signal ?? `exit code ${code}`)),
  );
  return {
    proc,
    exited,
    nextLine: () =>
      new Promise<string>((resolve, reject) => {
        const line = lines.shift();
        if (line !== undefined) return resolve(line);
        waiters.push(resolve);
        void exited.then((how) => reject(new Error(`${mode} ended (${how}) without answering`)));
      }),
  };
}

async function measure(
  tool: 'sitemapkit' | 'library' | 'peer' | 'minimal',
  origin: string,
  concurrency: number,
  work: string,
  site: ReturnType<typeof child>,
  extra: string[] = [],
): Promise<CrawlerRun> {
  const runner = child(`--run-${tool}`, [origin, String(concurrency), work, ...extra]);
  const result = JSON.parse(await runner.nextLine()) as CrawlerRun;
  await runner.exited;
  site.proc.stdin.write('count\n');
  result.requests = (JSON.parse(await site.nextLine()) as { requests: number }).requests;
  return result;
}

function normalisedSet(urls: string[]): Set<string> {
  return new Set(urls.map((url) => normaliseCrawlUrl(url) ?? url));
}

async function main(): Promise<void> {
  const partIndex = process.argv.indexOf('--part');
  const part = partIndex === -1 ? undefined : process.argv[partIndex + 1];
  if (part !== undefined && part !== 'peer' && part !== 'retries')
    throw new Error(`--part must be peer or retries, not "${part}"`);
  if (part !== 'retries') await againstPeer();
  if (part !== 'peer') await retriesPart();
}

/** Runs `measure` against a site served by a child process, in a temporary work directory. */
async function withSite<T>(
  pages: number,
  failing: Failing,
  run: (origin: string, site: ReturnType<typeof child>, work: string) => Promise<T>,
): Promise<T> {
  const work = mkdtempSync(join(tmpdir(), 'sitemapkit-crawl-bench-'));
  const site = child('--serve', [String(pages), failing]);
  try {
    const { origin } = JSON.parse(await site.nextLine()) as { origin: string };
    return await run(origin, site, work);
  } finally {
    site.proc.stdin.end();
    await site.exited;
    rmSync(work, { recursive: true, force: true });
  }
}

/** Pages of the retries part's sites (`--retries-pages N`): the retry tail is a fixed cost, so its ratio falls as they grow. */
const RETRIES_PAGES = readArg('retries-pages', 'CRAWL_BENCH_RETRIES_PAGES', 5_000);
const RETRIES_CONCURRENCY = 8;

/** The run of median time among `runs`. */
function medianRun(runs: CrawlerRun[]): CrawlerRun {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor((runs.length - 1) / 2)]!;
}

async function retriesPart(): Promise<void> {
  const repeat = readArg('repeat', 'CRAWL_BENCH_REPEAT', 3);
  for (const failing of ['once', 'always'] as const) {
    await withSite(RETRIES_PAGES, failing, async (origin, site, work) => {
      const how = failing === 'once' ? 'on their first request' : 'on every request';
      console.log('');
      console.log(
        `retries: ${RETRIES_PAGES.toLocaleString('en-US')} pages, 1% answer 500 ${how}, on ${origin}, concurrency ${RETRIES_CONCURRENCY}, median of ${repeat} runs each`,
      );
      // Crawls of a few seconds vary by a tenth from run to run: each crawler runs `repeat` times,
      // in turns, and its median run counts.
      const rounds: CrawlerRun[][] = [];
      for (let round = 0; round < repeat; round++) {
        // Issue 26's plain way: the same crawl as a run with one worker in this process, on a SQLite queue.
        const store = ['--store', join(work, `runs-${failing}.sqlite`), '--run', `${failing}-${round}`];
        rounds.push([
          await measure('sitemapkit', origin, RETRIES_CONCURRENCY, work, site),
          await measure('sitemapkit', origin, RETRIES_CONCURRENCY, work, site, ['--retries', '0']),
          await measure('sitemapkit', origin, RETRIES_CONCURRENCY, work, site, store),
          await measure('library', origin, RETRIES_CONCURRENCY, work, site),
          await measure('minimal', origin, RETRIES_CONCURRENCY, work, site),
        ]);
      }
      const [retrying, noRetries, onRun, library, minimal] = rounds[0]!.map((_, tool) =>
        medianRun(rounds.map((round) => round[tool]!)),
      ) as [CrawlerRun, CrawlerRun, CrawlerRun, CrawlerRun, CrawlerRun];
      noRetries.tool = 'sitemapkit --retries 0';
      onRun.tool = 'sitemapkit --run (SQLite)';
      console.log('');
      console.log('crawler                    requests   seconds   listed');
      for (const run of [retrying, noRetries, onRun, library, minimal])
        console.log(
          `${run.tool.padEnd(25)}  ${String(run.requests).padStart(8)}  ${(run.ms / 1000).toFixed(1).padStart(8)}  ${String(run.listed.length).padStart(7)}`,
        );
      console.log('');
      const ratio = retrying.ms / noRetries.ms;
      console.log(
        `default retries: ${ratio.toFixed(2)}× the time of --retries 0 (goal: at most 1.3×: ${ratio <= 1.3 ? 'met' : 'NOT met'})`,
      );
      const rate = minimal.ms / noRetries.ms;
      console.log(
        `--retries 0: its rate ${rate.toFixed(2)}× fetch + htmlparser2's (goal: at least 0.8×: ${rate >= 0.8 ? 'met' : 'NOT met'})`,
      );
      console.log(
        `--run on a shared SQLite store, one worker: ${(onRun.ms / retrying.ms).toFixed(2)}× the time of the crawl of one process`,
      );
      console.log(
        `crawlSite (library, default retries): ${(library.ms / retrying.ms).toFixed(2)}× the time of sitemapkit crawl`,
      );
    });
  }
}

async function againstPeer(): Promise<void> {
  const pages = readArg('pages', 'CRAWL_BENCH_PAGES', 20_000);
  const concurrency = readArg('concurrency', 'CRAWL_BENCH_CONCURRENCY', 4);
  await withSite(pages, 'none', async (origin, site, work) => {
    console.log(
      `crawl benchmark: ${pages.toLocaleString('en-US')} pages on ${origin}, concurrency ${concurrency}, node ${process.version}`,
    );
    const ours = await measure('sitemapkit', origin, concurrency, work, site);
    const peer = await measure('peer', origin, concurrency, work, site);

    console.log('');
    console.log('tool               requests   seconds   pages/s   CPU ms/page   peak RSS   listed');
    for (const run of [ours, peer]) {
      const seconds = run.ms / 1000;
      console.log(
        `${run.tool.padEnd(17)}  ${String(run.requests).padStart(8)}  ${seconds.toFixed(1).padStart(8)}  ${(run.requests! / seconds).toFixed(0).padStart(8)}  ${(run.cpuMs / run.requests!).toFixed(2).padStart(12)}  ${`${(run.maxRssKb / 1024).toFixed(0)} MB`.padStart(9)}  ${String(run.listed.length).padStart(7)}`,
      );
    }
    const rate = (run: CrawlerRun) => run.requests! / (run.ms / 1000);
    const cpuPerPage = (run: CrawlerRun) => run.cpuMs / run.requests!;
    console.log('');
    const speedup = rate(ours) / rate(peer);
    console.log(
      `pages/s:  sitemapkit is ${speedup.toFixed(2)}× sitemap-generator (goal: at least 3×: ${speedup >= 3 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `CPU per page: sitemapkit needs ${(cpuPerPage(ours) / cpuPerPage(peer)).toFixed(2)}× the CPU time of sitemap-generator`,
    );
    console.log(`wall time: sitemapkit took ${(ours.ms / peer.ms).toFixed(2)}× the time of sitemap-generator`);
    console.log(
      `peak RSS: sitemapkit uses ${(ours.maxRssKb / peer.maxRssKb).toFixed(2)}× the memory of sitemap-generator`,
    );

    const mine = normalisedSet(ours.listed);
    const theirs = normalisedSet(peer.listed);
    const onlyMine = [...mine].filter((url) => !theirs.has(url));
    const onlyTheirs = [...theirs].filter((url) => !mine.has(url));
    console.log('');
    console.log(`listed by both: ${[...mine].filter((url) => theirs.has(url)).length}`);
    console.log(
      `only sitemapkit: ${onlyMine.length}${onlyMine.length ? ` e.g. ${onlyMine.slice(0, 5).join(' ')}` : ''}`,
    );
    console.log(
      `only sitemap-generator: ${onlyTheirs.length}${onlyTheirs.length ? ` e.g. ${onlyTheirs.slice(0, 5).join(' ')}` : ''}`,
    );
    const canonicalised = onlyTheirs.filter(
      (url) => /\/p\/(\d+)$/.test(url) && Number(/\/p\/(\d+)$/.exec(url)![1]) % 150 === 149,
    );
    if (onlyTheirs.length > 0) {
      console.log(
        `  of which pages whose canonical is another URL (sitemapkit leaves them out, CR-04): ${canonicalised.length}`,
      );
    }
    writeFileSync(join(work, 'listed-diff.json'), JSON.stringify({ onlyMine, onlyTheirs }, null, 2));
  });
}

const [mode, ...args] = process.argv.slice(2);
if (mode === '--serve') {
  serveBenchSite(Number(args[0]), args[1] as Failing);
} else if (
  mode === '--run-sitemapkit' ||
  mode === '--run-library' ||
  mode === '--run-peer' ||
  mode === '--run-minimal'
) {
  const [origin, concurrency, work, ...extra] = args as [string, string, string, ...string[]];
  const runs = {
    '--run-sitemapkit': () => runSitemapkit(origin, Number(concurrency), work, extra),
    '--run-library': () => runLibrary(origin, Number(concurrency)),
    '--run-peer': () => runPeer(origin, Number(concurrency), work),
    '--run-minimal': () => runMinimal(origin, Number(concurrency)),
  };
  runs[mode]().then(
    // Exit only once the answer is through the pipe (the peer leaves sockets open behind it).
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
