/**
 * sitemapStream: one urlset document as a Web ReadableStream, on any runtime (Node, Deno, Bun,
 * Workers, browsers). The same writer as writeSitemaps (DocumentWriter over serialize.ts, entries
 * checked by prepareEntry), with the stream's controller as its sink: entries are read only as
 * fast as the consumer takes the bytes, so a slow client holds back the source (a database
 * cursor, say) instead of filling memory. Cancelling the stream stops reading the entries.
 */
import { LIMITS } from '../core/index.js';
import type { ByteSink } from './byte-sink.js';
import { EntryChecker, folderUrl, type CheckOptions, type UrlInput } from './checked-entries.js';
import { DocumentWriter } from './document-writer.js';
import { GenerateError, entryTooLarge } from './errors.js';
import { URLSET_CLOSE, extensionBits, serializeUrlEntry, urlsetOpen } from './serialize.js';
import { EXTENSION_NAMES, type ExtensionName } from './types.js';

export type { UrlInput };

/** Options of {@link sitemapStream}. */
export interface SitemapStreamOptions extends CheckOptions {
  /**
   * The public URL of the folder the sitemap is served from: relative locs resolve against it,
   * and URLs outside it are refused (URL-004/005) unless `allowOtherHosts`.
   */
  baseUrl: string;
  /** Accept URLs on another host or outside baseUrl's folder (cross-submission through robots.txt). */
  allowOtherHosts?: boolean | undefined;
  /** Compress the document with gzip (CompressionStream). */
  gzip?: boolean | undefined;
  /** URL of an XSLT or CSS stylesheet, written as an xml-stylesheet processing instruction. */
  stylesheet?: string | undefined;
  /** Extension namespaces declared on the root; default all four. */
  namespaces?: readonly ExtensionName[] | undefined;
  /** The present, for DATE-005 (a lastmod in the future) and NEWS-003; default: the clock. */
  now?: Date | undefined;
  /** URLs the document may hold (default and maximum 50,000); one more errors the stream. */
  maxUrls?: number | undefined;
  /** Uncompressed bytes the document may take (default and maximum 52,428,800), closing tag included. */
  maxBytes?: number | undefined;
}

/** Bytes the stream holds ahead of its consumer: two of the writer's chunks. */
const HIGH_WATER_BYTES = 128 * 1024;

/**
 * One urlset document of `entries` as a stream of UTF-8 bytes (gzip with `gzip: true`).
 *
 * Each entry is checked as writeSitemaps checks it: an error in `loc` drops the entry, an error in
 * another field leaves that field out, repeated URLs are written once; each problem goes to
 * `onProblem` (with `strict`, the first error errors the stream). A document holds at most 50,000
 * URLs, 1,000 news entries and 50 MiB: an entry past a limit errors the stream (use
 * {@link serveSitemaps} or writeSitemaps for larger sets).
 *
 * ```ts
 * return new Response(sitemapStream(entries, { baseUrl: 'https://example.com/' }), {
 *   headers: { 'content-type': 'application/xml; charset=utf-8' },
 * });
 * ```
 */
export function sitemapStream(
  entries: Iterable<UrlInput> | AsyncIterable<UrlInput>,
  options: SitemapStreamOptions,
): ReadableStream<Uint8Array> {
  const body = new ReadableStream<Uint8Array>(new UrlsetSource(entries, settingsOf(options)), {
    highWaterMark: HIGH_WATER_BYTES,
    size: (chunk) => chunk.byteLength,
  });
  return options.gzip ? body.pipeThrough(new CompressionStream('gzip')) : body;
}

interface StreamSettings {
  checker: EntryChecker;
  header: string;
  declared: number;
  maxUrls: number;
  maxBytes: number;
}

function settingsOf(options: SitemapStreamOptions | undefined): StreamSettings {
  // JavaScript callers get a sentence, not a TypeError from deep inside.
  if (typeof options?.baseUrl !== 'string')
    throw new TypeError(
      "sitemapStream(entries, { baseUrl }): baseUrl is required, the public URL the sitemap is served under (relative locs resolve against it), e.g. { baseUrl: 'https://www.example.com/' }",
    );
  const maxUrls = limit('maxUrls', options.maxUrls, LIMITS.maxUrlsPerSitemap);
  const maxBytes = limit('maxBytes', options.maxBytes, LIMITS.maxBytesPerSitemap);
  const namespaces = options.namespaces ?? EXTENSION_NAMES;
  const checker = new EntryChecker(
    {
      baseUrl: folderUrl(options.baseUrl),
      allowOtherHosts: options.allowOtherHosts ?? false,
      now: options.now?.getTime() ?? Date.now(),
    },
    options,
  );
  const header = urlsetOpen({
    namespaces,
    ...(options.stylesheet === undefined ? {} : { stylesheet: options.stylesheet }),
  });
  return { checker, header, declared: extensionBits(namespaces), maxUrls, maxBytes };
}

function limit(name: string, value: number | undefined, maximum: number): number {
  if (value === undefined) return maximum;
  if (!Number.isInteger(value) || value < 1 || value > maximum)
    throw new RangeError(`${name} must be a whole number from 1 to ${maximum}, not ${value}`);
  return value;
}

/** Writes the document into the stream's queue as the consumer pulls; see sitemapStream. */
class UrlsetSource {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private running: Promise<void> | undefined;
  /** Resolves the writer's wait for room (set while it waits). */
  private resume: (() => void) | undefined;
  private cancelled = false;

  constructor(
    private readonly entries: Iterable<UrlInput> | AsyncIterable<UrlInput>,
    private readonly settings: StreamSettings,
  ) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
  }

  pull(): void {
    if (!this.wake()) {
      this.running ??= this.write().catch((error: unknown) => {
        if (!this.cancelled) this.controller.error(error);
      });
    }
  }

  cancel(): void {
    this.cancelled = true;
    this.wake();
  }

  /** Lets a writer waiting for room go on; false when none waits. */
  private wake(): boolean {
    const resume = this.resume;
    this.resume = undefined;
    resume?.();
    return resume !== undefined;
  }

  private hasRoom(): boolean {
    return this.cancelled || (this.controller.desiredSize ?? 0) > 0;
  }

  private readonly sink: ByteSink = {
    encode: (text) => ENCODER.encode(text),
    byteLength: utf8Length,
    write: (chunk) => {
      if (!this.cancelled) this.controller.enqueue(chunk);
      return this.hasRoom();
    },
    drain: () =>
      this.hasRoom()
        ? Promise.resolve()
        : new Promise((resolve) => {
            this.resume = resolve;
          }),
    end: () => {
      if (!this.cancelled) this.controller.close();
    },
  };

  private async write(): Promise<void> {
    const { checker, header, declared, maxUrls, maxBytes } = this.settings;
    const writer = new DocumentWriter(this.sink, header, URLSET_CLOSE);
    let news = 0;
    const add = (raw: unknown): void => {
      const checked = checker.check(raw);
      if (checked === undefined) return;
      const { entry } = checked;
      if (writer.urls >= maxUrls) throw tooMany(`${maxUrls.toLocaleString('en-US')} URLs`);
      if (entry.news !== undefined && ++news > LIMITS.maxNewsPerSitemap)
        throw tooMany(`${LIMITS.maxNewsPerSitemap.toLocaleString('en-US')} news entries`);
      const text = serializeUrlEntry(entry, declared);
      if (!writer.fits(text, maxBytes)) {
        if (writer.urls === 0) throw entryTooLarge(maxBytes, entry.loc);
        throw tooMany(`${maxBytes.toLocaleString('en-US')} bytes`);
      }
      writer.appendEntry(text);
    };
    const { entries } = this;
    if (Symbol.iterator in entries) {
      // A plain loop for in-memory entries: no promise per entry, only a wait when the consumer lags.
      for (const raw of entries) {
        if (this.cancelled) return;
        add(raw);
        if (writer.needsDrain) await writer.drain();
      }
    } else {
      for await (const raw of entries) {
        if (this.cancelled) return;
        add(raw);
        if (writer.needsDrain) await writer.drain();
      }
    }
    if (!this.cancelled) await writer.end();
  }
}

function tooMany(what: string): GenerateError {
  return new GenerateError(
    `the entries need more than ${what}, the most one sitemap may hold; serve them with serveSitemaps (a paged source) or write them with writeSitemaps, which split them into several sitemaps`,
  );
}

const ENCODER = new TextEncoder();

/** The UTF-8 size of a string, counted without encoding it (a lone surrogate counts as U+FFFD does: 3). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // the pair's two units count 4 bytes in all
      i++;
    } else bytes += 2;
  }
  return bytes;
}
