/**
 * `npm run bench:memory`: peak RSS of the real CLI on the trees of issue 25 §2, against its
 * budget (400 MB) and against a peer measured in the same run: the same walk over a tree of the
 * same size without a single error (what the errors themselves cost).
 *
 *  - tree and audit (sample of 10 URLs) over an index of 2,500 urlsets of 400 URLs, each URL
 *    breaking three rules (3,000,000 problems), and over the same tree without errors;
 *  - tree over 20 nested indexes of 50,000 children each (1,000,000 sitemaps, each fetched).
 *
 * The server (127.0.0.1, test/helpers/generated-sitemaps.ts) generates each document when asked
 * and runs in this process; each CLI run is a child of its own under /usr/bin/time. Smaller runs:
 * MEMORY_BENCH_SITEMAPS (default 2500), MEMORY_BENCH_CHILDREN (default 50000).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGeneratedSitemaps } from '../test/helpers/generated-sitemaps.js';
import { haveGnuTime } from './measure.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL(SELF.includes('/dist/') ? '../../' : '../', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const BUDGET_MB = 400;

const sitemaps = Number(process.env.MEMORY_BENCH_SITEMAPS ?? 2500);
const children = Number(process.env.MEMORY_BENCH_CHILDREN ?? 50_000);

if (!haveGnuTime()) throw new Error('bench:memory needs GNU time (/usr/bin/time) to read each run’s peak RSS');
const site = await startGeneratedSitemaps();
try {
  const rows: { label: string; mb: number; peer?: number }[] = [];
  for (const command of ['tree', 'audit'] as const) {
    const extra = command === 'audit' ? ['--max-urls', '10', '--timeout', '5'] : ['--json'];
    rows.push({
      label: `${command}, ${sitemaps} × 400 URLs × 3 errors`,
      mb: await peakRss(command, `/errors/${sitemaps}-400.xml`, extra),
      peer: await peakRss(command, `/clean/${sitemaps}-400.xml`, extra),
    });
  }
  rows.push({
    label: `tree --json, 20 nested × ${children}`,
    mb: await peakRss('tree', `/nested/20-${children}.xml`, ['--json']),
  });

  console.log(`peak RSS against the budget (${BUDGET_MB} MB) and the same walk without errors`);
  for (const { label, mb, peer } of rows) {
    const verdict = mb < BUDGET_MB ? 'within' : 'OVER';
    const ratio = peer ? `  ${(mb / peer).toFixed(2)}× the clean tree (${Math.round(peer)} MB)` : '';
    console.log(`  ${label.padEnd(40)} ${String(Math.round(mb)).padStart(6)} MB  ${verdict}${ratio}`);
  }
} finally {
  await site.close();
}

/** The peak RSS (MB) of one CLI run, read by GNU time; exit code 1 (problems found) is expected. */
async function peakRss(command: string, path: string, extra: string[]): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-'));
  try {
    const timeFile = join(scratch, 'time');
    const child = spawn(
      '/usr/bin/time',
      ['-f', '%M', '-o', timeFile, process.execPath, CLI, command, site.url(path), ...extra, '-q'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0 && code !== 1) throw new Error(`${command} ${path} exited with ${code}`);
    return Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) / 1024;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
