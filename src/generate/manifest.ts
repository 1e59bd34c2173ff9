/**
 * The manifest: the record, beside the output, of the files runs have put in the output
 * directory and not yet removed. It is what makes a file a run's own: a run removes a file only
 * when the manifest lists it (and its name is one a run writes), never because its name looks
 * like a sitemap's: a `sitemap-7.xml` of the site's own is never touched.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDirectory, syncFile } from './durable.js';
import { isRunFileName, manifestFileName } from './file-names.js';

interface ManifestJson {
  /** Says what wrote the file, for a person who finds it. */
  generator: 'sitemapkit';
  files: string[];
}

/** The files the last run recorded; an absent or unreadable manifest records nothing. */
export async function readManifest(outDir: string, base: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(join(outDir, manifestFileName(base)), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw error;
  }
  try {
    const { files } = JSON.parse(text) as Partial<ManifestJson>;
    if (!Array.isArray(files)) return new Set();
    return new Set(files.filter((name): name is string => typeof name === 'string' && isRunFileName(base, name)));
  } catch {
    return new Set();
  }
}

/**
 * Records `files` as the run's own. Written beside the final name and renamed over it, so a
 * reader (the next run, after a kill -9 or a power cut) finds the old record or the new one,
 * never half of one.
 */
export async function writeManifest(
  outDir: string,
  base: string,
  files: Iterable<string>,
  scratch: string,
): Promise<void> {
  const manifest: ManifestJson = { generator: 'sitemapkit', files: [...new Set(files)].sort() };
  const next = join(scratch, 'manifest.json');
  await writeFile(next, `${JSON.stringify(manifest, null, 1)}\n`);
  await syncFile(next);
  await rename(next, join(outDir, manifestFileName(base)));
  await syncDirectory(outDir);
}
