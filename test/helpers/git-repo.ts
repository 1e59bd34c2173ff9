/** A real git repository in a temporary folder, with commits made at the times a test chooses. */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Settings that make git run a program (filters and diff drivers named `evil` in .gitattributes). */
const PROGRAM_SETTINGS = [
  'core.fsmonitor',
  'core.pager',
  'core.sshCommand',
  'diff.external',
  'diff.evil.textconv',
  'filter.evil.clean',
  'filter.evil.smudge',
  'gpg.program',
  'pager.log',
];
/** Hooks git may call while only reading. */
const READ_HOOKS = ['post-index-change', 'reference-transaction', 'post-checkout', 'pre-auto-gc'];

export class GitRepository {
  constructor(readonly dir: string) {}

  static async init(dir: string): Promise<GitRepository> {
    await mkdir(dir, { recursive: true });
    const repository = new GitRepository(dir);
    repository.git('init', '--quiet', '--initial-branch=main');
    return repository;
  }

  /** Runs git in the repository, as a fixed author and committer, with no user or system configuration. */
  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, encoding: 'utf8', env: this.env() });
  }

  async write(path: string, content: string): Promise<void> {
    await mkdir(dirname(join(this.dir, path)), { recursive: true });
    await writeFile(join(this.dir, path), content);
  }

  /** Commits `paths` (added first) with the committer date `at`. */
  commit(paths: string[], at: string, message = `commit at ${at}`): void {
    this.git('add', '--', ...paths);
    execFileSync('git', ['commit', '--quiet', '-m', message], {
      cwd: this.dir,
      env: { ...this.env(), GIT_COMMITTER_DATE: at, GIT_AUTHOR_DATE: at },
    });
  }

  /**
   * From here on, every setting that names a program names one that leaves a mark in a file of
   * `scratch`, and so does every hook git may call on a read; the marks left are read with the
   * function returned ('no mark' when none is).
   */
  async turnHostile(scratch: string): Promise<() => Promise<string>> {
    const marks = join(scratch, 'marks');
    const program = join(scratch, 'leave-a-mark.sh');
    await writeFile(program, `#!/bin/sh\necho "$0 $*" >> '${marks}'\ncat\n`, { mode: 0o755 });
    for (const key of PROGRAM_SETTINGS) this.git('config', key, program);
    this.git('config', 'log.showSignature', 'true');
    for (const hook of READ_HOOKS)
      await writeFile(join(this.dir, '.git', 'hooks', hook), `#!/bin/sh\necho "${hook}" >> '${marks}'\n`, {
        mode: 0o755,
      });
    return () => readFile(marks, 'utf8').catch(() => 'no mark');
  }

  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    };
  }
}
