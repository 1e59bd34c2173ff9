/**
 * What `sitemapkit generate DIR` does, as a library function: a site's build directory (and any
 * URL lists read along with it) → published sitemaps, with the pages left out counted by reason
 * and, with a state directory, the run's changes recorded in the ledger. The command line is a
 * thin wrapper over it; framework integrations call it after their build.
 *
 * What needs more than the writer (an HTML parser, git, SQLite) is loaded when used: a run over
 * URL lists alone starts without it.
 */
import {
  PageTitles,
  publishHtmlSitemap,
  type HtmlSitemapOutcome,
  type HtmlSitemapRequest,
} from './html-sitemap-files.js';
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CommonImages, withoutImages } from '../core/common-images.js';
import { parseRobotsTxt } from '../core/robots-txt.js';
import type { Diagnostic } from '../core/index.js';
import type { RecordedChanges, RunChanges, UrlChange } from '../generate/ledger.js';
import type { GeneratorInput, OutputFormat, WriteProgress, WriteSummary } from '../generate/types.js';
import { GenerateError } from '../generate/errors.js';
import { writeSitemaps } from '../generate/write-sitemaps.js';
import type { CommitTimes } from '../input/commit-times.js';
import type { GitSourceTimes } from '../input/git-sources.js';
import { LeftOutPages, type LeftOutGroup } from '../input/left-out.js';
import type { LeftOutPage, TrailingSlash } from '../input/site-directory.js';
import type { ReadEntry } from '../input/types.js';
import type { GenerateLedger } from '../store/generate-ledger.js';
import { generateLedgerPath } from '../store/site-database.js';

/** An input of a run: a build directory (its path), or entries read elsewhere (a URL list). */
export type SiteSource = string | AsyncIterable<GeneratorInput | GeneratorInput[]>;

/** Something a run says once, not about one page: why lastmod is left out, a shallow clone… */
export interface SiteNote {
  level: 'warning' | 'note';
  message: string;
}

/** The options of {@link generateFromDirectory}, named after `sitemapkit generate`'s flags. */
export interface GenerateFromDirectoryOptions {
  /** Public URL of the directory's root, and of `out` (`--base-url`). */
  baseUrl: string;
  /** Directory to publish the sitemaps into (`--out`); created when missing. */
  out: string;
  /** URLs per sitemap file (`--max-urls`); default and maximum 50,000. */
  maxUrls?: number;
  /** Uncompressed bytes per file (`--max-bytes`); default and maximum 52,428,800. */
  maxBytes?: number;
  /** Gzipped shards, listed by an index (`--gzip`). */
  gzip?: boolean;
  /** Gzip the index too (`--gzip-index`). */
  gzipIndex?: boolean;
  /** 'xml' (default) or 'txt' (`--format`). */
  format?: OutputFormat;
  /** URL of an XSLT or CSS stylesheet (`--stylesheet`). */
  stylesheet?: string;
  /** Accept URLs on other hosts or outside the base URL's directory (`--allow-other-hosts`). */
  allowOtherHosts?: boolean;
  /** Replace a sitemap file in `out` that sitemapkit did not write (`--overwrite`). */
  overwrite?: boolean;
  /** Globs of page paths to leave out, relative to the directory (`--exclude`). */
  exclude?: readonly string[];
  /** Directory of the ledger of earlier runs (`--state`): the run is then incremental. */
  state?: string;
  /** Stop at the first problem; nothing is published (`--strict`). */
  strict?: boolean;
  /** Write every URL as given, without looking for duplicates (`--keep-duplicates`). */
  keepDuplicates?: boolean;
  /** Keep pages the folder's robots.txt disallows, with a warning (`--keep-disallowed`). */
  keepDisallowed?: boolean;
  /** The site's 404 page, relative to the directory, when no convention names it (`--not-found`). */
  notFound?: string;
  /**
   * List the images each page shows (`--images`), leaving out those that stand on most pages of
   * the directory (a logo, icons: on more than half of the pages, and on at least 3).
   */
  images?: boolean;
  /**
   * The folder of the site's sources in a git checkout (`--git-dir`): a page git does not hold is
   * dated by the last commit of its sources there, `about/index.html` by `about/index.EXT` and
   * `about.EXT` (input/git-sources.ts).
   */
  gitDir?: string;
  /** Drop `.html` from page URLs (`--clean-urls`); default from vercel.json's `cleanUrls`. */
  cleanUrls?: boolean;
  /** `always`, `never` or `keep` the trailing slash of folder pages (`--trailing-slash`); default from vercel.json. */
  trailingSlash?: TrailingSlash;
  /** The present (a lastmod in the future is refused; a ledger records changes at this time); default the clock. */
  now?: Date;
  /** Also write an HTML sitemap for people from the published sitemaps (`--html-sitemap`). */
  htmlSitemap?: HtmlSitemapRequest;
  /** Aborting stops the run; nothing is published. */
  signal?: AbortSignal;
  /** Left-out pages kept as examples per reason, and changes per kind (0: all); default 20. */
  examplesPerReason?: number;
  /** Told of each problem with an entry (`file:line`, code, message). */
  onProblem?: (problem: Diagnostic) => void;
  /** Told after each finished file. */
  onProgress?: (progress: WriteProgress) => void;
  /** Told of how many entries (and unreadable lines) were read from the sources, as they come. */
  onRead?: (count: number) => void;
  /** Told of each page left out, and why. */
  onLeftOut?: (page: LeftOutPage) => void;
  /** Told of what the run says once (also in the summary's `notes`). */
  onNote?: (note: SiteNote) => void;
  /**
   * Completes a directory's pages before they are written: a framework integration gives them what
   * its config knows (URL form, dates, languages). It may leave pages out by not passing them on.
   */
  transformPages?: (pages: AsyncIterable<ReadEntry>) => AsyncIterable<ReadEntry>;
}

/** What {@link generateFromDirectory} published, and what it left out. */
export interface GenerateFromDirectorySummary extends WriteSummary {
  /** Pages not listed, by reason, with the first few of each. */
  leftOut: LeftOutGroup[];
  /** `exclude` globs that matched no page of any directory. */
  unusedExcludes: string[];
  /** What the run said once. */
  notes: SiteNote[];
  /** Entries and problems read from the sources. */
  itemsRead: number;
  /** With `state`: what was added, changed and removed since the last run. */
  changes?: RecordedChanges;
  /** With `htmlSitemap`: the files written, or why none was (the sitemaps are published either way). */
  htmlSitemap?: HtmlSitemapOutcome;
}

/**
 * Reads a site's build directory as a search engine would see the site, and publishes its
 * sitemaps into `options.out`. Throws GenerateError when nothing could be published (then
 * `out` is as it was).
 */
export function generateFromDirectory(
  directory: string,
  options: GenerateFromDirectoryOptions,
): Promise<GenerateFromDirectorySummary> {
  return generateFromSources([directory], options);
}

/** {@link generateFromDirectory} over several sources, read in order: directories and entry streams. */
export async function generateFromSources(
  sources: readonly SiteSource[],
  options: GenerateFromDirectoryOptions,
): Promise<GenerateFromDirectorySummary> {
  const examples = options.examplesPerReason ?? 20;
  const run = new SourceReading(sources, options, new LeftOutPages(examples));
  const ledger =
    options.state === undefined
      ? undefined
      : new (await import('../store/generate-ledger.js')).GenerateLedger(generateLedgerPath(options.state));
  try {
    run.dateByContent = ledger !== undefined;
    const { changes: runChanges, ...written } = await writeSitemaps(run.read(), {
      outDir: options.out,
      baseUrl: options.baseUrl,
      ...definedOf(options, ['maxUrls', 'maxBytes', 'gzip', 'gzipIndex', 'format', 'stylesheet', 'allowOtherHosts']),
      ...definedOf(options, ['overwrite']),
      ...definedOf(options, ['now', 'signal', 'strict', 'onProblem', 'onProgress']),
      dedupe: !options.keepDuplicates,
      ...(ledger === undefined ? {} : { ledger }),
    });
    const changes = ledger && runChanges && recordedChanges(ledger, runChanges, examples);
    for (const dir of run.directoriesRead) await checkRobotsSitemaps(dir, options.baseUrl, written.robotsTxt, run.note);
    const htmlSitemap =
      options.htmlSitemap && (await publishHtmlSitemap(options.out, written.files, run.titles, options.htmlSitemap));
    return {
      ...written,
      ...(changes === undefined ? {} : { changes }),
      ...(htmlSitemap === undefined ? {} : { htmlSitemap }),
      leftOut: run.leftOut.byReason(),
      unusedExcludes: run.unusedExcludes(),
      notes: run.notes,
      itemsRead: run.itemsRead,
    };
  } finally {
    ledger?.close();
  }
}

/**
 * When the folder's robots.txt names no sitemap, or other ones than the run wrote, says so: search
 * engines find the sitemaps through those lines.
 */
async function checkRobotsSitemaps(
  dir: string,
  baseUrl: string,
  robotsLines: readonly string[],
  note: (note: SiteNote) => void,
): Promise<void> {
  const text = await readFile(join(dir, 'robots.txt'), 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const { sitemaps } = parseRobotsTxt(text, new URL('/robots.txt', baseUrl).href);
  const written = robotsLines.map((line) => line.replace(/^Sitemap:\s*/, ''));
  if (sitemaps.some((sitemap) => written.includes(sitemap.url))) return;
  const where = join(dir, 'robots.txt');
  note({
    level: 'warning',
    message:
      sitemaps.length === 0
        ? `${where} names no sitemap: add "${robotsLines.join('", "')}" to it`
        : `${where} names ${sitemaps.map((sitemap) => `${sitemap.url} (line ${sitemap.line})`).join(', ')}, not the sitemap this run wrote: add "${robotsLines.join('", "')}" to it, or publish where it points`,
  });
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

function definedOf<T extends object, K extends keyof T>(options: T, keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (options[key] !== undefined) picked[key] = options[key];
  return picked;
}

/** The run's changes as the ledger recorded them, with the first `limit` URLs of each kind (0: all). */
function recordedChanges(ledger: GenerateLedger, changes: RunChanges, limit: number): RecordedChanges {
  const first = (change: UrlChange) => ledger.changesOf(changes.run, change, limit || -1);
  return {
    ...changes,
    ledger: ledger.file,
    examples: { added: first('added'), changed: first('changed'), removed: first('removed') },
  };
}

/** Every source in order, as one stream for the writer; keeps what the directories left out and said. */
class SourceReading {
  readonly notes: SiteNote[] = [];
  itemsRead = 0;
  /** With a ledger: pages carry content digests (the ledger dates them by their content). */
  dateByContent = false;
  private readonly unusedCounts = new Map<string, number>();
  private directories = 0;
  /** The build directories read, in order. */
  readonly directoriesRead: string[] = [];
  /** The pages' titles, for the link texts of an HTML sitemap. */
  readonly titles = new PageTitles();

  constructor(
    private readonly sources: readonly SiteSource[],
    private readonly options: GenerateFromDirectoryOptions,
    readonly leftOut: LeftOutPages,
  ) {}

  readonly note = (note: SiteNote): void => {
    this.notes.push(note);
    this.options.onNote?.(note);
  };

  async *read(): AsyncGenerator<GeneratorInput | GeneratorInput[]> {
    for (const source of this.sources) {
      if (typeof source === 'string' && (await isDirectory(source))) {
        for await (const item of this.directory(source)) {
          this.counted(1);
          if (this.options.htmlSitemap) this.titles.note(item);
          yield item;
        }
      } else if (typeof source === 'string') {
        const { readUrlListBatches } = await import('../input/url-list.js');
        yield* this.countedItems(readUrlListBatches(source));
      } else {
        yield* this.countedItems(source);
      }
    }
  }

  private counted(count: number): void {
    this.itemsRead += count;
    this.options.onRead?.(count);
  }

  private async *countedItems(
    items: AsyncIterable<GeneratorInput | GeneratorInput[]>,
  ): AsyncGenerator<GeneratorInput | GeneratorInput[]> {
    for await (const item of items) {
      this.counted(Array.isArray(item) ? item.length : 1);
      if (this.options.htmlSitemap) (Array.isArray(item) ? item : [item]).forEach(this.titles.note);
      yield item;
    }
  }

  private async *directory(path: string): AsyncGenerator<GeneratorInput> {
    this.directories++;
    this.directoriesRead.push(path);
    const { CommitTimes } = await import('../input/commit-times.js');
    const { readSiteDirectory } = await import('../input/site-directory.js');
    const { gitDir } = this.options;
    // Git dates the pages a ledger cannot date yet (and every page without one), where it tracks
    // them, or their sources in gitDir.
    const opened = CommitTimes.open(gitDir ?? path);
    if (!opened.ok && opened.reason === 'not-a-checkout' && gitDir !== undefined)
      throw new GenerateError(
        `--git-dir ${gitDir} is not in a git checkout (or git is not installed): give the folder of the site's sources in its repository`,
      );
    if (!opened.ok && opened.reason === 'shallow')
      this.note({
        level: 'warning',
        message: `${gitDir ?? path} is in a shallow git clone, where the oldest commit present claims every file: git does not date its pages (after git fetch --unshallow, it dates them by their last commits)`,
      });
    const sourceTimes = opened.ok && gitDir !== undefined ? await gitSourceTimes(opened.times) : undefined;
    const commitTimes = sourceTimes ?? (opened.ok ? opened.times : undefined);
    try {
      const read = readSiteDirectory(path, {
        baseUrl: this.options.baseUrl,
        exclude: this.options.exclude ?? [],
        contentDigests: this.dateByContent,
        notFound: this.options.notFound,
        keepDisallowed: this.options.keepDisallowed,
        cleanUrls: this.options.cleanUrls,
        trailingSlash: this.options.trailingSlash,
        images: this.options.images,
        onNote: this.note,
        ...(commitTimes === undefined ? {} : { commitTimes }),
        onLeftOut: (page) => {
          this.leftOut.add(page);
          this.options.onLeftOut?.(page);
        },
        onUnusedExclude: (patterns) => {
          for (const pattern of patterns) this.unusedCounts.set(pattern, (this.unusedCounts.get(pattern) ?? 0) + 1);
        },
      });
      const pages = this.options.images ? withoutCommonPageImages(read) : read;
      yield* this.options.transformPages?.(pages) ?? pages;
      if (sourceTimes !== undefined && sourceTimes.unsourced > 0)
        this.note({
          level: 'note',
          message: `git dates no source of ${sourceTimes.unsourced} page${sourceTimes.unsourced === 1 ? '' : 's'} of ${path} (first: ${sourceTimes.firstUnsourced}): a page PATH.html is dated by the last commit of PATH.EXT, or of FOLDER.EXT for FOLDER/index.html, below --git-dir ${gitDir}, committed and unmodified (EXT: md, mdx, html, njk, astro, vue…)`,
        });
    } finally {
      commitTimes?.close();
    }
  }

  /** Globs that matched nothing in any directory (one may be meant for one directory only); all of them when no source was a directory. */
  unusedExcludes(): string[] {
    if (this.directories === 0) return [...(this.options.exclude ?? [])];
    return [...this.unusedCounts].filter(([, count]) => count === this.directories).map(([pattern]) => pattern);
  }
}

/** Dates pages by their sources' commits; loaded only with `gitDir`. */
async function gitSourceTimes(times: CommitTimes): Promise<GitSourceTimes> {
  const { GitSourceTimes } = await import('../input/git-sources.js');
  return new GitSourceTimes(times);
}

/**
 * A directory's pages without the images that stand on most of them (core/common-images.ts). The
 * rule needs every page seen before the first is written, so the pages go to a spool file on disk
 * as they are read (memory stays flat), are counted again from it, and are then read back from it.
 */
async function* withoutCommonPageImages(pages: AsyncIterable<ReadEntry>): AsyncGenerator<ReadEntry> {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-images-'));
  const file = join(dir, 'pages.jsonl');
  const census = new CommonImages();
  const imagesOf = (page: ReadEntry) => (page.entry.images ?? []).map((image) => image.loc);
  try {
    const fd = openSync(file, 'w');
    try {
      let batch = '';
      for await (const page of pages) {
        census.nominate(imagesOf(page));
        batch += `${JSON.stringify(page)}\n`;
        if (batch.length >= SPOOL_BATCH_CHARS) {
          writeSync(fd, batch);
          batch = '';
        }
      }
      if (batch !== '') writeSync(fd, batch);
    } finally {
      closeSync(fd);
    }
    if (!census.nothingNominated) for await (const page of spooled(file)) census.confirm(imagesOf(page));
    const common = census.common;
    for await (const page of spooled(file)) yield { ...page, entry: withoutImages(page.entry, common) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Characters of spooled pages written at a time. */
const SPOOL_BATCH_CHARS = 1 << 20;

async function* spooled(file: string): AsyncGenerator<ReadEntry> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) if (line !== '') yield JSON.parse(line) as ReadEntry;
}
