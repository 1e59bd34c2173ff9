/**
 * One submission run: what the sites look like now goes into the ledger (observe.ts), a host's
 * first run is recorded as its baseline and nothing of it is sent (IndexNow asks not to submit
 * history; --all sends it), and every URL new, changed or removed since its last accepted
 * submission is sent to IndexNow, a host at a time, in batches of at most 10,000, after its key
 * file was checked. A URL accepted (or sent without a recorded answer) less than ten minutes ago
 * waits for a later run. Then the sitemap pings, when asked for and something changed.
 *
 * Each request is recorded before it is sent, and its URLs marked submitted in the transaction that
 * records its acceptance: a run killed at any moment leaves the ledger consistent, and the next run
 * sends again what was not accepted (or waits out the window of a request whose answer was lost).
 */
import { Batcher } from '../core/batches.js';
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { HttpClient } from '../http/client.js';
import type { DueUrl, SubmissionLedger } from '../store/submission-ledger.js';
import { MAX_URLS_PER_REQUEST, submitBatch } from './indexnow.js';
import { checkKeyFile, covers, keyFileFor, type KeyFile } from './key-file.js';
import type { Observed } from './observe.js';
import { ping } from './ping.js';
import type { HostReport, SubmitReport } from '../report/submit.js';

/** Never the same URL twice within this time. */
export const RESUBMIT_WINDOW_MS = 10 * 60_000;

export interface SubmitOptions {
  key: string;
  endpoint: string;
  /** --key-location URLs, each for its host. */
  keyLocations: readonly string[];
  /** Send every URL of the source (a first run too), not only what changed. */
  all: boolean;
  /** Check and count, send nothing (the caller rolls the ledger back). */
  dryRun: boolean;
  http: HttpClient;
  /** --ping templates, `{sitemap}` standing for the URL-encoded sitemap URL. */
  pings: readonly string[];
  now?: (() => Date) | undefined;
  signal?: AbortSignal | undefined;
  onProblem?: ((problem: Diagnostic) => void) | undefined;
  /** After each request: the host, and URLs sent so far in the run. */
  onSent?: ((host: string, sent: number) => void) | undefined;
  /** Before each request (or instead of it, with dryRun): the host and the URLs of the batch. */
  onBatch?: ((host: string, urls: readonly string[]) => void) | undefined;
}

export async function submitChanges(
  ledger: SubmissionLedger,
  run: number,
  observed: Observed,
  options: SubmitOptions,
): Promise<SubmitReport> {
  const now = options.now ?? (() => new Date());
  const reports = new Map<string, HostReport>();
  const reportOf = (host: string) => {
    let report = reports.get(host);
    if (!report) reports.set(host, (report = emptyReport(host)));
    return report;
  };
  for (const host of observed.firstRun) {
    const report = reportOf(host);
    report.firstRun = true;
    if (options.all) ledger.recordHost(host, now());
    else report.recorded = ledger.recordBaseline(host, now(), run);
  }
  const unanswered = ledger.unansweredSince(new Date(now().getTime() - RESUBMIT_WINDOW_MS).toISOString());
  let sent = 0;
  for (const host of ledger.hostsDue(run, options.all)) {
    const sender = new HostSender(ledger, run, reportOf(host), options, unanswered, now);
    await sender.send((count) => {
      sent += count;
      options.onSent?.(host, sent);
    });
  }
  const hosts = [...reports.values()].sort((a, b) => (a.host < b.host ? -1 : 1));
  const changed = hosts.some((host) => host.due > 0);
  const pings =
    options.pings.length === 0 || !(changed || options.all)
      ? []
      : await ping(options.http, options.pings, observed.sitemaps, {
          dryRun: options.dryRun,
          signal: options.signal,
          onProblem: options.onProblem,
        });
  return {
    run,
    dryRun: options.dryRun,
    endpoint: options.endpoint,
    complete: observed.complete,
    removed: observed.removed,
    hosts,
    pings,
  };
}

function emptyReport(host: string): HostReport {
  return {
    host,
    firstRun: false,
    recorded: 0,
    due: 0,
    sent: 0,
    accepted: 0,
    rejected: 0,
    waiting: 0,
    notSent: 0,
    keyFiles: [],
    requests: [],
    reasons: [],
  };
}

/** The due URLs of one host, checked against their key files and sent in batches. */
class HostSender {
  /** Key files by origin, with what is wrong with each (undefined: it is right). */
  private readonly keyFiles = new Map<string, { keyFile: KeyFile; problem: Diagnostic | undefined }>();
  /** URLs gathered for a request, by key file. */
  private readonly batches = new Map<string, Batcher<DueUrl, Promise<void>>>();
  /** Set once the host is not sent to again in this run: the same request would fail. */
  private stopped = false;
  private outside = 0;

  constructor(
    private readonly ledger: SubmissionLedger,
    private readonly run: number,
    private readonly report: HostReport,
    private readonly options: SubmitOptions,
    private readonly unanswered: ReadonlySet<string>,
    private readonly now: () => Date,
  ) {}

  async send(onSent: (count: number) => void): Promise<void> {
    const { report, options } = this;
    const acceptedBefore = new Date(this.now().getTime() - RESUBMIT_WINDOW_MS).toISOString();
    // By URL, after the last one read: URLs refused stay due and must not be read again.
    for (let after = ''; ;) {
      const page = this.ledger.due(report.host, {
        run: this.run,
        all: options.all,
        after,
        limit: MAX_URLS_PER_REQUEST,
        acceptedBefore,
        unanswered: this.unanswered,
      });
      if (page.last === undefined) break;
      after = page.last;
      report.due += page.urls.length + page.waiting.length;
      report.waiting += page.waiting.length;
      for (const url of page.urls) {
        const keyFile = this.stopped ? undefined : await this.keyFileFor(url.loc);
        if (keyFile === undefined) {
          report.notSent += 1;
          continue;
        }
        let batch = this.batches.get(keyFile.url);
        if (!batch) {
          batch = new Batcher(MAX_URLS_PER_REQUEST, (urls) => this.sendBatch(keyFile, urls, onSent));
          this.batches.set(keyFile.url, batch);
        }
        await batch.add(url);
      }
    }
    for (const batch of this.batches.values()) {
      if (this.stopped) report.notSent += batch.drop().length;
      else await batch.flush();
    }
    if (this.outside > 0) {
      const problem = diagnostic(
        'IN-003',
        `${this.outside} due URL${this.outside === 1 ? ' is' : 's are'} outside the folder of the key file ${this.keyFiles.values().next().value?.keyFile.url ?? ''}: not sent (a key location covers only URLs under its folder)`,
        { url: report.host },
      );
      this.options.onProblem?.(problem);
      report.reasons.push(problem.message);
    }
  }

  /** The key file covering `loc` when it is right; undefined (with the problem told once) otherwise. */
  private async keyFileFor(loc: string): Promise<KeyFile | undefined> {
    const origin = new URL(loc).origin;
    let checked = this.keyFiles.get(origin);
    if (checked === undefined) {
      const keyFile = keyFileFor(origin, this.options.key, this.options.keyLocations);
      const problem = await checkKeyFile(this.options.http, keyFile, this.options.key, this.options.signal);
      this.keyFiles.set(origin, (checked = { keyFile, problem }));
      this.report.keyFiles.push({ url: keyFile.url, ok: problem === undefined });
      if (problem) {
        this.options.onProblem?.(problem);
        this.report.reasons.push(problem.message);
      }
    }
    if (checked.problem) return undefined;
    if (!covers(checked.keyFile, loc)) {
      this.outside += 1;
      return undefined;
    }
    return checked.keyFile;
  }

  private async sendBatch(keyFile: KeyFile, urls: DueUrl[], onSent: (count: number) => void): Promise<void> {
    const { report, options } = this;
    const locs = urls.map((url) => url.loc);
    options.onBatch?.(report.host, locs);
    report.sent += urls.length;
    if (options.dryRun) {
      report.requests.push({ urls: urls.length, accepted: false, outcome: 'not sent: --dry-run' });
      onSent(urls.length);
      return;
    }
    const sending = this.ledger.recordSending(this.run, report.host, options.endpoint, urls, this.now());
    const answer = await submitBatch(
      options.http,
      options.endpoint,
      { host: report.host, key: options.key, keyLocation: keyFile.named ? keyFile.url : undefined, urlList: locs },
      { keyFile: keyFile.url, signal: options.signal },
    );
    this.ledger.recordAnswer(
      sending,
      { status: answer.status, accepted: answer.accepted, outcome: answer.meaning },
      this.now(),
    );
    report.requests.push({
      urls: urls.length,
      ...(answer.status === undefined ? {} : { status: answer.status }),
      accepted: answer.accepted,
      outcome: answer.meaning,
      ...(answer.body === undefined ? {} : { body: answer.body }),
    });
    if (answer.accepted) report.accepted += urls.length;
    else {
      report.rejected += urls.length;
      report.reasons.push(answer.meaning);
      this.stopped = true;
      options.onProblem?.(
        diagnostic(
          'IN-005',
          `${report.host}: ${urls.length} URL${urls.length === 1 ? '' : 's'} not accepted: ${answer.meaning}${answer.body ? `; the answer: ${answer.body.replace(/\s+/g, ' ').trim()}` : ''}`,
          { url: options.endpoint },
        ),
      );
    }
    onSent(urls.length);
  }
}
