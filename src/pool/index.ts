/**
 * The work pool: when each of many tasks (mostly fetches) may start, with per-host politeness and
 * retries that wait without holding a worker. It does no I/O and imports nothing of ours, so
 * everything that fetches can use it: validate, discover, crawl, and the audit and run workers.
 */
export {
  DEFAULT_HOST_POLITENESS,
  DEFAULT_POOL_CONCURRENCY,
  RetryLater,
  WorkPool,
  type HostPoliteness,
  type Settled,
  type TaskContext,
  type WorkPoolOptions,
} from './work-pool.js';
export { LinkedSignal } from './linked-signal.js';
