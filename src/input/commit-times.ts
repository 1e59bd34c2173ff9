/**
 * When each file of a directory in a git checkout was last committed: what
 * `git log -1 --format=%cI -- FILE` says, for every file in one `git log` walk instead of one
 * process per file. The walk is read lazily, only as far as the pages asked for so far need, and
 * stopped once they are all found or the directory is done with.
 *
 * A file that git does not track, or that is modified in the working tree, has no commit time:
 * its last commit does not hold the content being published.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Marks the start of a commit in the walk's output (file names follow it, NUL-separated). */
const COMMIT_MARK = '\u0001';

/** The commit times of a directory, or why there are none (not in git, a shallow clone). */
export type CommitTimesOpening = { ok: true; times: CommitTimes } | { ok: false; reason: 'not-a-checkout' | 'shallow' };

/**
 * The last commit time of every file of a git work tree, read in one walk, for dating
 * build-directory pages on a first run.
 */
export class CommitTimes {
  private readonly times = new Map<string, string>();
  private readonly walk: ChildProcessByStdio<null, Readable, null>;
  private readonly output: AsyncIterator<Buffer>;
  /** The next chunk, asked for ahead: a stream nobody reads when git exits is drained and lost. */
  private nextChunk: Promise<IteratorResult<Buffer>>;
  private pending = '';
  private commitTime: string | undefined;
  private ended = false;

  private constructor(
    dir: string,
    private readonly modified: Set<string>,
  ) {
    // --relative: names relative to `dir`, and only those below it. -z: names exactly as they
    // are (no quoting of unusual characters).
    this.walk = spawn(
      'git',
      ['-C', dir, 'log', `--format=${COMMIT_MARK}%cI`, '--name-only', '-z', '--relative', '--', '.'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.walk.on('error', () => undefined); // reported as the end of the output
    this.output = (this.walk.stdout as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    this.nextChunk = this.askForChunk();
  }

  private askForChunk(): Promise<IteratorResult<Buffer>> {
    const next = this.output.next();
    next.catch(() => undefined); // a failed read ends the walk (readMore); never unhandled
    return next;
  }

  /**
   * The commit times of the files below `dir`, or why there are none: `dir` is not in a git
   * checkout (or git is not installed), or the checkout is shallow, where the oldest commit
   * present would claim every file.
   */
  static open(dir: string): CommitTimesOpening {
    const probe = git(dir, ['rev-parse', '--is-inside-work-tree', '--is-shallow-repository', '--show-prefix']);
    const [inside, shallow, prefix = ''] = probe?.trim().split('\n') ?? [];
    if (inside !== 'true') return { ok: false, reason: 'not-a-checkout' };
    if (shallow === 'true') return { ok: false, reason: 'shallow' };
    return { ok: true, times: new CommitTimes(dir, modifiedFiles(dir, prefix)) };
  }

  /** The last commit time (ISO 8601, as `%cI`) of the file at `path`, relative to the directory. */
  async timeOf(path: string): Promise<string | undefined> {
    if (this.modified.has(path)) return undefined;
    while (!this.times.has(path) && !this.ended) await this.readMore();
    return this.times.get(path);
  }

  /** Stops the walk (the directory is done with). */
  close(): void {
    this.ended = true;
    if (this.walk.exitCode === null) this.walk.kill();
  }

  private async readMore(): Promise<void> {
    const next = await this.nextChunk.catch((): IteratorResult<Buffer> => ({ done: true, value: undefined }));
    if (next.done) {
      this.ended = true;
      return;
    }
    this.nextChunk = this.askForChunk();
    const fields = (this.pending + next.value.toString('utf8')).split('\0');
    this.pending = fields.pop() ?? '';
    for (const field of fields) {
      const name = field.replace(/^\n/, '');
      if (name.startsWith(COMMIT_MARK)) this.commitTime = name.slice(COMMIT_MARK.length);
      // The walk goes from the newest commit back: the first time met is the last commit.
      else if (name !== '' && this.commitTime !== undefined && !this.times.has(name))
        this.times.set(name, this.commitTime);
    }
  }
}

/** Files below `dir` whose working copy differs from their last commit (staged or not), relative to `dir`. */
function modifiedFiles(dir: string, prefix: string): Set<string> {
  // Porcelain names are relative to the top of the checkout, whatever the directory.
  const fields = git(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--', '.'])?.split('\0') ?? [];
  const modified = new Set<string>();
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const path = field.slice(3);
    if (path.startsWith(prefix)) modified.add(path.slice(prefix.length));
    if (field[0] === 'R' || field[0] === 'C') i++; // a rename or copy: its old name follows
  }
  return modified;
}

/** The output of a short git command, or undefined when it fails (not a checkout, no git). */
function git(dir: string, args: string[]): string | undefined {
  const result = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return result.status === 0 ? result.stdout : undefined;
}
