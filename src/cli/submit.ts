/**
 * `sitemapkit submit SOURCE --key KEY` (or `--from-state DIR`): tell IndexNow what changed since
 * the last accepted submission; `sitemapkit submit --new-key --out DIR` makes a key and its file.
 * Flags and printing only; the work is in submit/ and the ledger in store/submission-ledger.ts.
 */
import { forTerminal } from '../core/terminal.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { HttpClient } from '../http/client.js';
import { missingSource } from '../diff/sitemap-set.js';
import { formatNumber } from '../report/format.js';
import { formatSubmitReport, submitSucceeded, type SubmitReport } from '../report/submit.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import { SubmissionLedger, submissionLedgerPath } from '../store/submission-ledger.js';
import { DEFAULT_ENDPOINT, isValidKey, MAX_URLS_PER_REQUEST, newKey } from '../submit/indexnow.js';
import { observeGenerateLedger, observeSource, type Observed } from '../submit/observe.js';
import { SITEMAP_PLACEHOLDER } from '../submit/ping.js';
import { submitChanges } from '../submit/submit.js';
import { EXIT_FAILED, EXIT_OK, UsageError, defineCommand, type Io } from './command.js';
import { listenForInterruption } from './interrupt.js';
import { networkFlags, readNetworkOptions } from './network-options.js';
import { defineFlags, type FlagValues } from './flags.js';
import { optionalBaseUrl } from './output-options.js';
import { ProblemPrinter } from './problem-printer.js';
import { DEFAULT_MAX_PER_RULE } from './problem-options.js';
import { ProgressLine } from './progress.js';

const OPTIONS = 'Options';

const FLAGS = defineFlags({
  key: { type: 'string', value: 'KEY', group: OPTIONS, help: 'the IndexNow key: 8 to 128 letters, digits and dashes' },
  'key-location': {
    type: 'list',
    value: 'URL',
    group: OPTIONS,
    help: "the key file's URL when it is not {scheme}://{host}/{KEY}.txt, for the host it is on (repeatable, one per host); it covers only URLs in its folder and below, and is sent with each request",
  },
  endpoint: {
    type: 'string',
    value: 'URL',
    default: DEFAULT_ENDPOINT,
    group: OPTIONS,
    help: "where to send (one engine's own endpoint works as well, as they share what they receive)",
  },
  'from-state': {
    type: 'string',
    value: 'DIR',
    group: OPTIONS,
    help: 'read the generate ledger DIR/generate.sqlite instead of a SOURCE',
  },
  state: {
    type: 'string',
    value: 'DIR',
    default: DEFAULT_STATE_DIR,
    group: OPTIONS,
    help: 'the submission ledger: DIR/submit.sqlite (as generate and crawl; one ledger may serve many sites)',
  },
  'base-url': {
    type: 'string',
    value: 'URL',
    group: OPTIONS,
    help: 'what the relative URLs of a URL list resolve against, as "sitemapkit generate --base-url" resolves them',
  },
  all: { type: 'boolean', group: OPTIONS, help: 'send every URL of the source, changed or not (a first run too)' },
  'dry-run': {
    type: 'boolean',
    group: OPTIONS,
    help: 'check the key files and print the URLs that would be sent; send nothing and leave the ledger as it was',
  },
  ping: {
    type: 'list',
    value: 'URL_TEMPLATE',
    group: OPTIONS,
    help: `after a run that found changes, GET this URL with ${SITEMAP_PLACEHOLDER} replaced by the URL-encoded sitemap URL, for engines that still take a sitemap ping (repeatable; Google's and Bing's pings were retired)`,
  },
  'sitemap-url': {
    type: 'string',
    value: 'URL',
    group: OPTIONS,
    help: "the public URL of a local SOURCE's sitemap, for --ping (a URL SOURCE is its own; with --from-state, each site's sitemap.xml)",
  },
  json: {
    type: 'boolean',
    group: OPTIONS,
    help: "one JSON object: per host, the URLs due, sent, accepted and rejected with the reason, each request's answer; the pings",
  },
  quiet: { type: 'boolean', short: 'q', group: OPTIONS, help: 'print only problems' },
  'new-key': {
    type: 'boolean',
    group: OPTIONS,
    help: 'make a key (32 hexadecimal characters) and write its file KEY.txt into --out DIR, to be published at the root of the site',
  },
  out: { type: 'string', value: 'DIR', short: 'o', group: OPTIONS, help: 'where --new-key writes the key file' },
  ...networkFlags('single'),
});

type SubmitFlags = FlagValues<typeof FLAGS>;

export const command = defineCommand({
  spec: {
    name: 'submit',
    summary: 'Tell IndexNow what was added, changed or removed since the last submission.',
    usage:
      'sitemapkit submit (SOURCE | --from-state DIR) --key KEY [options]  |  sitemapkit submit --new-key --out DIR',
    description: `
Tells IndexNow (Bing, Yandex, Naver, Seznam, Yep and the others that share it) which URLs were
added, changed or removed since their last accepted submission, and nothing else. A ledger
remembers, per URL, the state last accepted; each run compares the source with it and sends
what differs, one host at a time, in requests of at most ${formatNumber(MAX_URLS_PER_REQUEST)} URLs.

SOURCE is what the site holds now, all of it:
  FILE, DIR, URL, SITE   sitemaps, as "sitemapkit diff" reads them (a file and the children of
                         its index, a directory of sitemaps, a sitemap URL or a site's whole tree)
  FILE.jsonl, FILE.csv   a URL list, as "sitemapkit generate" reads it (relative URLs need
                         --base-url); a .txt file is a text sitemap: one absolute URL per line
  -                      standard input
URLs the ledger knows on a host of the source that the source no longer lists were removed:
they are sent too (engines then recrawl them and find them gone), unless the source could not
be read whole. --from-state DIR takes the changes that "sitemapkit generate --state DIR"
recorded since the last submission instead of a SOURCE.

The first run for a host records its URLs as they are and sends none: IndexNow asks not to
submit history. --all sends them (and, on any run, every URL of the source). A URL is never sent
twice within 10 minutes: one submitted (or sent by a run that died before its answer) less than
10 minutes ago waits for a later run.

Before the first request for a host, its key file is checked as the engines check it:
{scheme}://{host}/{KEY}.txt (or --key-location) must answer 200 itself, no redirect, with the
key as its text. Answers: 200 and 202 are accepted (202: the engine is still checking the key);
400, 403 and 422 are explained and never retried (403: the key file; 422: URLs not on the host,
or a key that does not match); 429 and 5xx are retried with backoff, honouring Retry-After within
--max-wait. The first 2 KB of any other answer are shown. A URL is recorded as submitted only
once its request was accepted: a run stopped at any moment (Ctrl-C, kill -9) leaves the ledger
consistent, and the next run sends what was not accepted.`,
    flags: FLAGS,
    epilogue: `Exit status: 0 when everything due was accepted (or nothing was due); 1 when a key file is wrong,
URLs were refused or not sent, a ping failed, or the source could not be read whole; 2 on bad
usage.

Examples:
  sitemapkit submit --new-key --out public
  sitemapkit generate dist/ --base-url https://www.example.com/ --out dist --state .sitemapkit
  sitemapkit submit --from-state .sitemapkit --key 3f2a9c1b7d4e4f6a8b0c1d2e3f405162
  sitemapkit submit https://www.example.com/sitemap.xml --key 3f2a9c1b7d4e4f6a8b0c1d2e3f405162 --dry-run
  sitemapkit submit changed-pages.jsonl --key … --key-location https://www.example.com/keys/indexnow.txt`,
  },

  async run(args, io) {
    const { flags } = args;
    if (flags.newKey) return makeKey(flags, args.positionals, io);
    const settings = readSettings(flags, args.positionals);
    if (settings.source !== undefined) {
      const missing = await missingSource(settings.source);
      if (missing !== undefined) {
        io.stderr.write(`sitemapkit submit: ${forTerminal(missing)}\n`);
        return EXIT_FAILED;
      }
    }
    const { quiet } = flags;
    const problems = new ProblemPrinter(io, DEFAULT_MAX_PER_RULE);
    const progress = quiet || flags.json ? undefined : new ProgressLine(io);
    const interruption = listenForInterruption(() =>
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.(),
    );
    const network = readNetworkOptions(flags, io, { quiet });
    const http = new HttpClient({ ...network.http, signal: interruption.signal });
    const ledger = new SubmissionLedger(submissionLedgerPath(settings.stateDir));
    const { dryRun } = flags;
    const work = async (): Promise<SubmitReport> => {
      const run = ledger.beginRun(
        new Date(),
        settings.source ?? `--from-state ${settings.fromState}`,
        settings.endpoint,
        dryRun,
      );
      const observing = {
        ledger,
        run,
        onProblem: problems.print,
        onProgress: (urls: number) => progress?.update(() => `reading: ${formatNumber(urls)} URLs`),
      };
      const observed: Observed =
        settings.fromState !== undefined
          ? observeGenerateLedger(settings.fromState, observing)
          : await observeSource(settings.source!, {
              ...observing,
              set: { http, stdin: io.stdin, signal: interruption.signal, baseUrl: settings.baseUrl },
              sitemapUrl: settings.sitemapUrl,
            });
      if (settings.pings.length > 0 && observed.sitemaps.length === 0)
        throw new UsageError('--ping needs the sitemap URL: give --sitemap-url URL for a local SOURCE');
      progress?.clear();
      return submitChanges(ledger, run, observed, {
        key: settings.key,
        endpoint: settings.endpoint,
        keyLocations: settings.keyLocations,
        all: flags.all,
        dryRun,
        http,
        pings: settings.pings,
        signal: interruption.signal,
        onProblem: problems.print,
        onSent: (host, sent) => progress?.update(() => `${host}: ${formatNumber(sent)} URLs sent`),
        onBatch: (host, urls) => {
          if (dryRun && !flags.json && !quiet)
            io.stdout.write(urls.map((url) => `would send  ${forTerminal(url)}\n`).join(''));
        },
      });
    };
    let report: SubmitReport;
    try {
      report = dryRun ? await ledger.rehearse(work) : await work();
    } catch (error) {
      progress?.clear();
      if (!interruption.signal.aborted) throw error;
      io.stderr.write(
        `sitemapkit submit: ${String(interruption.signal.reason)}; what was accepted is recorded, the rest goes with the next run\n`,
      );
      return EXIT_FAILED;
    } finally {
      interruption.dispose();
      ledger.close();
      await http.close();
    }
    progress?.clear();
    problems.end();
    if (flags.json) io.stdout.write(`${JSON.stringify({ ...report, ledger: resolve(ledger.file) })}\n`);
    else if (!quiet) io.stdout.write(formatSubmitReport(report, ledger.file));
    return submitSucceeded(report) ? EXIT_OK : EXIT_FAILED;
  },
});

interface Settings {
  source: string | undefined;
  fromState: string | undefined;
  stateDir: string;
  key: string;
  keyLocations: string[];
  endpoint: string;
  pings: string[];
  sitemapUrl: string | undefined;
  baseUrl: string | undefined;
}

function readSettings(flags: SubmitFlags, positionals: readonly string[]): Settings {
  const { fromState, key } = flags;
  if (positionals.length > 1) throw new UsageError('give one SOURCE');
  const source = positionals[0];
  if (source === undefined && fromState === undefined)
    throw new UsageError('give a SOURCE (sitemaps, a URL list, a site) or --from-state DIR');
  if (source !== undefined && fromState !== undefined)
    throw new UsageError('give a SOURCE or --from-state DIR, not both');
  if (key === undefined)
    throw new UsageError('--key KEY is required (make one with "sitemapkit submit --new-key --out DIR")');
  if (!isValidKey(key))
    throw new UsageError(`--key must be 8 to 128 letters, digits and dashes (IN-001), not "${key}"`);
  const pings = flags.ping;
  for (const template of pings) {
    if (!template.includes(SITEMAP_PLACEHOLDER))
      throw new UsageError(
        `--ping ${template}: the template must hold ${SITEMAP_PLACEHOLDER}, where the sitemap URL goes`,
      );
    absoluteUrl(template.replaceAll(SITEMAP_PLACEHOLDER, 'x'), '--ping');
  }
  const { sitemapUrl } = flags;
  return {
    source,
    fromState,
    stateDir: flags.state,
    key,
    keyLocations: flags.keyLocation.map((url) => absoluteUrl(url, '--key-location')),
    endpoint: absoluteUrl(flags.endpoint, '--endpoint'),
    pings,
    sitemapUrl: sitemapUrl === undefined ? undefined : absoluteUrl(sitemapUrl, '--sitemap-url'),
    baseUrl: optionalBaseUrl(flags.baseUrl),
  };
}

function absoluteUrl(text: string, flag: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new UsageError(`${flag} must be an absolute http(s) URL, not "${text}"`);
  return text;
}

/** `--new-key --out DIR`: a new key and its file, with what to do next. */
async function makeKey(flags: SubmitFlags, positionals: readonly string[], io: Io): Promise<number> {
  const { out } = flags;
  if (out === undefined) throw new UsageError('--new-key writes the key file into --out DIR: give --out');
  if (positionals.length > 0 || flags.key !== undefined || flags.fromState !== undefined)
    throw new UsageError('--new-key makes a key and nothing else: give only --out DIR');
  const key = newKey();
  const file = join(out, `${key}.txt`);
  await mkdir(out, { recursive: true });
  // The key alone, no newline: exactly what engines compare.
  await writeFile(file, key, { flag: 'wx' });
  if (flags.json) io.stdout.write(`${JSON.stringify({ key, file: resolve(file) })}\n`);
  else
    io.stdout.write(
      `${key}\nWrote ${file}. Publish it at the root of the site (https://www.example.com/${key}.txt), then:\n` +
        `  sitemapkit submit SOURCE --key ${key}\n`,
    );
  return EXIT_OK;
}
