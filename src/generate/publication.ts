/**
 * Atomic publication of a set of sitemap files. Everything is written into a hidden temporary
 * folder inside the output directory (same file system, so renames are atomic); only when the
 * whole set is complete are the files renamed into place — shards first, the index or entry
 * file last, so a reader never meets an index that names a missing shard. Files of a previous
 * run that the new set does not replace are removed only after that.
 */
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

export class Publication {
  private constructor(
    readonly outDir: string,
    readonly tempDir: string,
    private readonly baseName: string,
  ) {}

  static async begin(outDir: string, baseName: string): Promise<Publication> {
    await mkdir(outDir, { recursive: true });
    const tempDir = await mkdtemp(join(outDir, `.${baseName}-tmp-`));
    return new Publication(outDir, tempDir, baseName);
  }

  /** Path of a file being written, before publication. */
  tempPath(tempName: string): string {
    return join(this.tempDir, tempName);
  }

  /**
   * Renames each temporary file to its final name, in the order given, then removes the files
   * of earlier runs (same base name, a sitemap extension) that are not part of the new set.
   * Returns the names removed.
   */
  async commit(files: { tempName: string; name: string }[]): Promise<string[]> {
    for (const file of files) await rename(this.tempPath(file.tempName), join(this.outDir, file.name));
    await rm(this.tempDir, { recursive: true, force: true });
    const kept = new Set(files.map((file) => file.name));
    const ours = new RegExp(`^${escapeRegExp(this.baseName)}(?:-\\d+)?\\.(?:xml|txt)(?:\\.gz)?$`);
    const stale = (await readdir(this.outDir)).filter((name) => ours.test(name) && !kept.has(name)).sort();
    for (const name of stale) await rm(join(this.outDir, name), { force: true });
    return stale;
  }

  /** Throws away everything written: the output directory is as it was before. */
  async abort(): Promise<void> {
    await rm(this.tempDir, { recursive: true, force: true });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
