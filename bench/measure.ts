/**
 * One measurement of the benchmarks: `node args…` in a child process of its own, under GNU time
 * (/usr/bin/time) when the machine has it, so that the peak RSS is the child's alone and the CPU
 * seconds say the work done on a shared machine, whatever the wait for a core.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GNU_TIME = '/usr/bin/time';

/** The repository's root, for a bench compiled into dist/bench as for one run from bench/. */
export const REPO_ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url));

/** The command as users run it: the bundle that `npm run build` writes (scripts/bundle-cli.mjs). */
export const CLI = join(REPO_ROOT, 'dist', 'cli', 'sitemapkit.js');

export interface ChildRun {
  /** Wall-clock seconds. */
  seconds: number;
  /** User and system CPU seconds (NaN without GNU time). */
  cpuSeconds: number;
  /** Peak RSS in MB (undefined without GNU time). */
  maxRssMb: number | undefined;
  /** The child's standard output when it was kept ('pipe'), else ''. */
  stdout: string;
  stderr: string;
}

export function haveGnuTime(): boolean {
  return existsSync(GNU_TIME);
}

/**
 * Runs `node args…` in `cwd`; its standard output is kept ('pipe'), written to a file, or dropped
 * (/dev/null, the default). A child that exits with an error fails the benchmark, its stderr shown.
 */
export async function timedNode(args: string[], options: { cwd: string; stdout?: string }): Promise<ChildRun> {
  const stdoutTo = options.stdout ?? '/dev/null';
  const scratch = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-'));
  const timeFile = join(scratch, 'time');
  const timing = haveGnuTime();
  try {
    const out = stdoutTo === 'pipe' ? 'pipe' : createWriteStream(stdoutTo);
    if (out !== 'pipe') await once(out, 'open');
    const started = process.hrtime.bigint();
    const child = timing
      ? spawn(GNU_TIME, ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...args], {
          cwd: options.cwd,
          stdio: ['ignore', out, 'pipe'],
        })
      : spawn(process.execPath, args, { cwd: options.cwd, stdio: ['ignore', out, 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number];
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (out !== 'pipe') out.close();
    if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}:\n${stderr}`);
    if (!timing) return { seconds, cpuSeconds: NaN, maxRssMb: undefined, stdout, stderr };
    // The last line: a child killed by a signal has GNU time say so on the line before.
    const [rssKb, user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(/\s+/).map(Number);
    return { seconds, cpuSeconds: user! + system!, maxRssMb: rssKb! / 1024, stdout, stderr };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
