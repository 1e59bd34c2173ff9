/**
 * What an audit of one process (audit.ts) and an audit on workers (audit-run.ts) share: where the
 * outputs go, how they are written, and the exit code.
 */
import { writeFile } from 'node:fs/promises';
import type { AuditReport } from '../audit/report.js';
import type { AuditRow } from '../audit/rows.js';
import { resolveStart } from '../discover/tree.js';
import { auditHtml } from '../report/audit-html.js';
import { openRowsFile } from '../report/audit-rows.js';
import { formatAuditText } from '../report/audit-text.js';
import { formatNumber } from '../report/format.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../crawl/adapters.js';
import { DEFAULT_STATE_DIR } from '../store/site-database.js';
import type { Io } from './command.js';
import { defineFlags, type FlagValues } from './flags.js';
import { networkFlags } from './network-options.js';
import { nowFlag } from './now-option.js';
import { exitCode, problemsReached, PROBLEM_FLAGS, type FailOn } from './problem-options.js';
import { RUN_FLAGS } from './run-options.js';

const OUTPUT = 'Output';
const CHECKS = 'Checks';
export const EXIT_STATUS = 'Exit status (an audit stopped before the end always exits 1; continue it with --resume)';
const STATE = 'State';

/** The flags of `sitemapkit audit`, in one process or on workers. */
export const AUDIT_FLAGS = defineFlags({
  json: {
    type: 'boolean',
    group: OUTPUT,
    help: "the report as one JSON object: site, complete, sitemaps, urls, summary, checks (per finding: code, severity, title, count, the first 100 examples), siteChecks (the sitemaps' problems), charts",
  },
  rows: {
    type: 'string',
    value: 'FILE',
    group: OUTPUT,
    help: 'every row to FILE: JSON Lines, or CSV when FILE ends in .csv',
  },
  html: {
    type: 'string',
    value: 'FILE',
    group: OUTPUT,
    help: 'the report as one self-contained HTML file (charts, a table per finding with a filter box; no request leaves it; prints well)',
  },
  quiet: { type: 'boolean', short: 'q', group: OUTPUT, help: 'no progress line on stderr' },
  ...nowFlag(CHECKS, "the audit's clock, for reproducible reports (a resumed audit keeps its first run's)"),
  'max-urls': {
    type: 'integer',
    value: 'N',
    group: CHECKS,
    help: 'check a deterministic sample of N listed URLs (the same ones every run), stated in the report',
  },
  'max-depth': {
    type: 'integer',
    value: 'N',
    min: 0,
    default: 5,
    group: CHECKS,
    help: 'sitemap index levels followed below a root',
  },
  'max-page-bytes': {
    type: 'integer',
    value: 'N',
    default: DEFAULT_MAX_PAGE_BYTES,
    group: CHECKS,
    help: 'read at most N bytes of a page',
  },
  crawl: { type: 'boolean', group: CHECKS, help: 'also crawl the site from its home page, as "crawl" does' },
  'max-pages': { type: 'integer', value: 'N', group: CHECKS, help: 'with --crawl: request at most N pages' },
  'fail-on': {
    ...PROBLEM_FLAGS['fail-on'],
    group: EXIT_STATUS,
    help: 'error, warning, or never: the least severe finding that fails the audit (never: only an audit that could not finish exits 1)',
  },
  'max-errors': {
    type: 'integer',
    value: 'N',
    min: 0,
    default: 0,
    group: EXIT_STATUS,
    help: 'tolerate up to N findings at or above --fail-on: a budget for CI',
  },
  state: {
    type: 'string',
    value: 'DIR',
    group: STATE,
    defaultText: `${DEFAULT_STATE_DIR}/`,
    help: "where the audit's state lives: each URL checked is committed within a tenth of a second",
  },
  resume: {
    type: 'boolean',
    group: STATE,
    help: 'continue an interrupted audit of this site (Ctrl-C, SIGTERM, even kill -9) without checking a URL twice',
  },
  ...networkFlags('pool'),
  ...RUN_FLAGS,
});

export type AuditFlags = FlagValues<typeof AUDIT_FLAGS>;

/** Where and how an audit's outputs go, and what fails it: the same for one process and for a run. */
export interface AuditOutputs {
  rowsFile?: string | undefined;
  htmlFile?: string | undefined;
  json: boolean;
  color: boolean;
  failOn: FailOn;
  maxErrors: number;
}

export function readAuditOutputs(flags: AuditFlags, io: Io): AuditOutputs {
  const { rows: rowsFile, html: htmlFile } = flags;
  return {
    ...(rowsFile === undefined ? {} : { rowsFile }),
    ...(htmlFile === undefined ? {} : { htmlFile }),
    json: flags.json,
    color: io.isTerminal && !process.env.NO_COLOR,
    failOn: flags.failOn,
    maxErrors: flags.maxErrors,
  };
}

/**
 * Makes the report with `report` (its rows streamed to --rows on the way), then writes --html and
 * the summary (or --json) on stdout; resolves to the exit code.
 */
export async function writeAuditOutputs(
  outputs: AuditOutputs,
  io: Io,
  how: {
    report: (onRow: ((row: AuditRow) => Promise<void>) | undefined) => Promise<AuditReport>;
    stateFile?: string | undefined;
    beforeOutputs?: () => void;
  },
): Promise<number> {
  const rows = outputs.rowsFile === undefined ? undefined : openRowsFile(outputs.rowsFile);
  try {
    const report = await how.report(rows ? (row) => rows.write(row) : undefined);
    how.beforeOutputs?.();
    await rows?.close();
    if (outputs.htmlFile !== undefined) await writeFile(outputs.htmlFile, auditHtml(report));
    io.stdout.write(
      outputs.json
        ? `${JSON.stringify(report)}\n`
        : formatAuditText(report, {
            color: outputs.color,
            htmlFile: outputs.htmlFile,
            rowsFile: outputs.rowsFile,
            stateFile: how.stateFile,
          }),
    );
    return verdict(report, outputs.failOn, outputs.maxErrors, io);
  } finally {
    await rows?.close().catch(() => 0);
  }
}

/** The origin the state is named after: the site's, or the first sitemap URL's. */
export function siteOf(input: string | string[]): string {
  const start = resolveStart(typeof input === 'string' ? input : input[0]!);
  return start.mode === 'site' ? start.site : new URL(start.url).origin;
}

/**
 * The exit-code policy of every command (problem-options.ts), with a budget: 1 when the audit
 * stopped early or a sitemap could not be read whole (whatever --fail-on says), or its findings at
 * or above --fail-on are more than --max-errors.
 */
function verdict(report: AuditReport, failOn: FailOn, maxErrors: number, io: Io): number {
  const { sitemaps, summary } = report;
  const outcome = {
    failed: !report.complete || sitemaps.read === 0 || sitemaps.failed > 0,
    errors: summary.errors,
    warnings: summary.warnings,
    allowed: maxErrors,
  };
  const code = exitCode(outcome, failOn);
  const failing = problemsReached(outcome, failOn);
  if (failing > maxErrors) {
    const budget = maxErrors > 0 ? `, over the budget of ${formatNumber(maxErrors)} (--max-errors)` : '';
    io.stderr.write(
      `sitemapkit audit: ${formatNumber(failing)} finding${failing === 1 ? '' : 's'} at or above ${failOn}${budget}\n`,
    );
  }
  return code;
}
