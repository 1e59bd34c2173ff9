/** `sitemapkit validate SOURCE…`: flags and printing only; the work is src/validate/. */
import { HttpClient } from '../discover/http.js';
import { robotsSitemaps } from '../discover/robots.js';
import { ValidationReport } from '../report/validation.js';
import { validateSources, type ValidationSource } from '../validate/index.js';
import type { ValidationResult } from '../validate/types.js';
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  booleanFlag,
  integerFlag,
  stringFlag,
  type Command,
  type ParsedArgs,
} from './command.js';
import { networkHelp, networkOptions, readNetworkOptions } from './network-options.js';
import { readNow } from './now-option.js';

const DEFAULT_MAX_PER_RULE = 20;

export const command: Command = {
  spec: {
    name: 'validate',
    summary: 'Check sitemaps against every rule of the protocol and of the search engines that read them.',
    usage: 'sitemapkit validate SOURCE… [options]',
    help: `
SOURCE is a file (XML, text or feed, gzip or not), - for stdin, or an http(s) URL.
Each problem is printed as source:line:column, severity, rule code and what to do ("sitemapkit rules CODE" explains a code).
Exit code: 0 no errors, 1 any error (or warning with --fail-on warning), 2 bad usage.

Options:
  --json               one JSON object per source per line: {source, kind, valid, urls, errors, warnings,
                       diagnostics, omitted}, --max-per-rule diagnostics of each rule at most
  --max-per-rule N     show at most N problems of each rule per source, and count the rest (default ${DEFAULT_MAX_PER_RULE}; 0 shows all)
  -q, --quiet          show errors only
  --fail-on LEVEL      error (default) or warning: warnings fail the run too, for CI
  --location URL       the URL the (single) sitemap is published at, for the location rules
                       (URL-004/005, IDX-004) and to map an index's children to local files
  --strict-scope       report URLs outside the sitemap's host or folder as errors: the sitemap is
                       not cross-submitted through robots.txt or Search Console. Without it, a
                       fetched sitemap that its site's robots.txt declares (or lists through an
                       index) may list any URL of the site
  -r, --recursive      validate the children of a sitemap index too (local files beside the index,
                       or fetched when the index was), and those of a nested index (IDX-002), 5
                       levels deep; duplicates and hreflang are checked across all
  --now ISO            the current time for future dates and news age (default: the clock)

${networkHelp('single')}

Examples:
  sitemapkit validate public/sitemap.xml --location https://www.example.com/sitemap.xml
  sitemapkit validate https://www.example.com/sitemap_index.xml --recursive --fail-on warning
  sitemapkit validate out/*.xml.gz --json
`,
    options: {
      json: { type: 'boolean' },
      'max-per-rule': { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      'fail-on': { type: 'string' },
      location: { type: 'string' },
      'strict-scope': { type: 'boolean' },
      recursive: { type: 'boolean', short: 'r' },
      now: { type: 'string' },
      ...networkOptions('single'),
    },
  },

  async run(args, io) {
    if (args.positionals.length === 0) throw new UsageError('name at least one SOURCE (a file, - for stdin, or a URL)');
    const failOnWarning = readFailOn(args);
    const location = readLocation(args);
    const now = readNow(args);
    const json = booleanFlag(args, 'json');
    const quiet = booleanFlag(args, 'quiet');
    const maxPerRule = integerFlag(args, 'max-per-rule', DEFAULT_MAX_PER_RULE, { min: 0 });
    const report = new ValidationReport({
      maxPerRule,
      quiet,
      color: io.isTerminal && !process.env.NO_COLOR,
    });
    const sources: ValidationSource[] = args.positionals.map((source) =>
      source === '-' ? { name: '-', input: io.stdin as AsyncIterable<Uint8Array> } : source,
    );

    // Progress on a terminal only, on stderr, erased before the report.
    const progress = io.stderrIsTerminal
      ? (source: string, number: number) => io.stderr.write(`\r\u001b[Kvalidating ${number}: ${source}`)
      : undefined;
    // URL sources come through the shared HTTP layer, as in `parse`: timeouts, retries, redirects, User-Agent.
    const http = new HttpClient(readNetworkOptions(args, io).http);
    let results: ValidationResult[];
    try {
      results = await validateSources(sources, {
        http,
        robotsSitemaps: robotsSitemaps(http),
        ...(progress ? { onDocument: progress } : {}),
        ...(location === undefined ? {} : { location }),
        ...(now === undefined ? {} : { now }),
        strictScope: booleanFlag(args, 'strict-scope'),
        recursive: booleanFlag(args, 'recursive'),
        ...(json
          ? { maxDiagnostics: Number.POSITIVE_INFINITY, maxPerRule }
          : { onDiagnostic: report.add, maxDiagnostics: 0 }),
      });
    } finally {
      await http.close();
    }

    if (progress) io.stderr.write('\r\u001b[K');
    if (json) {
      for (const result of results) io.stdout.write(`${JSON.stringify(quiet ? errorsOnly(result) : result)}\n`);
    } else {
      io.stdout.write(report.render(results));
    }
    const failed = results.some((result) => result.errors > 0 || (failOnWarning && result.warnings > 0));
    return failed ? EXIT_FAILED : EXIT_OK;
  },
};

function readFailOn(args: ParsedArgs): boolean {
  const level = stringFlag(args, 'fail-on') ?? 'error';
  if (level !== 'error' && level !== 'warning')
    throw new UsageError(`--fail-on must be "error" or "warning", not "${level}"`);
  return level === 'warning';
}

function readLocation(args: ParsedArgs): string | undefined {
  const location = stringFlag(args, 'location');
  if (location === undefined) return undefined;
  if (!/^https?:\/\/[^/]/i.test(location))
    throw new UsageError(`--location must be an absolute http(s) URL, not "${location}"`);
  if (args.positionals.length > 1)
    throw new UsageError('--location names where one sitemap is published: give a single SOURCE with it');
  return new URL(location).href;
}

function errorsOnly(result: ValidationResult): ValidationResult {
  return { ...result, diagnostics: result.diagnostics.filter((d) => d.severity === 'error') };
}
