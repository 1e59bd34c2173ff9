/**
 * Entries → a published set of sitemaps: each entry is checked (prepareEntry), de-duplicated,
 * serialised and appended to the current shard; a new shard starts before a limit would be
 * crossed (URLs, bytes, or 1,000 news entries); the set is published atomically (Publication).
 *
 * The entry point is `<base>.xml` (`<base>.xml.gz` with gzipIndex) whatever the number of URLs
 * (file-names.ts): the urlset itself when one plain XML file holds every URL, otherwise an index
 * of the shards (always with gzip, gzipIndex or the text format, whose files cannot bear that name).
 */
import { LIMITS, diagnostic, joinUrl, type Diagnostic, type UrlEntry } from '../core/index.js';
import { FingerprintSet } from '../core/fingerprint-set.js';
import { GenerateError, entryTooLarge, tooManyFiles } from './errors.js';
import { entryPointName, isEntryPointItself, shardExtension, shardName } from './file-names.js';
import { prepareEntry, type PrepareContext } from './prepare.js';
import { Publication, type NewFile, type PendingFile } from './publication.js';
import {
  SITEMAPINDEX_CLOSE,
  URLSET_CLOSE,
  extensionBits,
  extensionNames,
  serializeSitemapRef,
  serializeTextLine,
  serializeUrlEntry,
  sitemapIndexOpen,
  urlsetOpen,
  usedExtensionBits,
} from './serialize.js';
import type { DeferredHeader } from './document-writer.js';
import type { Place } from '../core/placed.js';
import { ShardFile } from './shard-file.js';
import { StableShards } from './stable-shards.js';
import {
  EXTENSION_NAMES,
  type GeneratorInput,
  type WriteSitemapsOptions,
  type WriteSummary,
  type WrittenFile,
} from './types.js';

export { GenerateError };

/**
 * The duplicate set's first size, in URLs (512 KiB). Growing rehashes every URL into a table
 * twice as large, a cache miss each; but a larger first table is not free either: URLs land on
 * all of its pages, and the first touch of each costs a page fault. Measured (CPU time of adding
 * the URLs): 10,000 URLs 18 ms from this size, 55 ms from 1 << 20; 50,000: 48 and 68 ms;
 * 1,000,000: 435 and 400 ms. Small and middle runs (a build folder) gain more than a million loses.
 */
const DUPLICATE_SET_CAPACITY = 1 << 16;

/** Finished shards still compressing or flushing while the next one is written. */
const MAX_CLOSING_SHARDS = 4;

export interface Settings {
  outDir: string;
  baseUrl: string;
  maxUrls: number;
  maxBytes: number;
  maxFiles: number;
  gzip: boolean;
  gzipIndex: boolean;
  text: boolean;
  stylesheet: string | undefined;
  strict: boolean;
  baseName: string;
  declared: number;
  /** The root with every namespace of `declared` (the stable shards' root, and the longest a shard's may be). */
  header: string;
  /** Each shard's root declares the extensions of its entries only (decided at its first chunk). */
  declareUsed: boolean;
  footer: string;
  /**
   * One entry as the format writes it: a `<url>` element or a line; `declared`, the extensions
   * its shard's root declares (default: `declared` of the settings), the others declared on it.
   */
  serialize: (entry: UrlEntry, declared?: number) => string;
  context: PrepareContext;
}

function settingsOf(options: WriteSitemapsOptions): Settings {
  const maxUrls = options.maxUrls ?? LIMITS.maxUrlsPerSitemap;
  const maxBytes = options.maxBytes ?? LIMITS.maxBytesPerSitemap;
  if (!Number.isInteger(maxUrls) || maxUrls < 1 || maxUrls > LIMITS.maxUrlsPerSitemap) {
    throw new RangeError(`maxUrls must be a whole number from 1 to ${LIMITS.maxUrlsPerSitemap}, not ${maxUrls}`);
  }
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > LIMITS.maxBytesPerSitemap) {
    throw new RangeError(`maxBytes must be a whole number from 1 to ${LIMITS.maxBytesPerSitemap}, not ${maxBytes}`);
  }
  const maxFiles = options.maxFiles ?? LIMITS.maxSitemapsPerIndex;
  if (!Number.isInteger(maxFiles) || maxFiles < 1 || maxFiles > LIMITS.maxSitemapsPerIndex) {
    throw new RangeError(`maxFiles must be a whole number from 1 to ${LIMITS.maxSitemapsPerIndex}, not ${maxFiles}`);
  }
  const baseName = options.fileBaseName ?? 'sitemap';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(baseName))
    throw new RangeError(`fileBaseName "${baseName}" must be a plain file name`);
  const baseUrl = new URL(options.baseUrl).href.replace(/\/?$/, '/');
  const text = options.format === 'txt';
  const namespaces = options.namespaces ?? EXTENSION_NAMES;
  const declared = extensionBits(namespaces);
  // Without a list given, each shard's root declares the extensions its entries use, no more.
  const declareUsed = !text && options.namespaces === undefined;
  const stylesheet = text ? undefined : options.stylesheet;
  return {
    outDir: options.outDir,
    baseUrl,
    maxUrls,
    maxBytes,
    maxFiles,
    gzip: options.gzip ?? false,
    gzipIndex: options.gzipIndex ?? false,
    text,
    stylesheet,
    strict: options.strict ?? false,
    baseName,
    declared,
    header: text ? '' : urlsetOpen({ namespaces, ...(stylesheet === undefined ? {} : { stylesheet }) }),
    declareUsed,
    footer: text ? '' : URLSET_CLOSE,
    serialize: text ? serializeTextLine : (entry, shardDeclared = declared) => serializeUrlEntry(entry, shardDeclared),
    context: {
      baseUrl,
      allowOtherHosts: options.allowOtherHosts ?? false,
      now: options.now?.getTime() ?? Date.now(),
    },
  };
}

interface OpenShard {
  position: number;
  tempName: string;
  file: ShardFile;
  /** EXTENSION_BIT flags its entries use so far, and those its root declares (all until decided). */
  namespaces: { used: number; declared: number };
  news: number;
  newestMillis: number;
  newest: string | undefined;
}

/** A finished shard: written in this run (tempName), or kept as an earlier run published it. */
export interface ClosedShard {
  /** Its place in the set, which its file name carries. */
  position: number;
  tempName: string | undefined;
  urls: number;
  bytes: number;
  gzipBytes?: number;
  digest: string;
  newest: string | undefined;
}

/** Writes the shards of one run and keeps their tallies. */
class ShardSequence {
  private current: OpenShard | undefined;
  private readonly closing: Promise<ClosedShard>[] = [];
  private readonly closed: ClosedShard[] = [];
  private opened = 0;

  constructor(
    private readonly publication: Publication,
    private readonly settings: Settings,
  ) {}

  /** Adds one entry, starting a new shard first when a limit would be crossed. */
  add(entry: UrlEntry, lastmodMillis: number | undefined): void {
    let shard = this.current ?? this.open();
    let text = this.settings.serialize(entry, shard.namespaces.declared);
    if (!this.hasRoom(shard, text, entry)) {
      // An empty shard always has room for URLs and news: only the byte limit can refuse it.
      if (shard.file.writer.urls === 0) throw entryTooLarge(this.settings.maxBytes, entry.loc);
      this.close();
      shard = this.open();
      text = this.settings.serialize(entry, shard.namespaces.declared);
      if (!shard.file.writer.fits(text, this.settings.maxBytes)) throw entryTooLarge(this.settings.maxBytes, entry.loc);
    }
    // Known before the entry is appended: appending may write the first chunk, and decide the root.
    if (this.settings.declareUsed) shard.namespaces.used |= usedExtensionBits(entry);
    shard.file.writer.appendEntry(text);
    if (entry.news !== undefined) shard.news++;
    if (lastmodMillis !== undefined && (shard.newest === undefined || lastmodMillis > shard.newestMillis)) {
      shard.newestMillis = lastmodMillis;
      shard.newest = entry.lastmod;
    }
  }

  private hasRoom(shard: OpenShard, text: string, entry: UrlEntry): boolean {
    const { writer } = shard.file;
    return (
      writer.urls < this.settings.maxUrls &&
      (entry.news === undefined || shard.news < LIMITS.maxNewsPerSitemap) &&
      writer.fits(text, this.settings.maxBytes)
    );
  }

  /** True when the caller should await settle() before adding more. */
  get mustWait(): boolean {
    return (this.current?.file.writer.needsDrain ?? false) || this.closing.length >= MAX_CLOSING_SHARDS;
  }

  async settle(): Promise<void> {
    while (this.closing.length >= MAX_CLOSING_SHARDS) this.closed.push(await this.closing.shift()!);
    await this.current?.file.writer.drain();
  }

  /** Closes the last shard and returns all, in order. */
  async finish(): Promise<ClosedShard[]> {
    if (this.current !== undefined) this.close();
    for (const pending of this.closing.splice(0)) this.closed.push(await pending);
    return this.closed;
  }

  get count(): number {
    return this.opened;
  }

  /** After a failure: closes the open shard's streams and lets the closing ones settle. */
  async discard(): Promise<void> {
    this.current?.file.discard();
    this.current = undefined;
    await Promise.allSettled(this.closing.splice(0));
  }

  private open(): OpenShard {
    if (this.opened >= this.settings.maxFiles) throw tooManyFiles(this.settings.maxFiles);
    const position = this.opened++;
    const tempName = `shard-${position}`;
    const { settings } = this;
    const namespaces = { used: 0, declared: settings.declared };
    const header = settings.declareUsed ? this.headerOf(namespaces) : settings.header;
    const file = new ShardFile(this.publication.tempPath(tempName), settings.gzip, header, settings.footer);
    this.current = { position, tempName, file, namespaces, news: 0, newestMillis: 0, newest: undefined };
    return this.current;
  }

  /** A root that declares the extensions of the entries gathered before the shard's first chunk. */
  private headerOf(namespaces: OpenShard['namespaces']): DeferredHeader {
    const { header, stylesheet } = this.settings;
    return {
      longest: header,
      decide: () => {
        // The entries gathered so far were written for a root with every namespace: they use only these.
        namespaces.declared = namespaces.used;
        const names = extensionNames(namespaces.used);
        return urlsetOpen(stylesheet === undefined ? { namespaces: names } : { namespaces: names, stylesheet });
      },
    };
  }

  private close(): void {
    const shard = this.current!;
    this.current = undefined;
    const closing = shard.file.close().then((result) => ({
      position: shard.position,
      tempName: shard.tempName,
      urls: shard.file.writer.urls,
      newest: shard.newest,
      ...result,
    }));
    closing.catch(() => undefined);
    this.closing.push(closing);
  }
}

function isSyncIterable(input: unknown): input is Iterable<GeneratorInput> {
  return typeof (input as Iterable<unknown>)[Symbol.iterator] === 'function';
}

/**
 * Writes entries as sitemaps into `options.outDir`, sharded, optionally gzipped, under an entry
 * point whose name depends on the options alone (an index unless one plain XML file holds every
 * URL), and publishes them atomically: one rename switches from the old set to the new one, and
 * only files earlier runs recorded as their own are removed. `entries` may come one by one or,
 * from an async source, in arrays (batches spare a promise per entry). Entries with errors are
 * reported through `onProblem` and skipped (or, with `strict`, the run stops and nothing is
 * published). Memory does not grow with the number of URLs, except for the duplicate set
 * (8 bytes per distinct URL in a table kept under 3/4 full; `dedupe: false` turns it off).
 *
 * With a ledger of earlier runs (`options.ledger`), the run is incremental (stable-shards.ts):
 * URLs keep their shards, shards that did not change are left as they are, pages of build
 * directories are dated by their content's last change, and what changed is recorded and
 * returned (`changes`). The ledger finds duplicates, so no duplicate set is kept.
 */
export async function writeSitemaps(
  entries: AsyncIterable<GeneratorInput | readonly GeneratorInput[]> | Iterable<GeneratorInput>,
  options: WriteSitemapsOptions,
): Promise<WriteSummary> {
  const settings = settingsOf(options);
  const seen =
    options.dedupe === false || options.ledger !== undefined ? undefined : new FingerprintSet(DUPLICATE_SET_CAPACITY);
  const problems = { errors: 0, warnings: 0 };
  let urls = 0;
  let skipped = 0;
  let duplicates = 0;

  /** `dropsEntry`: the entry is not written (else only a field of it is left out, or nothing). */
  const report = (problem: Diagnostic, dropsEntry = true): void => {
    if (problem.severity === 'error') {
      problems.errors++;
      if (dropsEntry) skipped++;
      if (settings.strict)
        throw new GenerateError(`stopped at the first problem (strict): ${problem.message}`, problem);
    } else {
      problems.warnings++;
    }
    options.onProblem?.(problem);
  };

  const now = options.now ?? new Date();
  const stable = options.ledger === undefined ? undefined : new StableShards(options.ledger, settings, now);
  const publication = await Publication.begin(settings.outDir, settings.baseName, {
    entryPoint: entryPointName(settings.baseName, settings.gzipIndex),
    overwrite: options.overwrite ?? false,
  }).catch((error: unknown) => {
    stable?.discard();
    throw error;
  });
  const shards = new ShardSequence(publication, settings);
  let lastReportedFiles = 0;
  const progress = (): void => {
    const files = stable?.count ?? shards.count;
    if (options.onProgress && files !== lastReportedFiles) {
      lastReportedFiles = files;
      options.onProgress({ urls, files, skipped });
    }
  };

  const handle = (item: GeneratorInput): void => {
    // Plain entries (the library's common case) first: one property read, no `in` lookups.
    const sourced = (item as UrlEntry).kind !== 'url' && 'entry' in item;
    if (!sourced && 'problem' in item) return report(item.problem);
    const raw = sourced ? (item as { entry: UrlEntry }).entry : item;
    const prepared = prepareEntry(raw, settings.context);
    if (!prepared.ok) {
      const loc = typeof (raw as { loc?: unknown } | null)?.loc === 'string' ? (raw as { loc: string }).loc : undefined;
      return report(diagnostic(prepared.problem.code, prepared.problem.message, placeOf(item, sourced, loc)));
    }
    const { entry } = prepared;
    for (const found of prepared.problems)
      report(
        diagnostic(found.code, found.message, {
          ...placeOf(item, sourced, entry.loc),
          ...(found.severity === undefined ? {} : { severity: found.severity }),
        }),
        false,
      );
    const first = stable
      ? stable.take(entry, prepared.lastmodMillis, sourced ? item.contentDigest : undefined)
      : seen === undefined || seen.add(entry.loc);
    if (!first) {
      duplicates++;
      return report(
        diagnostic(
          'URL-006',
          `duplicate URL ${entry.loc}: written once, at its first occurrence`,
          placeOf(item, sourced, entry.loc),
        ),
      );
    }
    if (stable === undefined) shards.add(entry, prepared.lastmodMillis);
    urls++;
  };

  /** Waits for the shards to take more (a stream asked to wait, or too many are closing). */
  const settle = (): Promise<void> => {
    progress();
    return shards.settle();
  };
  const { signal } = options;
  const checkAborted = (): void => {
    if (signal?.aborted) throw new GenerateError(`stopped before the end (${String(signal.reason ?? 'aborted')})`);
  };
  let summary: WriteSummary;
  let closed: ClosedShard[];
  try {
    if (isSyncIterable(entries)) {
      for (const item of entries) {
        handle(item);
        if (shards.mustWait) {
          checkAborted();
          await settle();
        }
      }
    } else {
      // Items one by one, or in batches (the CLI's readers: no promise per entry).
      for await (const input of entries) {
        checkAborted();
        if (!Array.isArray(input)) {
          handle(input as GeneratorInput);
          if (shards.mustWait) await settle();
          continue;
        }
        for (const item of input as readonly GeneratorInput[]) {
          handle(item);
          if (shards.mustWait) await settle();
        }
      }
    }
    checkAborted();
    if (urls === 0) {
      // An empty urlset fails the schema, and publishing one would wipe the site's sitemaps
      // because of an empty or unreadable input: keep what is there instead.
      throw new GenerateError(
        'no URL could be written (the input was empty or every entry had errors); the previous sitemaps, if any, are left in place',
      );
    }
    closed = stable ? await stable.write(publication, progress) : await shards.finish();
    progress();
    const set = await nameAndIndex(closed, publication, settings);
    const { removed, unchanged } = await publication.commit(set.shards, set.entryPoint);
    const { leftovers, interrupted } = publication.housekeeping;
    summary = {
      files: set.files,
      ...(set.index ? { index: set.index } : {}),
      urls,
      duplicates,
      skipped,
      problems,
      removed,
      unchanged,
      leftovers,
      ...(interrupted ? { interrupted } : {}),
      robotsTxt: [`Sitemap: ${joinUrl(settings.baseUrl, set.entryPoint.name)}`],
    };
  } catch (error) {
    stable?.discard();
    await shards.discard();
    await publication.abort();
    throw error;
  }
  // Published: the ledger learns of it only now, so that a run that failed is found again.
  if (stable !== undefined) summary.changes = stable.record(closed, summary.files);
  return summary;
}

function placeOf(
  item: GeneratorInput,
  sourced: boolean,
  url: string | undefined,
): Omit<Diagnostic, 'code' | 'severity' | 'message'> {
  const place: Omit<Diagnostic, 'code' | 'severity' | 'message'> = {};
  if (sourced) {
    const { source, line, column } = item as Place;
    if (source !== undefined) place.source = source;
    // Without a column, an entry's problem is placed at the start of its line (its field is named in the message).
    if (line !== undefined) Object.assign(place, { line, column: column ?? 1 });
  }
  if (url !== undefined) place.url = url;
  return place;
}

/**
 * The published names of the shards and the entry point: the one shard itself when it is plain
 * XML (and no index is to be gzipped), otherwise an index of the shards, written here.
 */
async function nameAndIndex(
  closed: ClosedShard[],
  publication: Publication,
  settings: Settings,
): Promise<{ files: WrittenFile[]; index: WrittenFile | undefined; shards: PendingFile[]; entryPoint: NewFile }> {
  const extension = shardExtension(settings.text, settings.gzip);
  const entryName = entryPointName(settings.baseName, settings.gzipIndex);
  const alone = isEntryPointItself(closed.length, extension, settings.gzipIndex);
  const files = closed.map((shard): WrittenFile & PendingFile => {
    const name = alone ? entryName : shardName(settings.baseName, shard.position, shard.digest, extension);
    return {
      tempName: shard.tempName,
      name,
      url: joinUrl(settings.baseUrl, name),
      urls: shard.urls,
      bytes: shard.bytes,
      size: shard.gzipBytes ?? shard.bytes,
      ...(shard.gzipBytes === undefined ? {} : { gzipBytes: shard.gzipBytes }),
      ...(shard.newest === undefined ? {} : { lastmod: shard.newest }),
    };
  });
  const pending = files.map(({ tempName, name, size }) => ({ tempName, name, size }));
  const published = files.map(({ tempName: _temp, size: _size, ...file }) => file);
  if (alone) return { files: published, index: undefined, shards: [], entryPoint: asNew(pending[0]!) };

  const indexFile = new ShardFile(
    publication.tempPath('index'),
    settings.gzipIndex,
    sitemapIndexOpen(settings.stylesheet === undefined ? {} : { stylesheet: settings.stylesheet }),
    SITEMAPINDEX_CLOSE,
  );
  for (const file of published) {
    indexFile.writer.appendEntry(
      serializeSitemapRef(file.lastmod === undefined ? { loc: file.url } : { loc: file.url, lastmod: file.lastmod }),
    );
    if (indexFile.writer.needsDrain) await indexFile.writer.drain();
  }
  const written = await indexFile.close();
  const index: WrittenFile = {
    name: entryName,
    url: joinUrl(settings.baseUrl, entryName),
    urls: published.length,
    bytes: written.bytes,
    ...(written.gzipBytes === undefined ? {} : { gzipBytes: written.gzipBytes }),
  };
  const entryPoint = { tempName: 'index', name: entryName, size: written.gzipBytes ?? written.bytes };
  return { files: published, index, shards: pending, entryPoint };
}

/** The entry point as a file this run wrote: the one shard, when it is the entry point, is always written anew. */
function asNew(file: PendingFile): NewFile {
  if (file.tempName === undefined) throw new Error(`${file.name} is the entry point and must be written anew`);
  return { ...file, tempName: file.tempName };
}
