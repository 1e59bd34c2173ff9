/**
 * Retries, bounded three ways so that no server can hold a document for ever:
 * - a total deadline per document: every attempt, every wait and the body count against it;
 * - a cap on the total wait between attempts (backoff and Retry-After alike);
 * - what is not worth retrying is not: permanent failures (a name that does not resolve, a TLS
 *   mismatch, a redirect loop…) never, a timeout once, a 429 or 5xx up to `retries` times.
 *
 * The wait before a retry is the exponential backoff, or a tenth of it for a URL of a host that
 * answers nearly everything else (./host-health.ts: the page is broken, the host is not busy).
 * The waits are slept through here, or, for a task of a work pool, handed back to the pool as
 * RetryLater so that the worker does other work meanwhile: the RetryState that counts attempts
 * and waits then lives with the task, across the pool's restarts of it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RetryLater } from '../pool/index.js';
import { HttpError } from './errors.js';
import { HostHealth } from './host-health.js';
import type { HttpResponse, Layer } from './types.js';

export interface RetryPolicy {
  /** First backoff; doubled on each retry, with jitter. */
  backoffMs: number;
  maxBackoffMs: number;
  /** The longest total wait between the attempts of one document, Retry-After included. */
  maxWaitMs: number;
  /** The longest one document may take, every attempt, wait and its body included. */
  deadlineMs: number;
  /** Jitter source, replaceable for reproducible tests. */
  random: () => number;
  /** Told before each wait: which URL, how long and why (the CLI says it on stderr). */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
}

/** Told before each wait between two attempts: which URL, which attempt, how long and why. */
export interface RetryNotice {
  url: string;
  /** The attempt about to be made (2 for the first retry), and how many may be made at most. */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** What went wrong: "HTTP 503", "could not connect to … (ECONNREFUSED)"… */
  reason: string;
}

/** The attempts of one document so far. Pass the same one again when a work pool restarts its task. */
export class RetryState {
  attempts = 0;
  timeoutsRetried = 0;
  waitedMs = 0;
  /** When the first attempt started: the deadline counts from here (epoch ms). */
  startedAt: number | undefined;
  /** Time earlier passes over the document took: it counts against the deadline too. */
  spentMs = 0;
  /** Whether the document was tried before, in an earlier pass: its attempts say nothing new of its host. */
  triedBefore = false;

  /**
   * The state of one more pass over the document, later on (`spentMs`: how long this pass took):
   * attempts anew, but within what is left of its deadline and of its waits, so that no number of
   * passes makes a document cost more than one --timeout, or wait more than one --max-wait.
   */
  laterPass(spentMs: number): RetryState {
    const next = new RetryState();
    next.timeoutsRetried = this.timeoutsRetried;
    next.waitedMs = this.waitedMs;
    next.spentMs = this.spentMs + spentMs;
    next.triedBefore = true;
    return next;
  }
}

type Plan = { retryAfterMs: number; reason: string } | { stop: string };

/** The share of the backoff that a URL of a healthy host waits (./host-health.ts): 100 ms of the default 1 s. */
const HEALTHY_HOST_BACKOFF = 0.1;

export function retry(policy: RetryPolicy): Layer {
  const health = new HostHealth();
  return (next) => async (request) => {
    const state = request.retryState;
    state.startedAt ??= Date.now();
    const deadlineAt = state.startedAt + policy.deadlineMs - state.spentMs;
    // Made when needed: an Error captures a stack, a cost every request would pay for nothing.
    const tooLate = () =>
      new HttpError(
        'deadline',
        `${request.url} did not finish within ${seconds(policy.deadlineMs)} (--timeout), retries included`,
        request.url,
      );
    for (;;) {
      const remaining = deadlineAt - Date.now();
      if (remaining <= 0) throw tooLate().after(state.attempts);
      state.attempts += 1;
      let response: HttpResponse | undefined;
      let failure: HttpError | undefined;
      try {
        // The transport keeps the deadline, with the timer it already has for the first byte.
        response = await next({ ...request, deadline: { at: deadlineAt, error: tooLate } });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        failure = error;
      }
      // A document's first attempt alone tells of its host: the retries of a few broken pages,
      // all that is left at the end of a crawl, would make a healthy host look failing.
      if (state.attempts === 1 && !state.triedBefore)
        health.record(request.url, failure === undefined ? isRetryableStatus(response!.status) : !failure.permanent);
      const plan = planNext(
        response,
        failure,
        state,
        request.retries,
        policy,
        deadlineAt,
        // Asked only for a wait to plan: the host's origin is read from the URL.
        () => health.isHealthy(request.url),
      );
      if ('stop' in plan) {
        if (failure) throw failure.after(state.attempts, failure.redirects, plan.stop ? `; ${plan.stop}` : '');
        return settled(response!, state.attempts, plan.stop);
      }
      response?.discard();
      if (failure?.timeout) state.timeoutsRetried += 1;
      state.waitedMs += plan.retryAfterMs;
      policy.onRetry?.({
        url: request.url,
        attempt: state.attempts + 1,
        maxAttempts: request.retries + 1,
        delayMs: plan.retryAfterMs,
        reason: plan.reason,
      });
      if (request.deferRetries) throw new RetryLater(plan.retryAfterMs, `${request.url}: ${plan.reason}`);
      await sleep(plan.retryAfterMs, undefined, { signal: request.signal }).catch(() => {
        throw new HttpError('aborted', `the request to ${request.url} was stopped`, request.url);
      });
    }
  };
}

/** Whether to try again, after how long; or why not, when there is something to say. */
function planNext(
  response: HttpResponse | undefined,
  failure: HttpError | undefined,
  state: RetryState,
  retries: number,
  policy: RetryPolicy,
  deadlineAt: number,
  healthyHost: () => boolean,
): Plan {
  let reason: string;
  let asked: number | undefined;
  if (failure) {
    if (failure.permanent) return { stop: '' };
    if (failure.timeout && state.timeoutsRetried >= 1) return { stop: 'a timeout is retried once' };
    reason = failure.message;
  } else {
    if (!isRetryableStatus(response!.status)) return { stop: '' };
    asked = parseRetryAfter(response!.headers['retry-after']);
    reason = `HTTP ${response!.status}${asked === undefined ? '' : ` (Retry-After: ${seconds(asked)})`}`;
  }
  if (state.attempts > retries) return { stop: '' };
  const wait = asked ?? Math.round(backoff(state.attempts, policy) * (healthyHost() ? HEALTHY_HOST_BACKOFF : 1));
  if (state.waitedMs + wait > policy.maxWaitMs) {
    const left = Math.max(0, policy.maxWaitMs - state.waitedMs);
    return {
      stop:
        asked === undefined
          ? `not retried: waiting longer than ${seconds(policy.maxWaitMs)} in all is not allowed (--max-wait)`
          : `not retried: the server asked to wait ${seconds(asked)}, more than the ${seconds(left)} of waiting left (--max-wait)`,
    };
  }
  if (Date.now() + wait >= deadlineAt)
    return { stop: `not retried: no time left within ${seconds(policy.deadlineMs)} (--timeout)` };
  return { retryAfterMs: wait, reason };
}

/** The answer, with its attempts and why it was not retried. */
function settled(response: HttpResponse, attempts: number, notRetried: string): HttpResponse {
  return { ...response, attempts, ...(notRetried === '' ? {} : { notRetried }) };
}

/** Exponential backoff with jitter: a random wait between half and all of base·2^(attempt-1), capped. */
function backoff(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + policy.random() / 2));
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
