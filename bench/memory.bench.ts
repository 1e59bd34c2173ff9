/**
 * `npm run bench:memory`: peak RSS of the real CLI on the trees of issue 25 §2, against its
 * budget (400 MB) and against a peer measured in the same run: the same walk over a tree of the
 * same size without a single error (what the errors themselves cost).
 *
 *  - tree and audit (sample of 10 URLs) over an index of 2,500 urlsets of 400 URLs, each URL
 *    breaking three rules (3,000,000 problems), and over the same tree without errors;
 *  - tree --json and audit (sample of 10 URLs) over 20 nested indexes of 50,000 children each
 *    (1,000,000 sitemaps, each fetched), at each size of MEMORY_BENCH_CHILDREN (a list:
 *    "10000,20000"), with the growth per sitemap between two sizes (flat: the records are in the
 *    walk's scratch file, and a request keeps nothing once it is over) and, up to
 *    PEER_CHILDREN, against its peer: the same walk with every record held in memory
 *    (SITEMAPKIT_TREE_SPILL_AFTER=Infinity, as before issue 25). When the largest size is below
 *    50,000 the full size is extrapolated from the last two, and says so.
 *
 * The server (127.0.0.1, test/helpers/generated-sitemaps.ts) generates each document when asked
 * and runs in this process; each CLI run is a child of its own under /usr/bin/time. Smaller runs:
 * MEMORY_BENCH_SITEMAPS (default 2500), MEMORY_BENCH_CHILDREN (default 50000);
 * MEMORY_BENCH_ONLY=errors or nested runs one half; MEMORY_BENCH_NESTED=tree (or audit) runs one
 * command on the nested trees. Fetching a million sitemaps from 127.0.0.1
 * takes a while: on a busy two-core machine 20 × 10,000 took about two minutes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGeneratedSitemaps } from '../test/helpers/generated-sitemaps.js';
import { haveGnuTime, CLI } from './measure.js';

const BUDGET_MB = 400;

const sitemaps = Number(process.env.MEMORY_BENCH_SITEMAPS ?? 2500);
const childSizes = (process.env.MEMORY_BENCH_CHILDREN ?? '50000').split(',').map(Number);
const only = process.env.MEMORY_BENCH_ONLY;
const nestedCommands = (process.env.MEMORY_BENCH_NESTED ?? 'tree,audit').split(',');
/** The in-memory peer runs up to this size (past it, it takes gigabytes: the reason for the spill). */
const PEER_CHILDREN = 10_000;
const FULL_CHILDREN = 50_000;

if (!haveGnuTime()) throw new Error('bench:memory needs GNU time (/usr/bin/time) to read each run’s peak RSS');
const site = await startGeneratedSitemaps();
try {
  const rows: { label: string; mb: number; peer?: number; peerIs?: string }[] = [];
  if (only !== 'nested') {
    for (const command of ['tree', 'audit'] as const) {
      const extra = command === 'audit' ? ['--max-urls', '10', '--timeout', '5'] : ['--json'];
      rows.push({
        label: `${command}, ${sitemaps} × 400 URLs × 3 errors`,
        mb: await peakRss(command, `/errors/${sitemaps}-400.xml`, extra),
        peer: await peakRss(command, `/clean/${sitemaps}-400.xml`, extra),
        peerIs: 'the clean tree',
      });
    }
  }
  const nested = new Map<string, { children: number; mb: number }[]>();
  if (only !== 'errors') {
    for (const command of nestedCommands) {
      const extra = command === 'audit' ? ['--max-urls', '10', '--timeout', '5'] : ['--json'];
      const label = command === 'audit' ? 'audit' : 'tree --json';
      const sizes: { children: number; mb: number }[] = [];
      nested.set(label, sizes);
      for (const children of childSizes) {
        const mb = await peakRss(command, `/nested/20-${children}.xml`, extra);
        sizes.push({ children, mb });
        const peer =
          children <= PEER_CHILDREN
            ? await peakRss(command, `/nested/20-${children}.xml`, extra, { SITEMAPKIT_TREE_SPILL_AFTER: 'Infinity' })
            : undefined;
        rows.push({
          label: `${label}, 20 nested × ${children}`,
          mb,
          ...(peer === undefined ? {} : { peer, peerIs: 'the tree in memory' }),
        });
      }
    }
  }

  console.log(`peak RSS against the budget (${BUDGET_MB} MB) and a peer measured in the same run`);
  for (const { label, mb, peer, peerIs } of rows) {
    const verdict = mb < BUDGET_MB ? 'within' : 'OVER';
    const ratio = peer ? `  ${(mb / peer).toFixed(2)}× ${peerIs} (${Math.round(peer)} MB)` : '';
    console.log(`  ${label.padEnd(40)} ${String(Math.round(mb)).padStart(6)} MB  ${verdict}${ratio}`);
  }
  for (const [label, sizes] of nested) {
    const [small, large] = sizes.slice(-2);
    if (!small || !large || large.children <= small.children) continue;
    const perSitemap = ((large.mb - small.mb) * 1e6) / ((large.children - small.children) * 20);
    console.log(
      `  ${label}: growth between 20 × ${small.children} and 20 × ${large.children}: ${perSitemap.toFixed(0)} bytes a sitemap`,
    );
    if (large.children < FULL_CHILDREN) {
      const full = large.mb + (Math.max(0, perSitemap) * (FULL_CHILDREN - large.children) * 20) / 1e6;
      console.log(
        `  ${label}: 20 × ${FULL_CHILDREN} extrapolated from those two: ${Math.round(full)} MB  ${full < BUDGET_MB ? 'within' : 'OVER'} (not measured)`,
      );
    }
  }
} finally {
  await site.close();
}

/** The peak RSS (MB) of one CLI run, read by GNU time; exit code 1 (problems found) is expected. */
async function peakRss(command: string, path: string, extra: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-'));
  try {
    const timeFile = join(scratch, 'time');
    const child = spawn(
      '/usr/bin/time',
      ['-f', '%M', '-o', timeFile, process.execPath, CLI, command, site.url(path), ...extra, '-q'],
      { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } },
    );
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0 && code !== 1) throw new Error(`${command} ${path} exited with ${code}`);
    return Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) / 1024;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
