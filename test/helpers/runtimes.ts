/**
 * The other JavaScript runtimes the tests run sitemapkit on — Deno, Bun and workerd (Cloudflare
 * Workers' runtime) — each from its npm package (devDependencies), so `npm ci` brings them. Scripts
 * run as the runtime's own command line would run them; servers are started on 127.0.0.1 and
 * stopped by the caller (every process is also killed after a time limit, so none outlives its test).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { REPO_DIR } from './paths.js';

export { REPO_DIR };

const BIN_DIR = join(REPO_DIR, 'node_modules', '.bin');

export type Runtime = 'deno' | 'bun' | 'workerd';
export const runtimeBin = (runtime: Runtime): string => join(BIN_DIR, runtime);

/** How each runtime runs a script (Deno: TypeScript's `.js` imports of `.ts` files allowed; Node: JavaScript only). */
function scriptCommand(runtime: 'node' | 'deno' | 'bun', script: string, denoPermissions: string[]): string[] {
  if (runtime === 'node') return [process.execPath, script];
  if (runtime === 'deno')
    return [runtimeBin('deno'), 'run', '--sloppy-imports', '--no-prompt', ...denoPermissions, script];
  return [runtimeBin('bun'), script];
}

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script of the repository to its end (killed after `timeoutMs`). */
export function runScript(
  runtime: 'node' | 'deno' | 'bun',
  script: string,
  options: { args?: string[]; env?: Record<string, string>; denoPermissions?: string[]; timeoutMs?: number } = {},
): Promise<ScriptResult> {
  const [command, ...args] = scriptCommand(runtime, join(REPO_DIR, script), options.denoPermissions ?? []);
  const child = spawn(command!, [...args, ...(options.args ?? [])], {
    cwd: REPO_DIR,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child, options.timeoutMs ?? 120_000);
}

function collect(child: ChildProcess, timeoutMs: number): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The version a runtime reports, for the test names and the report. */
export async function runtimeVersion(runtime: Runtime): Promise<string> {
  const child = spawn(runtimeBin(runtime), ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { stdout } = await collect(child, 30_000);
  return stdout.split('\n')[0]!.trim();
}

export interface RunningServer {
  origin: string;
  /** What the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts a server script with PORT=0 and waits for the line it prints with its address
 * (`Listening on http://127.0.0.1:PORT/`, as Deno.serve prints it and the examples print it).
 */
export async function startScriptServer(
  runtime: 'node' | 'deno' | 'bun',
  script: string,
  options: { denoPermissions?: string[]; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const [command, ...args] = scriptCommand(runtime, join(REPO_DIR, script), options.denoPermissions ?? []);
  const child = spawn(command!, args, {
    cwd: REPO_DIR,
    env: { ...process.env, NO_COLOR: '1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchServer(child, options.timeoutMs ?? 60_000, (output) =>
    /Listening on (http:\/\/[^\s/]+)/.exec(output)?.[1]?.replace('localhost', '127.0.0.1'),
  );
}

function watchServer(
  child: ChildProcess,
  timeoutMs: number,
  originIn: (output: string) => string | undefined,
  known?: string,
): Promise<RunningServer> {
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
  const close = async (): Promise<void> => {
    clearTimeout(killer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const startTimer = setTimeout(() => {
      void close();
      reject(new Error(`the server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const found = (origin: string) => {
      clearTimeout(startTimer);
      resolve({ origin, output: () => output, close });
    };
    const read = (text: string) => {
      output += text;
      const origin = known === undefined ? originIn(output) : undefined;
      if (origin !== undefined) found(origin);
    };
    child.stdout!.setEncoding('utf8').on('data', read);
    child.stderr!.setEncoding('utf8').on('data', read);
    child.on('error', reject);
    void exited.then(() => {
      clearTimeout(startTimer);
      reject(new Error(`the server exited before it listened:\n${output}`));
    });
    if (known !== undefined) found(known);
  });
}

/**
 * Bundles a module for Workers as wrangler would: one ES module for the neutral platform, with
 * the `workerd`, `worker` and `browser` export conditions. Any Node built-in in its graph fails
 * the build (the neutral platform has none).
 */
export async function bundleForWorkers(entry: string, outFile: string): Promise<void> {
  await build({
    entryPoints: [join(REPO_DIR, entry)],
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'silent',
  });
}

/** The date whose behaviour workerd gives the Worker. */
const COMPATIBILITY_DATE = '2025-09-01';

/**
 * Runs a bundled Worker in workerd on 127.0.0.1, its configuration written into `dir` (where the
 * bundle must be too: capnp embeds files by relative path). A listening socket is made here and handed to
 * workerd as a file descriptor, so there is no port to guess and no wait for it to bind (requests
 * queue until it accepts). The Worker may fetch from 127.0.0.1 (the test servers).
 */
export async function startWorkerd(bundle: string, dir: string): Promise<RunningServer> {
  const config = join(dir, 'workerd.capnp');
  const embedded = relative(dir, bundle);
  await writeFile(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(embedded)}) ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  globalOutbound = "internet",
);
`,
  );
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  // Unix only: the listening socket's descriptor, inherited by workerd as its fd 3.
  const fd = (listener as unknown as { _handle: { fd: number } })._handle.fd;
  const child = spawn(runtimeBin('workerd'), ['serve', config, '--socket-fd', 'http=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', fd],
  });
  listener.close();
  return watchServer(child, 60_000, () => undefined, `http://127.0.0.1:${port}`);
}
