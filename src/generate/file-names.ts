/**
 * The names a run gives its files in the output directory, and the names of its bookkeeping.
 *
 * - The entry point (what robots.txt names) depends on the options alone, never on the number of
 *   URLs: `<base>.xml`, or `<base>.xml.gz` with gzipIndex. A site that grows or shrinks keeps its
 *   robots.txt line.
 * - A shard is named after its position and its content: `<base>-<n>-<digest>.xml[.gz]`. A new
 *   shard can therefore never take the name of a live shard with other content (publication stays
 *   atomic: the live index only ever names complete files), and an unchanged shard keeps its name,
 *   so its file is left as it is (same bytes, same modification time).
 * - Bookkeeping files are hidden (a leading dot), so a build-directory walk and most deploy tools
 *   pass them by: `.<base>-lock`, `.<base>-manifest.json` and `.<base>-tmp-XXXXXX/`.
 */

/** Hex digits of the content digest kept in a shard's name: 48 bits, ample to tell versions of one shard apart. */
const DIGEST_CHARS = 12;

export function entryPointName(base: string, gzipIndex: boolean): string {
  return `${base}.xml${gzipIndex ? '.gz' : ''}`;
}

/** The shards' extension, without its dot: `xml`, `xml.gz`, `txt`, `txt.gz`. */
export function shardExtension(text: boolean, gzip: boolean): string {
  return `${text ? 'txt' : 'xml'}${gzip ? '.gz' : ''}`;
}

/**
 * Whether a set of `shards` is published as its one shard under the entry point's name (one plain
 * XML file, and no gzipped index asked for) rather than as an index of shards.
 */
export function isEntryPointItself(shards: number, extension: string, gzipIndex: boolean): boolean {
  return shards === 1 && extension === 'xml' && !gzipIndex;
}

/** `extension` without its dot: `xml`, `xml.gz`, `txt`, `txt.gz`. */
export function shardName(base: string, position: number, digest: string, extension: string): string {
  return `${base}-${position}-${digest.slice(0, DIGEST_CHARS)}.${extension}`;
}

/**
 * True for the names a run of this base name writes: its entry point (either form) and its shards.
 * A name in the manifest is removed only when it passes this test too, so a damaged or edited
 * manifest can never make a run delete anything else (another folder, a page of the site).
 */
export function isRunFileName(base: string, name: string): boolean {
  if (name === entryPointName(base, false) || name === entryPointName(base, true)) return true;
  const shard = /^(.*)-\d+-[0-9a-f]+\.(?:xml|txt)(?:\.gz)?$/.exec(name);
  return shard !== null && shard[1] === base;
}

export const lockFileName = (base: string): string => `.${base}-lock`;
export const manifestFileName = (base: string): string => `.${base}-manifest.json`;
export const tempFolderPrefix = (base: string): string => `.${base}-tmp-`;
