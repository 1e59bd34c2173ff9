/** `sitemapkit validate SOURCE…`: flags and printing only; the work is src/validate/. */
import { HttpClient } from '../http/client.js';
import { robotsSitemaps } from '../discover/robots.js';
import { ValidationReport } from '../report/validation.js';
import { validateSources, type ValidationSource } from '../validate/index.js';
import type { ValidationResult } from '../validate/types.js';
import { UsageError, defineCommand, useColor } from './command.js';
import { defineFlags } from './flags.js';
import { networkFlags, readNetworkOptions } from './network-options.js';
import { nowFlag, readNow } from './now-option.js';
import { ProgressLine } from './progress.js';
import { PROBLEM_FLAGS, exitCode } from './problem-options.js';
import { looksAbsoluteHttp } from '../core/url.js';

const OPTIONS = 'Options';

const FLAGS = defineFlags({
  json: {
    type: 'boolean',
    group: OPTIONS,
    help: 'one JSON object per source per line: {source, kind, valid, urls, errors, warnings, infos, diagnostics, omitted}, --max-per-rule diagnostics of each rule at most (omitted counts the rest)',
  },
  quiet: { type: 'boolean', short: 'q', group: OPTIONS, help: 'show errors only' },
  location: {
    type: 'string',
    value: 'URL',
    group: OPTIONS,
    help: "the URL the (single) sitemap is published at, for the location rules (URL-004/005, IDX-004) and to map an index's children to local files",
  },
  'strict-scope': {
    type: 'boolean',
    group: OPTIONS,
    help: "report URLs outside the sitemap's host or folder as errors: the sitemap is not cross-submitted through robots.txt or Search Console. Without it, a fetched sitemap that its site's robots.txt declares (or lists through an index) may list any URL of the site",
  },
  recursive: {
    type: 'boolean',
    short: 'r',
    group: OPTIONS,
    help: 'validate the children of a sitemap index too (local files beside the index, or fetched when the index was), and those of a nested index (IDX-002), 5 levels deep; duplicates and hreflang are checked across all',
  },
  ...nowFlag(OPTIONS, 'the current time for future dates and news age, e.g. 2024-05-01T12:00:00Z'),
  ...PROBLEM_FLAGS,
  ...networkFlags('single'),
});

export const command = defineCommand({
  spec: {
    name: 'validate',
    summary: 'Check sitemaps against every rule of the protocol and of the search engines.',
    usage: 'sitemapkit validate SOURCE… [options]',
    description: `
SOURCE is a file (XML, text or feed, gzip or not), - for standard input, or an http(s) URL; a
.txt file is a text sitemap (one absolute URL per line), not a URL list of "generate".
Each problem is printed as source:line:column, severity, rule code and what to do ("sitemapkit
rules CODE" explains a code). The run fails (exit 1) when a source cannot be read whole, or
when a problem at or above --fail-on is found (--fail-on warning for CI).`,
    flags: FLAGS,
    epilogue: `
Examples:
  sitemapkit validate public/sitemap.xml --location https://www.example.com/sitemap.xml
  sitemapkit validate https://www.example.com/sitemap_index.xml --recursive --fail-on warning
  sitemapkit validate out/*.xml.gz --json`,
  },

  async run(args, io) {
    if (args.positionals.length === 0) throw new UsageError('name at least one SOURCE (a file, - for stdin, or a URL)');
    const { flags } = args;
    const { failOn, maxPerRule, json, quiet } = flags;
    const location = readLocation(flags.location, args.positionals);
    const now = readNow(flags.now);
    const report = new ValidationReport({
      maxPerRule,
      quiet,
      color: useColor(io),
    });
    const sources: ValidationSource[] = args.positionals.map((source) =>
      source === '-' ? { name: '-', input: io.stdin as AsyncIterable<Uint8Array> } : source,
    );

    // Progress on a terminal only, on stderr, erased before the report.
    const progress = new ProgressLine(io, { plainEveryMs: 'never' });
    // URL sources come through the shared HTTP layer, as in `parse`: timeouts, retries, redirects, User-Agent.
    const http = new HttpClient(readNetworkOptions(flags, io).http);
    let results: ValidationResult[];
    try {
      results = await validateSources(sources, {
        http,
        robotsSitemaps: robotsSitemaps(http),
        onDocument: (source, number) => progress.update(() => `validating ${number}: ${source}`),
        ...(location === undefined ? {} : { location }),
        ...(now === undefined ? {} : { now }),
        strictScope: flags.strictScope,
        recursive: flags.recursive,
        onDiagnostic: (d) => {
          if (!json) report.add(d);
        },
        ...(json ? { maxDiagnostics: Number.POSITIVE_INFINITY, maxPerRule } : { maxDiagnostics: 0 }),
      });
    } finally {
      await http.close();
    }

    progress.clear();
    if (json) {
      for (const result of results) io.stdout.write(`${JSON.stringify(quiet ? errorsOnly(result) : result)}\n`);
    } else {
      io.stdout.write(report.render(results));
    }
    const sum = (key: 'errors' | 'warnings') => results.reduce((total, result) => total + result[key], 0);
    // A source read in part (missing, cut off, past the byte cap) fails the run, whatever --fail-on says.
    const documents = results.map((result) => result.read);
    return exitCode({ documents, errors: sum('errors'), warnings: sum('warnings') }, failOn);
  },
});

function readLocation(location: string | undefined, positionals: readonly string[]): string | undefined {
  if (location === undefined) return undefined;
  if (!looksAbsoluteHttp(location))
    throw new UsageError(`--location must be an absolute http(s) URL, not "${location}"`);
  if (positionals.length > 1)
    throw new UsageError('--location names where one sitemap is published: give a single SOURCE with it');
  return new URL(location).href;
}

function errorsOnly(result: ValidationResult): ValidationResult {
  return { ...result, diagnostics: result.diagnostics.filter((d) => d.severity === 'error') };
}
