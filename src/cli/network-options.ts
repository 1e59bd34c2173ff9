/**
 * The network flags, shared by every command that fetches (parse, validate, tree, crawl, and the
 * commands to come): declared once, documented once, read into the options of the HTTP client and
 * the work pool. A new command spreads networkOptions(use) into its options, puts
 * networkHelp(use) in its help and calls readNetworkOptions. Waits before a retry are said on
 * stderr, so a run that waits never looks hung.
 */
import { forTerminal } from '../core/terminal.js';
import type { HttpOptions, RetryNotice } from '../http/client.js';
import { DEFAULT_HOST_POLITENESS } from '../pool/index.js';
import { DEFAULT_USER_AGENT } from '../version.js';
import { CLEAR_LINE } from './progress.js';
import {
  UsageError,
  booleanFlag,
  integerFlag,
  stringFlag,
  type CommandSpec,
  type Io,
  type ParsedArgs,
} from './command.js';

/** `single`: one document at a time (parse, validate); `pool`: many at once, polite per host (tree, crawl). */
export type NetworkUse = 'single' | 'pool';

export interface NetworkDefaults {
  timeoutSeconds: number;
  retries: number;
  maxWaitSeconds: number;
}

const DEFAULTS: NetworkDefaults = { timeoutSeconds: 60, retries: 3, maxWaitSeconds: 30 };

/** Retry notices printed before the rest are only counted: a site failing everywhere must not flood stderr. */
const MAX_RETRY_NOTICES = 10;

export function networkOptions(use: NetworkUse): CommandSpec['options'] {
  return {
    timeout: { type: 'string' },
    retries: { type: 'string' },
    'max-wait': { type: 'string' },
    'user-agent': { type: 'string' },
    'allow-private-addresses': { type: 'boolean' },
    ...(use === 'pool' ? { concurrency: { type: 'string' }, delay: { type: 'string' } } : {}),
  };
}

/** The help of the network flags; `overrides`: a command's own defaults (crawl retries less, after a pass). */
export function networkHelp(use: NetworkUse, overrides: Partial<NetworkDefaults> = {}): string {
  const defaults = { ...DEFAULTS, ...overrides };
  const pool =
    use === 'pool'
      ? `
  --concurrency N      requests at once to one host (default ${DEFAULT_HOST_POLITENESS.concurrency}; twice as many across hosts)
  --delay SECONDS      least time between two requests to one host (default 0)`
      : '';
  return `Network:
  --timeout SECONDS    the longest one document may take, every retry, wait and the body
                       included (default ${defaults.timeoutSeconds}); a body slower than 1 KiB/s is stopped sooner
  --retries N          extra attempts after a 429, a 5xx or a lost connection (default ${defaults.retries}); a
                       timeout is retried once, a host that does not resolve or a TLS mismatch never
  --max-wait SECONDS   the longest total wait before the retries of one document, Retry-After
                       included (default ${defaults.maxWaitSeconds}); a server asking for more is not waited for
  --user-agent UA      User-Agent to send (and to match robots.txt groups with)
                       (default ${DEFAULT_USER_AGENT})
  --allow-private-addresses
                       follow a public site's redirects and links to hosts on private, loopback
                       or link-local addresses (refused by default)${pool}`;
}

export interface NetworkSettings {
  http: HttpOptions;
  /** For `pool` commands: documents read at once across hosts, and per host. */
  concurrency: number;
  perHost: { concurrency: number; delayMs: number };
}

/** Reads the network flags; `io` is where waits are told (unless `quiet`); `overrides` as given to networkHelp. */
export function readNetworkOptions(
  args: ParsedArgs,
  io: Io,
  { quiet = false, overrides = {} }: { quiet?: boolean; overrides?: Partial<NetworkDefaults> } = {},
): NetworkSettings {
  const defaults = { ...DEFAULTS, ...overrides };
  const perHostConcurrency = integerFlag(args, 'concurrency', DEFAULT_HOST_POLITENESS.concurrency);
  return {
    http: {
      timeoutMs: secondsFlag(args, 'timeout', defaults.timeoutSeconds, { min: 0.001 }) * 1000,
      retries: integerFlag(args, 'retries', defaults.retries, { min: 0 }),
      maxWaitMs: secondsFlag(args, 'max-wait', defaults.maxWaitSeconds) * 1000,
      userAgent: stringFlag(args, 'user-agent'),
      allowPrivateAddresses: booleanFlag(args, 'allow-private-addresses'),
      ...(quiet ? {} : { onRetry: retryNotices(io) }),
    },
    concurrency: perHostConcurrency * 2,
    perHost: { concurrency: perHostConcurrency, delayMs: secondsFlag(args, 'delay', 0) * 1000 },
  };
}

/** A number of seconds (fractions allowed); a bad value is a usage error. */
export function secondsFlag(args: ParsedArgs, name: string, fallback: number, { min = 0 } = {}): number {
  const raw = stringFlag(args, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min)
    throw new UsageError(`--${name} must be a number of seconds${min > 0 ? ' above 0' : ''}, not "${raw}"`);
  return value;
}

/** "sitemapkit: waiting 1.0 s to retry https://… (attempt 2 of 4): HTTP 503 (Retry-After: 1 s)" */
function retryNotices(io: Io): (notice: RetryNotice) => void {
  let told = 0;
  return (notice) => {
    told += 1;
    if (told > MAX_RETRY_NOTICES + 1) return;
    const clear = io.stderrIsTerminal ? CLEAR_LINE : '';
    io.stderr.write(
      told > MAX_RETRY_NOTICES
        ? `${clear}sitemapkit: more retries follow; they are not shown\n`
        : `${clear}sitemapkit: waiting ${(notice.delayMs / 1000).toFixed(1)} s to retry ${forTerminal(notice.url)} (attempt ${notice.attempt} of ${notice.maxAttempts}): ${forTerminal(notice.reason)}\n`,
    );
  };
}
