/**
 * A set of sitemaps as one stream of page URL entries, whatever the command line named:
 *
 * - a sitemap file (XML, text, feed; plain or gzip); an index has its children read from disk
 *   beside it (validate/children.ts), nested indexes to the depth `tree` follows;
 * - a directory of sitemaps: its index (sitemap.xml, sitemap_index.xml… plain or gzip), else
 *   every sitemap file in it;
 * - `-`: standard input, one document;
 * - an http(s) URL or a site: the whole tree, walked as `tree` walks it (tree.ts);
 * - a URL list (.jsonl, .csv): the entries `generate` reads (input/url-list.ts).
 *
 * `diff` and `submit` read their sources through it. Problems are handed to `onProblem` as they
 * come; whether every document was read whole is known at the end (`complete`), because a
 * command must never take what it could not read for removed.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { UrlEntry } from '../core/entry.js';
import { looksAbsoluteHttp, normaliseUrl } from '../core/url.js';
import { readUrlList, type ReadEntry, type ReadItem } from '../input/index.js';
import { parseSitemap, ParseError, type SitemapSource } from '../parse/index.js';
import { resolveChild } from '../validate/children.js';
import { DATA_LOSS_CODES, readOutcome, readWhole } from '../core/outcome.js';
import type { HttpClient, HttpOptions } from '../http/client.js';
import { walkSitemapTree, type TreeNode, type TreeOptions } from '../discover/tree.js';

export interface SitemapSetOptions {
  /** For URLs and sites: the client (or its options), concurrency and politeness of the walk. */
  http?: HttpClient | HttpOptions | undefined;
  concurrency?: number | undefined;
  perHost?: TreeOptions['perHost'];
  /** Standard input, read for `-` (default process.stdin). */
  stdin?: NodeJS.ReadableStream | undefined;
  /** Decompressed bytes read from one document (default: the parser's 200 MiB). */
  maxBytes?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Each problem met, as it is met (with its source). */
  onProblem?: ((problem: Diagnostic) => void) | undefined;
  /**
   * What relative URLs of a URL list resolve against (generate's --base-url); their URLs are
   * normalised as generate writes them. Without it a relative URL in a list is an error.
   */
  baseUrl?: string | undefined;
}

/** Index levels followed below a local index, as the tree walk follows them over HTTP. */
const MAX_DEPTH = 5;

/** The names a directory's entry point goes by, first match wins (generate writes sitemap.xml). */
const INDEX_NAMES = [
  'sitemap.xml',
  'sitemap.xml.gz',
  'sitemap_index.xml',
  'sitemap_index.xml.gz',
  'sitemap-index.xml',
  'sitemap-index.xml.gz',
];
/** Sitemap files of a directory without an index. */
const SITEMAP_FILE = /\.(?:xml|txt)(?:\.gz)?$/i;
/** URL lists: read as `generate` reads them, not as sitemaps. */
const URL_LIST_FILE = /\.(?:jsonl|ndjson|csv)$/i;

export class SitemapSet implements AsyncIterable<UrlEntry> {
  /** Documents read (sitemaps, or list files), and page URL entries handed out. */
  documents = 0;
  urls = 0;
  private lost = false;
  private started = false;
  /** Local files read already: an index listing a file twice, or a directory read file by file. */
  private readonly seen = new Set<string>();

  constructor(
    /** What the command line named: a path, a directory, `-`, a URL or a site. */
    readonly source: string,
    private readonly options: SitemapSetOptions = {},
  ) {}

  /** True once the set was read and every document in it was read to its end. */
  get complete(): boolean {
    return this.started && !this.lost && this.documents > 0;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<UrlEntry> {
    if (this.started) throw new Error(`the sitemap set ${this.source} can be read once`);
    this.started = true;
    const { source } = this;
    if (source === '-')
      yield* this.document((this.options.stdin ?? process.stdin) as AsyncIterable<Uint8Array>, '-', undefined, 0);
    else if (looksAbsoluteHttp(source)) yield* this.tree(source);
    else if (!(await exists(source))) {
      const missing = await missingSource(source);
      if (missing === undefined) yield* this.tree(source);
      else this.unreadable(source, missing);
    } else if ((await stat(source)).isDirectory()) yield* this.directory(source);
    else if (URL_LIST_FILE.test(source)) yield* this.urlList(source);
    else yield* this.document({ path: source }, source, source, 0);
  }

  private problem(problem: Diagnostic): void {
    if (DATA_LOSS_CODES.has(problem.code)) this.lost = true;
    this.options.onProblem?.(problem);
  }

  /** A file that cannot be read, a child not found: nothing of it was read. */
  private unreadable(source: string, message: string): void {
    this.problem(diagnostic('FETCH-001', message, { source }));
  }

  private async *directory(dir: string): AsyncGenerator<UrlEntry> {
    const names = (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isFile()).map((e) => e.name);
    const index = INDEX_NAMES.find((name) => names.includes(name));
    const files = index === undefined ? names.filter((name) => SITEMAP_FILE.test(name)).sort() : [index];
    if (files.length === 0) {
      this.unreadable(
        dir,
        `no sitemap in this directory: looked for ${INDEX_NAMES.join(', ')} and any .xml, .txt or .gz file; name the index file instead`,
      );
      return;
    }
    for (const name of files) yield* this.document({ path: join(dir, name) }, join(dir, name), join(dir, name), 0);
  }

  /**
   * One document; an index's children after it, looked up beside it on disk (`path`), or refused
   * when it has no place on disk (standard input).
   */
  private async *document(
    input: SitemapSource,
    name: string,
    path: string | undefined,
    depth: number,
  ): AsyncGenerator<UrlEntry> {
    if (path !== undefined) {
      const key = resolve(path);
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    this.documents += 1;
    const children: string[] = [];
    const reported = new Set<string>();
    const parsed = parseSitemap(input, {
      source: name,
      signal: this.options.signal,
      ...(this.options.maxBytes === undefined ? {} : { limits: { maxBytes: this.options.maxBytes } }),
      onDiagnostic: (d) => {
        reported.add(d.code);
        this.problem(d);
      },
    });
    try {
      for await (const entry of parsed) {
        if (entry.kind === 'sitemap') children.push(entry.loc);
        else {
          this.urls += 1;
          yield entry;
        }
      }
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      if (!parsed.diagnostics.includes(error.diagnostic)) this.problem(error.diagnostic);
    }
    if (!readWhole(readOutcome({ kind: parsed.kind, reported: (code) => reported.has(code) }))) this.lost = true;
    for (const child of children) {
      if (path === undefined) {
        this.unreadable(name, `the index lists ${child}, which cannot be looked for on disk: name the index's file`);
        continue;
      }
      if (depth >= MAX_DEPTH) {
        this.unreadable(name, `${child} is ${depth + 1} levels below the first index; only ${MAX_DEPTH} are followed`);
        continue;
      }
      const found = resolveChild(child, { path });
      if ('missing' in found) this.unreadable(name, found.missing);
      else yield* this.document({ path: found.input }, found.input, found.input, depth + 1);
    }
  }

  private async *urlList(path: string): AsyncGenerator<UrlEntry> {
    this.documents += 1;
    for await (const item of readUrlList(path) as AsyncIterable<ReadItem>) {
      if ('problem' in item) {
        // A line that could not be read is a URL not known: the list was not read whole.
        if (item.problem.severity === 'error') this.lost = true;
        this.problem(item.problem);
        continue;
      }
      const loc = this.listedUrl(item);
      if (loc === undefined) continue;
      this.urls += 1;
      yield loc === item.entry.loc ? item.entry : { ...item.entry, loc };
    }
  }

  /**
   * A URL list entry's URL as generate would write it (resolved against baseUrl, normalised), or
   * undefined after a problem: the list was then not read whole.
   */
  private listedUrl({ entry, source, line }: ReadEntry): string | undefined {
    const { baseUrl } = this.options;
    if (baseUrl === undefined && looksAbsoluteHttp(entry.loc)) return entry.loc;
    const url = baseUrl === undefined ? undefined : normaliseUrl(entry.loc, baseUrl);
    if (url?.ok) return url.value;
    this.lost = true;
    const message =
      url === undefined
        ? `"${entry.loc}" is not an absolute http(s) URL: give --base-url to resolve the list's relative URLs`
        : url.problem.message;
    this.problem(
      diagnostic(url?.problem.code ?? 'URL-001', message, { source, ...(line === undefined ? {} : { line }) }),
    );
    return undefined;
  }

  /** A URL or a site: the whole tree, its failed sitemaps reported once the walk is over. */
  private async *tree(start: string): AsyncGenerator<UrlEntry> {
    const { http, concurrency, perHost, signal, maxBytes } = this.options;
    const walk = walkSitemapTree(start, { http, concurrency, perHost, signal, maxBytesPerSitemap: maxBytes });
    for await (const batch of walk.batches()) {
      for (const { entry } of batch) {
        this.urls += 1;
        yield entry;
      }
    }
    const tree = await walk.tree;
    this.documents += tree.totals.read;
    for (const d of [...tree.diagnostics, ...(tree.robots?.diagnostics ?? [])])
      if (d.severity === 'error') this.problem(d);
    for (const node of failedNodes(tree.roots)) {
      const problems = node.diagnostics.filter((d) => d.severity === 'error');
      if (problems.length === 0) this.unreadable(node.url, `${node.url} could not be read whole`);
      for (const d of problems) this.problem({ ...d, source: d.source ?? node.url });
      this.lost = true;
    }
    if (!tree.complete) this.lost = true;
  }
}

function* failedNodes(nodes: readonly TreeNode[]): Generator<TreeNode> {
  for (const node of nodes) {
    if (!node.ok) yield node;
    yield* failedNodes(node.children);
  }
}

/**
 * Why `source` names nothing to read (a path that does not exist and is no site), or undefined:
 * for a command to refuse it before any work.
 */
export async function missingSource(source: string): Promise<string | undefined> {
  if (source === '-' || looksAbsoluteHttp(source) || (await exists(source)) || looksLikeSite(source)) return undefined;
  return `cannot read ${source}: no such file or directory`;
}

/** `example.com`, `www.example.com:8080`: a site to walk, not a file name that is missing. */
function looksLikeSite(text: string): boolean {
  return /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?\/?$/i.test(text) && !/\.(?:xml|gz|txt|jsonl|ndjson|csv)$/i.test(text);
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
