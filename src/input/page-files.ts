/**
 * The HTML files of a build folder, and their beginnings. A folder of 50,000 pages is listed
 * first (names, sizes and modification times: a few megabytes), so that a build stamp can be
 * seen before any page is dated; then each page's head is read, a bounded prefix at a time, with
 * a bounded number of files open at once, whatever the folder's size (no EMFILE).
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** An HTML file of the folder. */
export interface PageFile {
  /** Path below the folder, `/`-separated. */
  relative: string;
  size: number;
  mtimeMs: number;
}

const HTML_FILE = /\.html?$/i;

/** The HTML files below `root`, in a stable (sorted) order; names starting with a dot are passed by. */
export async function listPageFiles(root: string): Promise<PageFile[]> {
  const files: PageFile[] = [];
  await collect(root, '', files);
  return files;
}

async function collect(root: string, relative: string, into: PageFile[]): Promise<void> {
  const entries = (await readdir(join(root, relative), { withFileTypes: true }))
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const pages: string[] = [];
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      await listPages(pages, into, root);
      await collect(root, path, into);
    } else if (entry.isFile() && HTML_FILE.test(entry.name)) {
      pages.push(path);
    }
  }
  await listPages(pages, into, root);
}

/** Stats the pages named so far, a bounded number at a time, and adds them in order. */
async function listPages(pages: string[], into: PageFile[], root: string): Promise<void> {
  for (let i = 0; i < pages.length; i += OPEN_FILES) {
    const batch = pages.slice(i, i + OPEN_FILES);
    const stats = await Promise.all(batch.map((path) => stat(join(root, path))));
    batch.forEach((relative, j) => into.push({ relative, size: stats[j]!.size, mtimeMs: stats[j]!.mtimeMs }));
  }
  pages.length = 0;
}

/** Files open at once: enough to keep a disk busy, far below any open-file limit. */
export const OPEN_FILES = 16;

/** The first read of a page: a redirect stub is whole in it, and most heads are. */
export const FIRST_READ_BYTES = 16 * 1024;

/**
 * The bytes of a file, FIRST_READ_BYTES at a time, for as long as the reader asks: a head reader
 * that stops at `</head>` reads one or two of them. The file is closed when the reader stops.
 */
export async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(FIRST_READ_BYTES);
      const { bytesRead } = await file.read(buffer, 0, FIRST_READ_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
      if (bytesRead < FIRST_READ_BYTES) return;
    }
  } finally {
    await file.close();
  }
}

/**
 * `work` applied to each item, at most `limit` at a time, the results yielded in the items' order
 * (a slow page holds back the ones after it, never more than `limit` of them).
 */
export async function* mapBounded<T, R>(
  items: Iterable<T>,
  limit: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const running: Promise<R>[] = [];
  for (const item of items) {
    const started = work(item);
    started.catch(() => undefined); // awaited below, in order; never unhandled meanwhile
    running.push(started);
    if (running.length >= limit) yield await running.shift()!;
  }
  while (running.length > 0) yield await running.shift()!;
}
