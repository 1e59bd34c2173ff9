/**
 * What a submission run did, per host: the report `submit` builds (its --json form) and the lines
 * it prints.
 */
import { forTerminal } from '../core/terminal.js';
import { countOf, formatNumber } from './format.js';

export interface RequestReport {
  urls: number;
  status?: number;
  accepted: boolean;
  /** What the answer means, in a sentence; and the first 2 KB of an error answer's body. */
  outcome: string;
  body?: string;
}

export interface HostReport {
  host: string;
  /** The host's first run: its URLs recorded (`recorded`), none sent unless --all. */
  firstRun: boolean;
  recorded: number;
  /** URLs due (new, changed or removed since their last accepted submission). */
  due: number;
  /** Sent, accepted, and rejected (not accepted: refused or failed), over every request. */
  sent: number;
  accepted: number;
  rejected: number;
  /** Due but submitted less than ten minutes ago: left for a later run. */
  waiting: number;
  /** Due but not sent: outside the key file's folder, or after a refusal or a key file problem. */
  notSent: number;
  keyFiles: { url: string; ok: boolean }[];
  requests: RequestReport[];
  /** Why URLs were not sent or not accepted, in a sentence each. */
  reasons: string[];
}

export interface SubmitReport {
  run: number;
  dryRun: boolean;
  endpoint: string;
  /** False when the source was not read whole: no URL was taken for removed. */
  complete: boolean;
  /** URLs found removed since the last run (and so due, unless never accepted). */
  removed: number;
  hosts: HostReport[];
  pings: PingResult[];
}

export interface PingResult {
  url: string;
  status?: number;
  ok: boolean;
  outcome: string;
}

/** True when everything due was sent and accepted (or would be, in a dry run), every ping taken and the source read whole. */
export function submitSucceeded(report: SubmitReport): boolean {
  return (
    report.complete &&
    report.hosts.every((host) => host.rejected === 0 && host.notSent === 0 && host.keyFiles.every((k) => k.ok)) &&
    report.pings.every((ping) => ping.ok)
  );
}

/**
 * www.example.com: 3 URLs accepted (1 request: HTTP 200 OK: accepted)
 * shop.example.com: first run: 5,000 URLs recorded as they are; none sent (…)
 */
export function formatSubmitReport(report: SubmitReport, ledger: string): string {
  const lines: string[] = [];
  for (const host of report.hosts) lines.push(...hostLines(host, report.dryRun));
  if (!report.complete)
    lines.push('The source was not read whole (see above): no URL missing from it was taken for removed.');
  for (const ping of report.pings) lines.push(`ping ${ping.url}: ${ping.outcome}`);
  const due = report.hosts.reduce((n, host) => n + host.due, 0);
  const recorded = report.hosts.some((host) => host.firstRun);
  if (due === 0 && !recorded) lines.push(`Nothing new, changed or removed to submit since the last run.`);
  lines.push(
    report.dryRun
      ? `Dry run: nothing was sent, and the ledger (${ledger}) is as it was.`
      : `Run ${report.run}, recorded in ${ledger}.`,
  );
  return `${lines.map(forTerminal).join('\n')}\n`;
}

function hostLines(host: HostReport, dryRun: boolean): string[] {
  const lines: string[] = [];
  const name = `${host.host}:`;
  if (host.firstRun && host.recorded > 0)
    lines.push(
      `${name} first run: ${countOf(host.recorded, 'URL')} recorded as they are now, none sent (IndexNow asks not to submit history; --all sends them)`,
    );
  if (host.sent > 0) {
    const requests = countOf(host.requests.length, 'request');
    if (dryRun) lines.push(`${name} ${countOf(host.sent, 'URL')} would be sent in ${requests}`);
    else if (host.rejected === 0)
      lines.push(`${name} ${countOf(host.accepted, 'URL')} accepted (${requests}: ${lastOutcome(host)})`);
    else
      lines.push(
        `${name} ${formatNumber(host.accepted)} of ${countOf(host.sent, 'URL')} sent accepted; ${formatNumber(host.rejected)} not: ${lastOutcome(host)}`,
      );
  }
  if (host.notSent > 0) lines.push(`${name} ${countOf(host.notSent, 'URL')} due not sent: ${host.reasons[0] ?? ''}`);
  if (host.waiting > 0)
    lines.push(
      `${name} ${countOf(host.waiting, 'URL')} submitted less than 10 minutes ago ${host.waiting === 1 ? 'waits' : 'wait'} for a later run`,
    );
  return lines;
}

function lastOutcome(host: HostReport): string {
  const failed = host.requests.find((request) => !request.accepted);
  return (failed ?? host.requests.at(-1))?.outcome ?? '';
}
