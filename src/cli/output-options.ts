/**
 * The sitemap-output flags, shared by every command that writes sitemaps (generate, crawl):
 * declared once, documented once, parsed into writeSitemaps options.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LIMITS, normaliseUrl } from '../core/index.js';
import { formatNumber } from '../report/format.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import type { WriteSitemapsOptions } from '../generate/types.js';
import { defineFlags, type FlagValues } from './flags.js';
import { nowFlag, readNow } from './now-option.js';
import { UsageError } from './usage-error.js';

export const OUTPUT = 'Output';

export const OUTPUT_FLAGS = defineFlags({
  out: {
    type: 'string',
    value: 'DIR',
    short: 'o',
    group: OUTPUT,
    help: 'directory to publish the sitemaps into (created if missing); files are written under temporary names, and one rename of the entry point switches to the new set once every file of it is complete',
  },
  'base-url': {
    type: 'string',
    value: 'URL',
    group: OUTPUT,
    help: 'public URL of DIR, e.g. https://www.example.com/ (relative URLs resolve against it; the index and robots.txt lines point under it)',
  },
  'max-urls': {
    type: 'integer',
    value: 'N',
    max: LIMITS.maxUrlsPerSitemap,
    maxReason: "the protocol's limit",
    default: LIMITS.maxUrlsPerSitemap,
    group: OUTPUT,
    help: `URLs per file, at most ${formatNumber(LIMITS.maxUrlsPerSitemap)}`,
  },
  'max-bytes': {
    type: 'integer',
    value: 'N',
    max: LIMITS.maxBytesPerSitemap,
    maxReason: "the protocol's limit",
    default: LIMITS.maxBytesPerSitemap,
    group: OUTPUT,
    help: `uncompressed bytes per file, closing tag included, at most ${formatNumber(LIMITS.maxBytesPerSitemap)}`,
  },
  gzip: {
    type: 'boolean',
    group: OUTPUT,
    help: 'write .gz shards, listed by the index sitemap.xml even when there is one (the index stays plain XML, and keeps its name as the site grows)',
  },
  'gzip-index': {
    type: 'boolean',
    group: OUTPUT,
    help: 'gzip the index as well: the entry point is then sitemap.xml.gz',
  },
  format: {
    type: 'choice',
    value: 'xml|txt',
    choices: ['xml', 'txt'],
    default: 'xml',
    group: OUTPUT,
    help: 'urlset XML or text sitemaps, one URL per line',
  },
  stylesheet: {
    type: 'string',
    value: 'URL',
    group: OUTPUT,
    help: 'add an xml-stylesheet processing instruction (XSLT or CSS)',
  },
  'allow-other-hosts': {
    type: 'boolean',
    group: OUTPUT,
    help: "accept URLs on other hosts or outside the base URL's directory (only valid when each host's robots.txt lists the sitemap)",
  },
  overwrite: {
    type: 'boolean',
    group: OUTPUT,
    help: 'replace a sitemap.xml in DIR that sitemapkit did not write (without it, such a file is left as it is and nothing is written)',
  },
  ...nowFlag(OUTPUT),
});

export type OutputOptions = Pick<
  WriteSitemapsOptions,
  | 'outDir'
  | 'baseUrl'
  | 'maxUrls'
  | 'maxBytes'
  | 'gzip'
  | 'gzipIndex'
  | 'format'
  | 'stylesheet'
  | 'allowOtherHosts'
  | 'overwrite'
  | 'now'
>;

/** Reads the output flags; `--out` and `--base-url` are required, everything else has a default. */
export function readOutputOptions(
  flags: FlagValues<typeof OUTPUT_FLAGS>,
  defaults: { baseUrl?: string } = {},
): OutputOptions {
  const { out: outDir, format, stylesheet } = flags;
  if (outDir === undefined) throw new UsageError('--out DIR is required: the directory to write the sitemaps into');
  const baseUrl = readBaseUrl(flags.baseUrl ?? defaults.baseUrl);
  const now = readNow(flags.now);
  if (stylesheet !== undefined && format === 'txt')
    throw new UsageError('--stylesheet applies to XML sitemaps, not --format txt');
  return {
    outDir,
    baseUrl,
    maxUrls: flags.maxUrls,
    maxBytes: flags.maxBytes,
    gzip: flags.gzip,
    gzipIndex: flags.gzipIndex,
    format,
    ...(stylesheet === undefined ? {} : { stylesheet }),
    allowOtherHosts: flags.allowOtherHosts,
    overwrite: flags.overwrite,
    ...(now === undefined ? {} : { now }),
  };
}

/** `--base-url` where it is optional (diff, submit: what a URL list's relative URLs resolve against). */
export function optionalBaseUrl(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : readBaseUrl(raw);
}

function readBaseUrl(raw: string | undefined): string {
  if (raw === undefined)
    throw new UsageError('--base-url URL is required: the public URL the sitemaps will be served from');
  const url = normaliseUrl(raw);
  if (!url.ok) throw new UsageError(`--base-url: ${url.problem.message}`);
  if (url.userinfoRemoved !== undefined)
    throw new UsageError(
      `--base-url: the URL for ${url.userinfoRemoved} carries a user name or password, which every <loc> would publish: give it without them`,
    );
  const parsed = new URL(url.value);
  if (parsed.search || parsed.hash) throw new UsageError(`--base-url must not have a query or fragment: "${raw}"`);
  // A base without a trailing slash names a directory here (https://example.com/blog → /blog/).
  return parsed.pathname.endsWith('/') ? parsed.href : `${parsed.href}/`;
}

/**
 * Refuses a state directory (`what` it holds: the crawl state, the ledger) inside the output
 * directory, whose whole content is published; suggests a place beside it.
 */
export function refuseStateInsideOut(stateDir: string, outDir: string, what: string): void {
  // Compared as the file system will see them: symbolic links followed, `..` resolved, and
  // `public/..sk` (a name that begins with two dots) is inside public.
  const between = relative(realPathOf(outDir), realPathOf(stateDir));
  if (between === '..' || between.startsWith(`..${sep}`) || isAbsolute(between)) return;
  const beside = relative(process.cwd(), join(resolve(outDir), '..', DEFAULT_STATE_DIR)) || DEFAULT_STATE_DIR;
  throw new UsageError(
    `--state ${stateDir} is inside --out ${outDir}: the ${what} must not be published with the site. ` +
      `Keep it elsewhere with --state (e.g. --state ${beside}), or publish into a directory of its own (e.g. --out public)`,
  );
}

/** `path` absolute with its links followed, as far as it exists (the rest is appended as written). */
function realPathOf(path: string): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  for (let existing = absolute; ; existing = dirname(existing)) {
    try {
      return join(realpathSync(existing), ...missing.reverse());
    } catch {
      if (dirname(existing) === existing) return absolute;
      missing.push(basename(existing));
    }
  }
}
