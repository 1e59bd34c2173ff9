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
import { booleanFlag, integerFlag, legacyFlagValues, stringFlag, type Io, type ParsedArgs } from './command.js';
import { exitCode, problemsReached, PROBLEM_FLAGS, type FailOn } from './problem-options.js';

/** Where and how an audit's outputs go, and what fails it: the same for one process and for a run. */
export interface AuditOutputs {
  rowsFile?: string | undefined;
  htmlFile?: string | undefined;
  json: boolean;
  color: boolean;
  failOn: FailOn;
  maxErrors: number;
}

export function readAuditOutputs(args: ParsedArgs, io: Io): AuditOutputs {
  const rowsFile = stringFlag(args, 'rows');
  const htmlFile = stringFlag(args, 'html');
  return {
    ...(rowsFile === undefined ? {} : { rowsFile }),
    ...(htmlFile === undefined ? {} : { htmlFile }),
    json: booleanFlag(args, 'json'),
    color: io.isTerminal && !process.env.NO_COLOR,
    failOn: legacyFlagValues(PROBLEM_FLAGS, args).failOn,
    maxErrors: integerFlag(args, 'max-errors', 0, { min: 0 }),
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
