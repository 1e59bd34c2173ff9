/**
 * `--workers N`: N worker processes of a run on this machine, each the sitemapkit command itself
 * started again with the run's flags (and `--worker`, so that it only works). Their stdout comes
 * out here whole line by whole line (never a line of one cut by a line of another), their stderr
 * too; stopping this process (Ctrl-C, SIGTERM) stops them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface LocalWorkersOptions {
  count: number;
  /** The command line of one worker, after the binary: `tree --sites FILE --run NAME … --worker`. */
  args: readonly string[];
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  signal?: AbortSignal | undefined;
  /** The sitemapkit binary (default: the one running). */
  cli?: string | undefined;
  /** Environment variables set for the workers (the store's URL, kept out of the process list). */
  env?: Record<string, string> | undefined;
}

/** Starts the workers and resolves, once all have ended, to their exit codes (null: killed by a signal). */
export async function runLocalWorkers(options: LocalWorkersOptions): Promise<(number | null)[]> {
  const cli = options.cli ?? process.argv[1]!;
  const children = Array.from({ length: options.count }, () =>
    spawn(process.execPath, [cli, ...options.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    }),
  );
  const stop = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    return await Promise.all(children.map((child) => forward(child, options)));
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
}

async function forward(child: ChildProcess, { stdout, stderr }: LocalWorkersOptions): Promise<number | null> {
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await Promise.all([copyLines(child.stdout!, stdout), copyLines(child.stderr!, stderr)]);
  const [code] = await exited;
  return code;
}

/** Copies whole lines, waiting while `to` is full. */
async function copyLines(from: NodeJS.ReadableStream, to: NodeJS.WritableStream): Promise<void> {
  for await (const line of createInterface({ input: from, crlfDelay: Infinity })) {
    if (!to.write(`${line}\n`)) await once(to, 'drain');
  }
}
