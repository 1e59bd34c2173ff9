/**
 * The HTML files of a build folder, and their beginnings. A folder of 50,000 pages is listed
 * first (names, sizes and modification times: a few megabytes), so that a build stamp can be
 * seen before any page is dated; then each page is read in one piece (readPageBytes: its head,
 * and a date its body may give), or a larger one a bounded prefix at a time (fileChunks).
 *
 * Reads are synchronous, one file open at a time, whatever the folder's size (no EMFILE): a read
 * of 16 KiB from the page cache takes microseconds, while the promise API (a FileHandle, a
 * thread-pool round trip for open, read and close) cost more CPU than the rest of the run together
 * (bench/build-dir.bench.ts: 3 of 8.6 CPU s on 5,000 pages). The event loop gets a turn between
 * pages (readSiteDirectory is an async generator), so Ctrl-C is not held up.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';

/** An HTML file of the folder. */
export interface PageFile {
  /** Path below the folder, `/`-separated. */
  relative: string;
  size: number;
  mtimeMs: number;
}

const HTML_FILE = /\.html?$/i;

/** The HTML files below `root`, in a stable (sorted) order; names starting with a dot are passed by. */
export function listPageFiles(root: string): PageFile[] {
  const files: PageFile[] = [];
  collect(root, '', files);
  return files;
}

/**
 * Lists one folder and its subfolders. Synchronous, as the reads are: a folder's listing is one
 * call, and the promise readdir cost a fifth of the listing's CPU time on 10,000 pages (and
 * path.join's normalising another share): paths are joined with "/", which every platform takes.
 */
function collect(root: string, relative: string, into: PageFile[]): void {
  const entries = readdirSync(relative === '' ? root : `${root}/${relative}`, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const pages: string[] = [];
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      listPages(pages, into, root);
      collect(root, path, into);
    } else if (entry.isFile() && HTML_FILE.test(entry.name)) {
      pages.push(path);
    }
  }
  listPages(pages, into, root);
}

/** Stats the pages named so far and adds them in order. */
function listPages(pages: string[], into: PageFile[], root: string): void {
  for (const relative of pages) {
    const { size, mtimeMs } = statSync(`${root}/${relative}`);
    into.push({ relative, size, mtimeMs });
  }
  pages.length = 0;
}

/** The first read of a page: a redirect stub is whole in it, and most heads are. */
export const FIRST_READ_BYTES = 16 * 1024;

/** The buffer of fileChunks, shared by the reads of one file after another (a fresh one per page cost GC time). */
let sharedBuffer: Buffer | undefined;

/**
 * The bytes of a file, FIRST_READ_BYTES at a time, for as long as the reader asks: a head reader
 * that stops at `</head>` reads one or two of them. The file is closed when the reader stops.
 * Each chunk is valid until the next is asked for (the buffer is reused): the readers decode it
 * at once.
 */
export function* fileChunks(path: string): Generator<Buffer> {
  const buffer = sharedBuffer ?? Buffer.allocUnsafe(FIRST_READ_BYTES);
  sharedBuffer = undefined;
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, FIRST_READ_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
      if (bytesRead < FIRST_READ_BYTES) return;
    }
  } finally {
    closeSync(fd);
    sharedBuffer = buffer;
  }
}

/** True when the file at `path` holds `needle` (shorter than a read), read FIRST_READ_BYTES at a time. */
export function fileHolds(path: string, needle: Buffer): boolean {
  const overlap = needle.length - 1;
  // The end of the chunk before (a copy: fileChunks reuses its buffer), for a needle across two.
  let carried: Buffer | undefined;
  for (const chunk of fileChunks(path)) {
    if (chunk.includes(needle)) return true;
    if (carried !== undefined && Buffer.concat([carried, chunk.subarray(0, overlap)]).includes(needle)) return true;
    carried = Buffer.from(chunk.subarray(Math.max(0, chunk.length - overlap)));
  }
  return false;
}

/** The largest page read in one piece by readPageBytes; a larger one is read a chunk at a time. */
export const WHOLE_READ_BYTES = 1024 * 1024;

/** The buffer of readPageBytes, grown to the largest page read, kept from page to page. */
let wholeBuffer = Buffer.alloc(0);

/**
 * The bytes of a page of at most WHOLE_READ_BYTES (`size` as listed), in one read into a buffer
 * kept from page to page: valid until the next call. One open per page: opening and closing a
 * file cost more than reading 40 KB of it.
 */
export function readPageBytes(path: string, size: number): Buffer {
  if (wholeBuffer.length < size)
    wholeBuffer = Buffer.allocUnsafe(Math.max(size, FIRST_READ_BYTES, 2 * wholeBuffer.length));
  const fd = openSync(path, 'r');
  try {
    return wholeBuffer.subarray(0, readSync(fd, wholeBuffer, 0, size, 0));
  } finally {
    closeSync(fd);
  }
}

/** Bytes in hand as fileChunks gives a file's: FIRST_READ_BYTES at a time, so a reader of heads decodes no more. */
export function* chunksOf(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += FIRST_READ_BYTES) yield bytes.subarray(at, at + FIRST_READ_BYTES);
}
