/**
 * When each file of a directory in a git checkout was last committed: what
 * `git log -1 --format=%cI -- FILE` says, for every file in one walk of the history instead of one
 * process per file. The walk is read lazily, only as far as the pages asked for so far need, and
 * stopped once they are all found or the directory is done with.
 *
 * A file that git does not track, or whose content differs from its last commit, has no commit
 * time: its last commit does not hold the content being published. The content is compared by
 * hashing the file here, as git names a blob, so that git never reads the working tree (where a
 * checkout's own filters and file-system monitor would run: see safe-git.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { safeGitArgs, safeGitEnv } from './safe-git.js';

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
  /** The commits that touched the directory, newest first, fed to `walk`. */
  private readonly commits: ChildProcess;
  /** The files each of those commits changed. */
  private readonly walk: ChildProcess;
  private readonly output: AsyncIterator<Buffer>;
  /** The next chunk, asked for ahead: a stream nobody reads when git exits is drained and lost. */
  private nextChunk: Promise<IteratorResult<Buffer>>;
  private pending = '';
  private commitTime: string | undefined;
  private ended = false;

  private constructor(
    private readonly dir: string,
    /** The blob each tracked file below `dir` holds in HEAD, by path relative to `dir`. */
    private readonly committed: Map<string, string>,
    private readonly objectFormat: string,
  ) {
    // `git log --name-only` in plumbing: rev-list walks the history of the directory (with the
    // same simplification), diff-tree names the files each commit changed. --relative: names
    // relative to `dir`, and only those below it. -z: names exactly as they are (no quoting).
    const env = safeGitEnv();
    this.commits = spawn('git', safeGitArgs(dir, ['rev-list', 'HEAD', '--', '.']), {
      stdio: ['ignore', 'pipe', 'ignore'],
      env,
    });
    const walkArgs = ['diff-tree', '--stdin', '-r', '--root', '--name-only', '-z', '--relative', '--no-renames'];
    this.walk = spawn('git', safeGitArgs(dir, [...walkArgs, `--format=${COMMIT_MARK}%cI`, '--', '.']), {
      stdio: [this.commits.stdout!, 'pipe', 'ignore'],
      env,
    });
    this.commits.on('error', () => undefined); // no git: the walk ends at once
    this.walk.on('error', () => undefined); // reported as the end of the output
    this.output = (this.walk.stdout as Readable & AsyncIterable<Buffer>)[Symbol.asyncIterator]();
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
    if (!mayBeInCheckout(dir)) return { ok: false, reason: 'not-a-checkout' };
    const probe = git(dir, ['rev-parse', '--is-inside-work-tree', '--is-shallow-repository', '--show-object-format']);
    const [inside, shallow, objectFormat = 'sha1'] = probe?.trim().split('\n') ?? [];
    if (inside !== 'true') return { ok: false, reason: 'not-a-checkout' };
    if (shallow === 'true') return { ok: false, reason: 'shallow' };
    return { ok: true, times: new CommitTimes(dir, committedBlobs(dir), objectFormat) };
  }

  /** The last commit time (ISO 8601, as `%cI`) of the file at `path`, relative to the directory. */
  async timeOf(path: string): Promise<string | undefined> {
    const blob = this.committed.get(path);
    if (blob === undefined || (await this.blobOf(path)) !== blob) return undefined;
    while (!this.times.has(path) && !this.ended) await this.readMore();
    return this.times.get(path);
  }

  /** The paths of the files below the directory that HEAD holds, relative to it. */
  trackedPaths(): IterableIterator<string> {
    return this.committed.keys();
  }

  /** Stops the walk (the directory is done with). */
  close(): void {
    this.ended = true;
    for (const child of [this.walk, this.commits]) if (child.exitCode === null) child.kill();
  }

  /** The name git gives the file's content as a blob (`git hash-object`, with no filter), or undefined when unreadable. */
  private async blobOf(path: string): Promise<string | undefined> {
    const content = await readFile(join(this.dir, path)).catch(() => undefined);
    if (content === undefined) return undefined;
    const hash = createHash(this.objectFormat === 'sha256' ? 'sha256' : 'sha1');
    return hash.update(`blob ${content.length}\0`).update(content).digest('hex');
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

/** The blob of every file below `dir` in HEAD, by path relative to `dir` (none in a repository with no commit). */
function committedBlobs(dir: string): Map<string, string> {
  const blobs = new Map<string, string>();
  // Each record: "<mode> <type> <object>\t<path>"; ls-tree names paths relative to `dir`.
  for (const record of git(dir, ['ls-tree', '-r', '-z', 'HEAD', '--', '.'])?.split('\0') ?? []) {
    const tab = record.indexOf('\t');
    const [, type, object] = record.slice(0, tab).split(' ');
    if (tab > 0 && type === 'blob' && object !== undefined) blobs.set(record.slice(tab + 1), object);
  }
  return blobs;
}

/** The output of a short git command, or undefined when it fails (not a checkout, no git). */
function git(dir: string, args: string[]): string | undefined {
  const result = spawnSync('git', safeGitArgs(dir, args), {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: safeGitEnv(),
  });
  return result.status === 0 ? result.stdout : undefined;
}

/**
 * False when no `.git` stands in `dir` or above it (and GIT_DIR names none): git could find no
 * checkout, so it is not started (a build folder outside git is the common case).
 */
function mayBeInCheckout(dir: string): boolean {
  if (process.env['GIT_DIR'] !== undefined) return true;
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return true;
    if (dirname(folder) === folder) return false;
  }
}
