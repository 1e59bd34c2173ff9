/** Runs the built `sitemapkit` binary as a user would, and captures what it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_DIR } from './paths.js';

/** The command as package.json's bin names it: the bundle that `npm run build` writes (scripts/bundle-cli.mjs). */
export const CLI_PATH = join(REPO_DIR, 'dist/cli/sitemapkit.js');
const RUN_USAGE = join(REPO_DIR, 'test/helpers/run-usage.mjs');

/** What a run used, measured by the process itself (test/helpers/run-usage.mjs). */
export interface RunUsage {
  /** Peak resident memory, in bytes. */
  peakMemory: number;
  /** CPU time, user and system, in seconds: the work done, which a busy machine does not stretch. */
  cpuSeconds: number;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the run used, when asked for (`measureUsage`) and the run exited by itself. */
  usage?: RunUsage;
}

export function runCli(
  args: string[],
  options: {
    input?: string | Buffer;
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    /** Called with the running process, e.g. to send it a signal. */
    onSpawn?: (child: ChildProcess) => void;
    /** Measure what the run uses (CliResult.usage). */
    measureUsage?: boolean;
    /** Options for Node itself, before the command's path (e.g. a V8 trace flag). */
    nodeArgs?: string[];
  } = {},
): Promise<CliResult> {
  const usageDir = options.measureUsage ? mkdtempSync(join(tmpdir(), 'sitemapkit-usage-')) : undefined;
  const usageFile = usageDir && join(usageDir, 'usage.json');
  return new Promise((resolve, reject) => {
    const nodeArgs = [...(options.nodeArgs ?? []), ...(usageFile ? ['--import', RUN_USAGE] : [])];
    const child = spawn(process.execPath, [...nodeArgs, CLI_PATH, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, ...(usageFile ? { SITEMAPKIT_TEST_USAGE: usageFile } : {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const result: CliResult = {
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      };
      if (usageDir) {
        // No file when the run was killed before it could write one.
        if (existsSync(usageFile!)) result.usage = JSON.parse(readFileSync(usageFile!, 'utf8')) as RunUsage;
        rmSync(usageDir, { recursive: true, force: true });
      }
      resolve(result);
    });
    child.stdin.end(options.input ?? '');
    options.onSpawn?.(child);
  });
}

/**
 * Starts `sitemapkit ARGS` so that it stops for good at `step` of its publication (the test-only
 * SITEMAPKIT_TEST_PAUSE_AT hook), and resolves once it is there: to be killed at that moment.
 */
export async function startPausedAt(step: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: { ...process.env, SITEMAPKIT_TEST_PAUSE_AT: step },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(`paused at ${step}\n`)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the run ended (${code}) before ${step}: ${stderr}`)));
  });
  return child;
}

/** Kills `child` outright (SIGKILL, as kill -9) and waits until it is gone. */
export async function kill9(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
