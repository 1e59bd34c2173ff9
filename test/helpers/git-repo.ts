/** A real git repository in a temporary folder, with commits made at the times a test chooses. */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

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
