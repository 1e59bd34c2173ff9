/**
 * The network flags, shared by every command that fetches (parse, validate, tree, crawl, and the
 * commands to come): declared once, documented once, read into the options of the HTTP client and
 * the work pool. A new command spreads networkFlags(use) into its flag table and calls
 * readNetworkOptions. Waits before a retry are said on
 * stderr, so a run that waits never looks hung.
 */
import { forTerminal } from '../core/terminal.js';
import type { HttpOptions, RetryNotice } from '../http/client.js';
import { DEFAULT_HOST_POLITENESS } from '../pool/index.js';
import { DEFAULT_USER_AGENT } from '../version.js';
import { CLEAR_LINE } from './progress.js';
import type { Io } from './command.js';
import { defineFlags, type FlagValues } from './flags.js';

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

export const NETWORK = 'Network';

/** The network flags of a command; `overrides`: its own defaults (crawl retries less, after a pass). */
export function networkFlags<U extends NetworkUse>(use: U, overrides: Partial<NetworkDefaults> = {}) {
  const defaults = { ...DEFAULTS, ...overrides };
  const single = defineFlags({
    timeout: {
      type: 'seconds',
      value: 'SECONDS',
      min: 0.001,
      default: defaults.timeoutSeconds,
      group: NETWORK,
      help: 'the longest one document may take, every retry, wait and the body included; a body slower than 1 KiB/s is stopped sooner',
    },
    retries: {
      type: 'integer',
      value: 'N',
      min: 0,
      default: defaults.retries,
      group: NETWORK,
      help: 'extra attempts after a 429, a 5xx or a lost connection; a timeout is retried once, a host that does not resolve or a TLS mismatch never',
    },
    'max-wait': {
      type: 'seconds',
      value: 'SECONDS',
      default: defaults.maxWaitSeconds,
      group: NETWORK,
      help: 'the longest total wait before the retries of one document, Retry-After included; a server asking for more is not waited for',
    },
    'user-agent': {
      type: 'string',
      value: 'UA',
      group: NETWORK,
      defaultText: DEFAULT_USER_AGENT,
      help: 'User-Agent to send (and to match robots.txt groups with)',
    },
    'allow-private-addresses': {
      type: 'boolean',
      group: NETWORK,
      help: "follow a public site's redirects and links to hosts on private, loopback or link-local addresses (refused by default)",
    },
  });
  const pool = defineFlags({
    concurrency: {
      type: 'integer',
      value: 'N',
      default: DEFAULT_HOST_POLITENESS.concurrency,
      group: NETWORK,
      help: 'requests at once to one host (twice as many across hosts)',
    },
    delay: {
      type: 'seconds',
      value: 'SECONDS',
      default: 0,
      group: NETWORK,
      help: 'least time between two requests to one host',
    },
  });
  return (use === 'pool' ? { ...single, ...pool } : single) as U extends 'pool'
    ? typeof single & typeof pool
    : typeof single;
}

/** The network flags every fetching command has (pool commands add --concurrency and --delay). */
type NetworkFlagValues = FlagValues<ReturnType<typeof networkFlags<'single'>>> &
  Partial<FlagValues<ReturnType<typeof networkFlags<'pool'>>>>;

export interface NetworkSettings {
  http: HttpOptions;
  /** For `pool` commands: documents read at once across hosts, and per host. */
  concurrency: number;
  perHost: { concurrency: number; delayMs: number };
}

/** Reads the network flags; `io` is where waits are told (unless `quiet`). */
export function readNetworkOptions(
  flags: NetworkFlagValues,
  io: Io,
  { quiet = false }: { quiet?: boolean } = {},
): NetworkSettings {
  const perHostConcurrency = flags.concurrency ?? DEFAULT_HOST_POLITENESS.concurrency;
  return {
    http: {
      timeoutMs: flags.timeout * 1000,
      retries: flags.retries,
      maxWaitMs: flags.maxWait * 1000,
      userAgent: flags.userAgent,
      allowPrivateAddresses: flags.allowPrivateAddresses,
      ...(quiet ? {} : { onRetry: retryNotices(io) }),
    },
    concurrency: perHostConcurrency * 2,
    perHost: { concurrency: perHostConcurrency, delayMs: (flags.delay ?? 0) * 1000 },
  };
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
