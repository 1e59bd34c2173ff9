/**
 * The sitemap-output flags, shared by every command that writes sitemaps (generate, crawl):
 * declared once, documented once, parsed into writeSitemaps options.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LIMITS, normaliseUrl } from '../core/index.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import type { WriteSitemapsOptions } from '../generate/types.js';
import { readNow } from './now-option.js';
import { UsageError, booleanFlag, integerFlag, stringFlag, type CommandSpec, type ParsedArgs } from './command.js';

export const OUTPUT_OPTIONS: CommandSpec['options'] = {
  out: { type: 'string', short: 'o' },
  'base-url': { type: 'string' },
  'max-urls': { type: 'string' },
  'max-bytes': { type: 'string' },
  gzip: { type: 'boolean' },
  'gzip-index': { type: 'boolean' },
  format: { type: 'string' },
  stylesheet: { type: 'string' },
  'allow-other-hosts': { type: 'boolean' },
  overwrite: { type: 'boolean' },
  now: { type: 'string' },
};

export const OUTPUT_OPTIONS_HELP = `Output:
  -o, --out DIR          directory to publish the sitemaps into (created if missing); files are
                         written under temporary names, and one rename of the entry point
                         switches to the new set once every file of it is complete
  --base-url URL         public URL of DIR, e.g. https://www.example.com/ (relative URLs resolve
                         against it; the index and robots.txt lines point under it)
  --max-urls N           URLs per file (default and maximum ${LIMITS.maxUrlsPerSitemap.toLocaleString('en-US')})
  --max-bytes N          uncompressed bytes per file, closing tag included
                         (default and maximum ${LIMITS.maxBytesPerSitemap.toLocaleString('en-US')})
  --gzip                 write .gz shards, listed by the index sitemap.xml even when there is
                         one (the index stays plain XML, and keeps its name as the site grows)
  --gzip-index           gzip the index as well: the entry point is then sitemap.xml.gz
  --format xml|txt       urlset XML (default) or text sitemaps, one URL per line
  --stylesheet URL       add an xml-stylesheet processing instruction (XSLT or CSS)
  --allow-other-hosts    accept URLs on other hosts or outside the base URL's directory (only
                         valid when each host's robots.txt lists the sitemap)
  --overwrite            replace a sitemap.xml in DIR that sitemapkit did not write (without it,
                         such a file is left as it is and nothing is written)
  --now DATE             the present the entries are judged by (a lastmod in the future, a news
                         article older than two days), e.g. 2024-05-01T12:00:00Z: reproducible
                         output from dated examples and fixtures (default: the clock)`;

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
export function readOutputOptions(args: ParsedArgs, defaults: { baseUrl?: string } = {}): OutputOptions {
  const outDir = stringFlag(args, 'out');
  if (outDir === undefined) throw new UsageError('--out DIR is required: the directory to write the sitemaps into');
  const baseUrl = readBaseUrl(stringFlag(args, 'base-url') ?? defaults.baseUrl);
  const now = readNow(args);
  const format = stringFlag(args, 'format') ?? 'xml';
  if (format !== 'xml' && format !== 'txt') throw new UsageError(`--format must be xml or txt, not "${format}"`);
  const stylesheet = stringFlag(args, 'stylesheet');
  if (stylesheet !== undefined && format === 'txt')
    throw new UsageError('--stylesheet applies to XML sitemaps, not --format txt');
  return {
    outDir,
    baseUrl,
    maxUrls: limitFlag(args, 'max-urls', LIMITS.maxUrlsPerSitemap),
    maxBytes: limitFlag(args, 'max-bytes', LIMITS.maxBytesPerSitemap),
    gzip: booleanFlag(args, 'gzip'),
    gzipIndex: booleanFlag(args, 'gzip-index'),
    format,
    ...(stylesheet === undefined ? {} : { stylesheet }),
    allowOtherHosts: booleanFlag(args, 'allow-other-hosts'),
    overwrite: booleanFlag(args, 'overwrite'),
    ...(now === undefined ? {} : { now }),
  };
}

/** `--base-url` where it is optional (diff, submit: what a URL list's relative URLs resolve against). */
export function optionalBaseUrl(args: ParsedArgs): string | undefined {
  const raw = stringFlag(args, 'base-url');
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

function limitFlag(args: ParsedArgs, name: string, maximum: number): number {
  const value = integerFlag(args, name, maximum);
  if (value > maximum)
    throw new UsageError(
      `--${name} may be at most ${maximum.toLocaleString('en-US')} (the protocol's limit), not ${value}`,
    );
  return value;
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
