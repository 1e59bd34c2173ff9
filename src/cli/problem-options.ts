/**
 * The problem flags and the exit-code policy, shared by every command that reports problems
 * (generate, parse, validate, tree, crawl, and the commands to come): declared once, documented
 * once, read once. A new command spreads PROBLEM_OPTIONS into its options, puts
 * PROBLEM_OPTIONS_HELP in its help, calls readProblemOptions, and ends with exitCode.
 *
 * The policy is ESLint's, which users of curl and git also read without surprise: 0 the work was
 * done and found nothing at or above --fail-on; 1 it found such problems, or the work itself
 * failed (an input that cannot be read, an output that cannot be written, an interruption); 2
 * the command line was wrong. `--fail-on never` silences only the problems found, never a
 * failed run: a CI job must not pass on a site it could not read.
 */
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  integerFlag,
  stringFlag,
  type CommandSpec,
  type ParsedArgs,
} from './command.js';

export type FailOn = 'error' | 'warning' | 'never';

const FAIL_ON_LEVELS: readonly FailOn[] = ['error', 'warning', 'never'];

/** Problems printed of each rule before the rest are only counted. */
export const DEFAULT_MAX_PER_RULE = 20;

export const PROBLEM_OPTIONS: CommandSpec['options'] = {
  'fail-on': { type: 'string' },
  'max-per-rule': { type: 'string' },
};

export const PROBLEM_OPTIONS_HELP = `Problems:
  --max-per-rule N       print at most N problems of each rule code, then count the rest
                         (default ${DEFAULT_MAX_PER_RULE}; 0 prints all)
  --fail-on LEVEL        the least severe problem that fails the run (exit 1): error (the
                         default), warning, or never (only a failed run exits 1)`;

export interface ProblemSettings {
  failOn: FailOn;
  /** Problems printed per rule code; 0: all. */
  maxPerRule: number;
}

export function readProblemOptions(args: ParsedArgs): ProblemSettings {
  const failOn = stringFlag(args, 'fail-on') ?? 'error';
  if (!(FAIL_ON_LEVELS as readonly string[]).includes(failOn))
    throw new UsageError(`--fail-on must be error, warning or never, not "${failOn}"`);
  return {
    failOn: failOn as FailOn,
    maxPerRule: integerFlag(args, 'max-per-rule', DEFAULT_MAX_PER_RULE, { min: 0 }),
  };
}

/** What a run ends with: whether its work failed, and the problems it found (counted, shown or not). */
export interface RunOutcome {
  /** The work itself failed: an input not read (whole), an output not written, an interruption. */
  failed?: boolean;
  errors: number;
  warnings: number;
}

/** The exit code of the policy: 1 when the work failed or a problem reached --fail-on, else 0. */
export function exitCode(outcome: RunOutcome, failOn: FailOn): number {
  if (outcome.failed === true) return EXIT_FAILED;
  const fails =
    (failOn === 'error' && outcome.errors > 0) || (failOn === 'warning' && outcome.errors + outcome.warnings > 0);
  return fails ? EXIT_FAILED : EXIT_OK;
}
