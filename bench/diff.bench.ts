/**
 * `npm run bench:diff`: `sitemapkit diff` of two sets of 10,000,000 URLs, against the practical
 * limit measured in the same run: reading (parsing) both sets and nothing else.
 *
 * The sets are generated once into bench/.data/diff/<urls>/{old,new}/: a sitemap.xml index and
 * shards of 50,000 URLs each (plain XML, as generate writes them; about 1 GB a set). NEW is OLD
 * with 1% of its URLs removed, 1% changed (a new lastmod) and 1% added. Each measurement runs
 * in a child process of its own under /usr/bin/time, so that its peak RSS is its own:
 *  - parse both: the two sets read through the reader diff uses (diff/sitemap-set.ts), each
 *    entry counted and dropped;
 *  - diff: the CLI, `sitemapkit diff old new --json`, its rows written to a file.
 * Prints the seconds, the peak RSS, diff's time as a multiple of the parse, and checks the counts.
 * The goal (issue 17): under 300 MB peak RSS, in at most 3× the time of parsing both.
 *
 * Smaller runs: DIFF_BENCH_URLS=1000000, or `--small` (1,000,000 URLs).
 */
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { haveGnuTime, timedNode, type ChildRun, CLI, REPO_ROOT as ROOT } from './measure.js';

const DATA = join(ROOT, 'bench', '.data', 'diff');
const SITEMAP_SET = join(ROOT, 'dist', 'src', 'discover', 'sitemap-set.js');

const PER_SHARD = 50_000;
const RSS_LIMIT_MB = 300;
const TIME_LIMIT_RATIO = 3;

// ---------------------------------------------------------------- data (generated once)

interface Sets {
  old: string;
  new: string;
  expected: { added: number; removed: number; changed: number; unchanged: number };
}

/** What NEW does with URL i of OLD: every 100th is removed, every 100th (offset 50) gets a new lastmod. */
const removed = (i: number) => i % 100 === 0;
const changed = (i: number) => i % 100 === 50;

function urlEntry(n: number, lastmod: string): string {
  return `<url><loc>https://www.example.com/catalogue/section-${n % 977}/item-${n}.html</loc><lastmod>${lastmod}</lastmod><changefreq>weekly</changefreq></url>\n`;
}

const lastmodOf = (n: number) => `2024-05-${String(1 + (n % 28)).padStart(2, '0')}`;

async function ensureSets(urls: number): Promise<Sets> {
  const root = join(DATA, String(urls));
  const added = Math.floor(urls / 100);
  const removedCount = Math.ceil(urls / 100);
  const changedCount = Math.floor((urls + 49) / 100);
  const expected = {
    added,
    removed: removedCount,
    changed: changedCount,
    unchanged: urls - removedCount - changedCount,
  };
  const sets = { old: join(root, 'old'), new: join(root, 'new'), expected };
  if (existsSync(join(root, 'complete'))) return sets;
  rmSync(root, { recursive: true, force: true });
  process.stderr.write(`generating two sets of ${urls.toLocaleString('en-US')} URLs into ${root} (once) …\n`);
  await writeSet(sets.old, urls, function* () {
    for (let i = 0; i < urls; i++) yield urlEntry(i, lastmodOf(i));
  });
  await writeSet(sets.new, urls, function* () {
    for (let i = 0; i < urls; i++) {
      if (removed(i)) continue;
      yield urlEntry(i, changed(i) ? '2024-06-30' : lastmodOf(i));
    }
    for (let i = 0; i < added; i++) yield urlEntry(urls + i, '2024-06-30');
  });
  await writeText(join(root, 'complete'), '');
  return sets;
}

/** Shards of PER_SHARD entries and their index, sitemap.xml, as generate lays them out. */
async function writeSet(dir: string, urls: number, entries: () => Generator<string>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  let out: ReturnType<typeof createWriteStream> | undefined;
  let inShard = 0;
  let batch = '';
  const flush = async () => {
    if (batch !== '' && !out!.write(batch)) await once(out!, 'drain');
    batch = '';
  };
  const close = async () => {
    batch += '</urlset>\n';
    await flush();
    out!.end();
    await once(out!, 'close');
  };
  for (const entry of entries()) {
    if (out === undefined || inShard === PER_SHARD) {
      if (out) await close();
      const name = `sitemap-${names.length}.xml`;
      names.push(name);
      out = createWriteStream(join(dir, name));
      batch = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
      inShard = 0;
    }
    batch += entry;
    inShard++;
    if (batch.length > 256 * 1024) await flush();
  }
  await close();
  const index = names.map((name) => `<sitemap><loc>https://www.example.com/${name}</loc></sitemap>`).join('\n');
  await writeText(
    join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${index}\n</sitemapindex>\n`,
  );
  process.stderr.write(`  ${dir}: ${names.length} shards (${urls.toLocaleString('en-US')} URLs in OLD)\n`);
}

async function writeText(path: string, text: string): Promise<void> {
  const out = createWriteStream(`${path}.tmp`);
  out.end(text);
  await once(out, 'close');
  renameSync(`${path}.tmp`, path);
}

// ---------------------------------------------------------------- measuring

/** A measurement; the peak RSS is known, GNU time being required here (main). */
type Measured = ChildRun & { maxRssMb: number };

async function timed(args: string[], stdout: string): Promise<Measured> {
  const run = await timedNode(args, { cwd: ROOT, stdout });
  return { ...run, maxRssMb: run.maxRssMb! };
}

/** Both sets read as diff reads them, every entry counted and dropped. */
async function parseBoth(sets: Sets): Promise<Measured & { urls: number }> {
  const script = `import { SitemapSet } from ${JSON.stringify(SITEMAP_SET)};
let urls = 0;
for (const source of ${JSON.stringify([sets.old, sets.new])}) {
  const set = new SitemapSet(source);
  for await (const _entry of set) urls++;
  if (!set.complete) throw new Error(source + ' was not read whole');
}
process.stdout.write(String(urls));`;
  const measured = await timed(['--input-type=module', '-e', script], 'pipe');
  return { ...measured, urls: Number(measured.stdout) };
}

async function diff(sets: Sets): Promise<Measured & { summary: Record<string, number>; rows: number }> {
  const scratch = mkdtempSync(join(tmpdir(), 'diff-bench-rows-'));
  const rowsFile = join(scratch, 'rows.jsonl');
  try {
    const measured = await timed([CLI, 'diff', sets.old, sets.new, '--json', '--quiet'], rowsFile);
    const lines = readFileSync(rowsFile, 'utf8').trimEnd().split('\n');
    const { summary } = JSON.parse(lines.pop()!) as { summary: Record<string, number> };
    return { ...measured, summary, rows: lines.length };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- report

function urlCount(): number {
  if (process.env.DIFF_BENCH_URLS) return Number(process.env.DIFF_BENCH_URLS);
  return process.argv.includes('--small') ? 1_000_000 : 10_000_000;
}

async function main(): Promise<void> {
  if (!haveGnuTime()) throw new Error('this benchmark needs /usr/bin/time (GNU time) for peak RSS');
  const urls = urlCount();
  const sets = await ensureSets(urls);
  process.stderr.write('parsing both sets …\n');
  const parsed = await parseBoth(sets);
  process.stderr.write('diffing …\n');
  const diffed = await diff(sets);

  const { expected } = sets;
  const got = diffed.summary;
  for (const key of ['added', 'removed', 'changed', 'unchanged'] as const) {
    if (got[key] !== expected[key]) throw new Error(`diff found ${got[key]} ${key}, not ${expected[key]}`);
  }
  if (diffed.rows !== expected.added + expected.removed + expected.changed)
    throw new Error(`diff printed ${diffed.rows} rows`);

  const ratio = diffed.seconds / parsed.seconds;
  const cpuRatio = diffed.cpuSeconds / parsed.cpuSeconds;
  const n = (x: number) => x.toLocaleString('en-US');
  const line = (name: string, m: Measured) =>
    `${name.padEnd(34)} ${m.seconds.toFixed(1).padStart(7)} s  (CPU ${m.cpuSeconds.toFixed(1).padStart(6)} s)   peak RSS ${m.maxRssMb.toFixed(0).padStart(5)} MB`;
  process.stdout.write(
    [
      `diff of two sets of ${n(urls)} URLs (NEW: ${n(expected.added)} added, ${n(expected.removed)} removed, ${n(expected.changed)} changed)`,
      line(`parse both (${n(parsed.urls)} entries)`, parsed),
      line(`sitemapkit diff (${n(diffed.rows)} rows)`, diffed),
      `diff / parse both: ${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU (goal ≤ ${TIME_LIMIT_RATIO}×) ${ratio <= TIME_LIMIT_RATIO ? 'ok' : 'OVER'}`,
      `diff peak RSS: ${diffed.maxRssMb.toFixed(0)} MB (goal < ${RSS_LIMIT_MB} MB) ${diffed.maxRssMb < RSS_LIMIT_MB ? 'ok' : 'OVER'}`,
      '',
    ].join('\n'),
  );
}

await main();
