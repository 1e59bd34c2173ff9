/**
 * `sitemapkit parse SOURCE…`: entries as JSONL (or CSV) on stdout, diagnostics on stderr.
 */
import { readOutcome, readWhole } from '../core/outcome.js';
import { formatDiagnostic, type Diagnostic } from '../core/diagnostics.js';
import { HttpClient } from '../http/client.js';
import { parseSitemap, entryBatches, ParseError, DEFAULT_PARSE_LIMITS, type SitemapSource } from '../parse/index.js';
import { fetchSitemap, TransferError, type SitemapBody } from '../http/sitemap-fetch.js';
import { entryCsvHeader, entryToCsvRow, entryToJsonLine } from '../report/entries.js';
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { formatFolded } from '../report/format.js';
import { UsageError, defineCommand, type Io } from './command.js';
import { defineFlags } from './flags.js';
import { looksAbsoluteHttp } from '../core/url.js';
import type { DocumentKind } from '../core/entry.js';
import { LineOutput } from './line-output.js';
import { networkFlags, readNetworkOptions } from './network-options.js';
import { PROBLEM_FLAGS, exitCode } from './problem-options.js';

const OPTIONS = 'Options';

const FLAGS = defineFlags({
  csv: { type: 'boolean', group: OPTIONS, help: 'CSV with a header instead of JSONL' },
  strict: { type: 'boolean', group: OPTIONS, help: 'stop at the first protocol error (exit 1)' },
  'base-url': {
    type: 'string',
    value: 'URL',
    group: OPTIONS,
    help: 'where a local file was fetched from: relative locs resolve against it (URL sources use their own URL)',
  },
  'max-bytes': {
    type: 'integer',
    value: 'N',
    default: DEFAULT_PARSE_LIMITS.maxBytes,
    group: OPTIONS,
    help: 'stop after N uncompressed bytes',
  },
  ...PROBLEM_FLAGS,
  ...networkFlags('single'),
});

export const command = defineCommand({
  spec: {
    name: 'parse',
    summary: 'Read sitemaps (XML, index, RSS, Atom, text; plain or gzip) as one JSON entry per line.',
    usage: 'sitemapkit parse SOURCE… [--csv] [--strict] [--base-url URL] [--max-bytes N] [options]',
    description: `
Reads sitemaps as a crawler meets them: XML urlset or sitemap index (with image, video, news and
hreflang extensions), RSS 2.0, RSS 1.0, Atom, or a plain-text list of URLs; plain or gzip (told
from the bytes, not the name). Prints one JSON object per entry on stdout; problems go to
stderr as "source:line:column: severity CODE message" (codes of the rule catalog).

SOURCE is a file path, - for standard input, or an http(s) URL. With several sources each line
also carries "source". A .txt SOURCE is a text sitemap (one absolute URL per line), as search
engines read it; a URL list for "sitemapkit generate" may also hold /paths and comments.

The reader is lenient: it keeps every entry it can and reports what it repaired or left out.
The run fails (exit 1), whatever --fail-on says, when a document could not be read whole
(missing file, HTTP error, a transfer that broke off, a file cut off inside the document, corrupt
gzip, the --max-bytes cap, an HTML page, not a sitemap; the entries read before the problem are
printed), or --strict stopped it. End tags missing inside a whole document are XML errors.`,
    flags: FLAGS,
    epilogue: `
Examples:
  sitemapkit parse sitemap.xml.gz
  sitemapkit parse https://www.example.com/sitemap.xml --csv > urls.csv
  curl -s https://www.example.com/sitemap.xml | sitemapkit parse - --base-url https://www.example.com/sitemap.xml`,
  },

  async run(args, io) {
    const sources = args.positionals;
    if (sources.length === 0) throw new UsageError('name a SOURCE: a file, - for standard input, or an http(s) URL');
    const { flags } = args;
    const { baseUrl } = flags;
    if (baseUrl !== undefined && !URL.canParse(baseUrl))
      throw new UsageError(`--base-url must be an absolute URL, not "${baseUrl}"`);
    const problems = { failOn: flags.failOn, maxPerRule: flags.maxPerRule };
    const options = {
      csv: flags.csv,
      strict: flags.strict,
      baseUrl,
      maxBytes: flags.maxBytes,
      withSource: sources.length > 1,
    };
    const out = new LineOutput(io.stdout);
    if (options.csv) out.line(entryCsvHeader(options.withSource));
    let failed = false;
    let errors = 0;
    let warnings = 0;
    const http = new HttpClient(readNetworkOptions(flags, io).http);
    try {
      for (const source of sources) {
        const tally = new DiagnosticTally(problems.maxPerRule);
        if (!(await parseOne(source, options, out, { io, http, tally }))) failed = true;
        errors += tally.errors;
        warnings += tally.warnings;
        if (tally.folded().length > 0)
          io.stderr.write(
            tally
              .folded()
              .map((folded) => `${source}: ${formatFolded(folded)}\n`)
              .join(''),
          );
      }
    } finally {
      await http.close();
    }
    await out.flush();
    return exitCode({ failed, errors, warnings }, problems.failOn);
  },
});

interface RunOptions {
  csv: boolean;
  strict: boolean;
  baseUrl: string | undefined;
  maxBytes: number;
  withSource: boolean;
}

/** Parses one source onto `out`; true when it was read whole, false when the work failed. */
async function parseOne(
  name: string,
  options: RunOptions,
  out: LineOutput,
  { io, http, tally }: { io: Io; http: HttpClient; tally: DiagnosticTally },
): Promise<boolean> {
  const label = name; // standard input is "-", as it was given
  const abort = new AbortController();
  const reported = new Set<string>();
  const print = (d: Diagnostic) => {
    reported.add(d.code);
    if (tally.add(d)) io.stderr.write(`${formatDiagnostic(d)}\n`);
  };
  let fetched: SitemapBody | undefined;
  try {
    const opened = await openCliSource(name, io, http, { signal: abort.signal, maxBytes: options.maxBytes });
    if ('unavailable' in opened) {
      opened.unavailable.forEach((d) => print({ ...d, source: label }));
      return false;
    }
    fetched = opened.fetched;
    fetched?.diagnostics.forEach(print);
    const parsed = parseSitemap(opened.source, {
      strict: options.strict,
      baseUrl: opened.baseUrl ?? options.baseUrl,
      source: label,
      signal: abort.signal,
      limits: { maxBytes: options.maxBytes },
      onDiagnostic: print,
    });
    const source = options.withSource ? label : undefined;
    try {
      // A batch a chunk: an await per entry cost a sixth of the parse.
      for await (const batch of entryBatches(parsed)) {
        for (const entry of batch)
          out.line(options.csv ? entryToCsvRow(entry, source, options.withSource) : entryToJsonLine(entry, source));
        if (out.full) await out.flush();
      }
    } catch (error) {
      // The transfer broke off: what was read before it is printed all the same.
      if (!(error instanceof TransferError)) throw error;
      print({ ...error.diagnostic, source: label });
    }
    fetched?.finish((code) => reported.has(code)).forEach(print);
    const hint = treeHint(name, parsed.kind);
    if (hint !== undefined) io.stderr.write(`${hint}\n`);
    // Damage repaired inside the document is an XML error; only what was not read fails the run.
    return readWhole(readOutcome({ kind: parsed.kind, reported: (code) => reported.has(code) }));
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    // Strict mode: the diagnostic was already printed by onDiagnostic; a source that could not be opened was not.
    if (error.diagnostic.code === 'FETCH-001') print({ ...error.diagnostic, source: label });
    return false;
  } finally {
    fetched?.release();
    abort.abort();
  }
}

/**
 * A note when `tree` is what the user wants: parse reads one document, and an index lists only
 * sitemaps, a robots.txt names sitemaps on `Sitemap:` lines and is no sitemap itself.
 */
function treeHint(name: string, kind: DocumentKind | undefined): string | undefined {
  const url = looksAbsoluteHttp(name);
  if (kind === 'sitemapindex')
    return `note: ${name === '-' ? 'standard input' : name} is a sitemap index: parse prints the sitemaps it lists, not their URLs; ${
      url
        ? `"sitemapkit tree ${name}" reads every child`
        : '"sitemapkit tree URL" reads every child of the published index'
    }`;
  if (/(?:^|[/\\])robots\.txt$/i.test(name.replace(/[?#].*$/, '')))
    return `note: ${name} is a robots.txt, not a sitemap: "sitemapkit tree ${url ? new URL(name).origin : 'SITE'}" reads the sitemaps its Sitemap: lines name`;
  return undefined;
}

type OpenedSource =
  { source: SitemapSource; baseUrl?: string; fetched?: SitemapBody } | { unavailable: readonly Diagnostic[] };

/** A path, `-` or an http(s) URL as a parser source; a URL through the fetch `tree` and `validate` use. */
async function openCliSource(
  name: string,
  io: Io,
  http: HttpClient,
  options: { signal: AbortSignal; maxBytes: number },
): Promise<OpenedSource> {
  if (name === '-') return { source: io.stdin as AsyncIterable<Uint8Array> };
  if (!looksAbsoluteHttp(name)) return { source: { path: name } };
  const fetched = await fetchSitemap(http, name, options);
  if (!fetched.ok) return { unavailable: fetched.diagnostics };
  return { source: fetched.body, baseUrl: fetched.finalUrl, fetched };
}
