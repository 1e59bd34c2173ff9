/**
 * Politeness per host: at most `concurrency` requests to one host at a time, and, when asked, at
 * least `delayMs` between the starts of two requests to it. Hosts never wait for each other.
 */
import { setTimeout as sleep } from 'node:timers/promises';

interface HostState {
  active: number;
  waiting: (() => void)[];
  /** When the next request to this host may start (epoch ms). */
  nextStart: number;
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly concurrency: number,
    private readonly delayMs = 0,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError('per-host concurrency must be at least 1');
  }

  /** Waits for a slot on `host`; call the returned function exactly once to give it back. */
  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    const state = this.stateOf(host);
    if (state.active >= this.concurrency) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          state.waiting.splice(state.waiting.indexOf(wake), 1);
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- an abort rejects with the signal's reason, as throwIfAborted() does
          reject(signal!.reason);
        };
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        state.waiting.push(wake);
      });
    } else {
      state.active += 1;
    }
    // The slot is ours from here (a woken waiter inherits the releaser's count).
    if (this.delayMs > 0) {
      const wait = state.nextStart - Date.now();
      state.nextStart = Math.max(state.nextStart, Date.now()) + this.delayMs;
      if (wait > 0) {
        try {
          await sleep(wait, undefined, { signal });
        } catch (error) {
          this.release(host, state);
          throw error;
        }
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(host, state);
    };
  }

  private release(host: string, state: HostState): void {
    const next = state.waiting.shift();
    if (next) return next();
    state.active -= 1;
    // Forget idle hosts, unless their delay clock still matters.
    if (state.active === 0 && this.delayMs === 0) this.hosts.delete(host);
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, waiting: [], nextStart: 0 };
      this.hosts.set(host, state);
    }
    return state;
  }
}
