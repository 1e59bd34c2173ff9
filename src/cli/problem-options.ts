/**
 * The problem flags and the exit-code policy, shared by every command that reports problems
 * (generate, parse, validate, tree, crawl, and the commands to come): declared once, documented
 * once, read once. A new command spreads PROBLEM_FLAGS into its flag table, reads
 * `flags.failOn` and `flags.maxPerRule`, and ends with exitCode.
 *
 * The policy is ESLint's, which users of curl and git also read without surprise: 0 the work was
 * done and found nothing at or above --fail-on; 1 it found such problems, or the work itself
 * failed (an input that cannot be read, an output that cannot be written, an interruption); 2
 * the command line was wrong. `--fail-on never` silences only the problems found, never a
 * failed run: a CI job must not pass on a site it could not read.
 */
import { EXIT_FAILED, EXIT_OK } from './command.js';
import { defineFlags } from './flags.js';
import { readWhole, type ReadOutcome } from '../core/outcome.js';
import { formatNumber } from '../report/format.js';

/** Problems printed of each rule before the rest are only counted. */
export const DEFAULT_MAX_PER_RULE = 20;

export const PROBLEMS = 'Problems';

export const PROBLEM_FLAGS = defineFlags({
  'max-per-rule': {
    type: 'integer',
    value: 'N',
    min: 0,
    default: DEFAULT_MAX_PER_RULE,
    group: PROBLEMS,
    help: 'print at most N problems of each rule code, then count the rest (0 prints all)',
  },
  'fail-on': {
    type: 'choice',
    value: 'LEVEL',
    choices: ['error', 'warning', 'never'],
    default: 'error',
    group: PROBLEMS,
    help: 'the least severe problem that fails the run (exit 1): error, warning, or never (only a failed run exits 1)',
  },
});

export type FailOn = (typeof PROBLEM_FLAGS)['fail-on']['choices'][number];

export interface ProblemSettings {
  failOn: FailOn;
  /** Problems printed per rule code; 0: all. */
  maxPerRule: number;
}

/** What a run ends with: how its documents were read, whether other work failed, and the problems it found. */
export interface RunOutcome {
  /** How each document of the run was read (core/outcome.ts): one not read whole fails the run. */
  documents?: Iterable<ReadOutcome> | undefined;
  /** Other work failed: nothing found to read, an output not written, an interruption. */
  failed?: boolean | undefined;
  /** Problems counted (remembered ones replayed included), shown or not. */
  errors: number;
  warnings: number;
  /** Problems at or above --fail-on let pass before the run fails (audit's --max-errors; default 0). */
  allowed?: number | undefined;
}

/**
 * The exit code of every command: 1 when a document was not read whole or other work failed
 * (whatever --fail-on says), or when more than `allowed` problems reached --fail-on; else 0.
 */
export function exitCode(outcome: RunOutcome, failOn: FailOn): number {
  if (outcome.failed === true) return EXIT_FAILED;
  for (const read of outcome.documents ?? []) if (!readWhole(read)) return EXIT_FAILED;
  return problemsReached(outcome, failOn) > (outcome.allowed ?? 0) ? EXIT_FAILED : EXIT_OK;
}

/** The problems at or above --fail-on (0 with never). */
export function problemsReached(outcome: Pick<RunOutcome, 'errors' | 'warnings'>, failOn: FailOn): number {
  if (failOn === 'never') return 0;
  return failOn === 'error' ? outcome.errors : outcome.errors + outcome.warnings;
}

/**
 * The exit code of outputs written against a budget (an audit's --max-errors): 1 when they failed
 * (whatever --fail-on says), or when their problems at or above --fail-on are more than allowed,
 * which stderr is told.
 */
export function budgetExitCode(
  command: string,
  written: { failures: readonly string[]; errors: number; warnings: number },
  budget: { failOn: FailOn; allowed: number },
  stderr: { write(chunk: string): unknown },
): number {
  const outcome = { failed: written.failures.length > 0, ...written, allowed: budget.allowed };
  const failing = problemsReached(outcome, budget.failOn);
  if (failing > budget.allowed) {
    const over = budget.allowed > 0 ? `, over the budget of ${formatNumber(budget.allowed)} (--max-errors)` : '';
    stderr.write(
      `sitemapkit ${command}: ${formatNumber(failing)} finding${failing === 1 ? '' : 's'} at or above ${budget.failOn}${over}\n`,
    );
  }
  return exitCode(outcome, budget.failOn);
}
