/**
 * git run on a checkout that nobody vouches for (a build folder given to `generate`). A
 * repository's own `.git/config` and `.gitattributes` can name programs for git to run: a
 * file-system monitor, hooks, a pager, external diffs, text conversions, clean filters, an ssh
 * command. Reading commit times must run none of them, as `git` itself promises only for the
 * plumbing commands with these settings: every setting that names a program is turned off on
 * the command line (which wins over the repository's file), and only plumbing commands that
 * never look at the working tree (rev-parse, rev-list, diff-tree, ls-tree) are called.
 */
import type { SpawnOptions } from 'node:child_process';

/** Settings that would run a program, each turned off; `-c` on the command line wins over every file. */
const NO_PROGRAMS = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.askPass=',
  'core.sshCommand=false',
  'core.gitProxy=',
  'core.alternateRefsCommand=',
  'credential.helper=',
  'diff.external=',
  'log.showSignature=false',
  'gpg.program=false',
  // No fetch of any kind (a partial clone fetches missing objects on demand, through ssh).
  'protocol.allow=never',
];

/** The arguments of a git command run in `dir` with no program of the repository's choosing. */
export function safeGitArgs(dir: string, args: readonly string[]): string[] {
  return [...NO_PROGRAMS.flatMap((setting) => ['-c', setting]), '--no-pager', '-C', dir, ...args];
}

/** The environment for such a command: no system-wide configuration, no prompt, no lock taken. */
export function safeGitEnv(): NonNullable<SpawnOptions['env']> {
  const env: NonNullable<SpawnOptions['env']> = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
  };
  delete env['GIT_EXTERNAL_DIFF'];
  return env;
}
