/**
 * Ctrl-C (SIGINT) and a service manager's stop (SIGTERM, what `timeout`, systemd and CI send) mean
 * the same to every long command: stop the work cleanly and keep what is consistent. One handler
 * for both, so no command forgets one of them.
 */

export interface Interruption {
  /** Aborted with the reason `interrupted by SIGINT` (or SIGTERM) when a signal comes. */
  readonly signal: AbortSignal;
  /** Stops listening; call it once the work is over (in a `finally`). */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM until disposed; `onSignal` runs once, after the abort (e.g. to end a read of stdin). */
export function listenForInterruption(onSignal?: (name: NodeJS.Signals) => void): Interruption {
  const controller = new AbortController();
  const handle = (name: NodeJS.Signals): void => {
    dispose();
    controller.abort(`interrupted by ${name}`);
    onSignal?.(name);
  };
  const dispose = (): void => {
    process.off('SIGINT', handle);
    process.off('SIGTERM', handle);
  };
  process.once('SIGINT', handle);
  process.once('SIGTERM', handle);
  return { signal: controller.signal, dispose };
}
