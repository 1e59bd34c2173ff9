/**
 * A set of records keyed by URL, brought into one order on disk in bounded memory, so that two
 * sets can be walked side by side: an external sort by the URL's 64-bit fingerprint
 * (core/fingerprint.ts), not by the URL itself.
 *
 * Why a fingerprint: URLs of one site share long prefixes, so sorting them as strings costs a
 * long comparison per step and a string object per record, and the garbage collector's time
 * dominated (measured: 3× the parse of the same set). Here a record is bytes in one arena buffer
 * and three numbers in typed arrays; a run is sorted by a native sort of numbers, written as
 * binary records, and the runs are merged on a heap of numbers. Both sets of a diff are sorted
 * the same way, so the order serves the walk; rows meant for people are sorted by URL afterwards,
 * when there are few of them (sorted-runs.ts).
 *
 * A record on disk: fingerprint high and low (uint32 LE each), the value's byte length (uint32),
 * the value (UTF-8). Records of equal fingerprints keep the order they were added in (the runs
 * are merged earliest run first), so the first listing of a URL comes first.
 */
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fingerprint } from '../core/fingerprint.js';

/**
 * Buffer's own UTF-8 writer, without the argument checks of write(): 5–8× faster on short strings
 * (measured on entries' JSON), the costliest step of filling a run. Present in every Node since 0.x.
 */
type Utf8Writable = Buffer & { utf8Write(text: string, offset: number): number };

export interface HashedRecord {
  high: number;
  low: number;
  value: string;
}

export interface HashedRunsOptions {
  /** Where the runs are written (in a folder of their own, removed at the end). */
  tempDir: string;
  /** Bytes of values held in memory before a run is written (default 24 MiB). */
  budgetBytes?: number | undefined;
}

const DEFAULT_BUDGET_BYTES = 24 * 1024 * 1024;
/** Records of one run: its sort packs the record's index into the 21 bits below the high fingerprint. */
const MAX_RECORDS_PER_RUN = 1 << 21;
const INDEX_SCALE = 2 ** 21;
const HEADER_BYTES = 12;
/** Bytes read from, and written to, a run at a time. */
const BLOCK_BYTES = 256 * 1024;

export class HashedRuns {
  private arena: Buffer;
  private used = 0;
  private count = 0;
  private high = new Uint32Array(1 << 16);
  private low = new Uint32Array(1 << 16);
  private offset = new Uint32Array(1 << 16);
  private length = new Uint32Array(1 << 16);
  private readonly scratch = new Uint32Array(2);
  private readonly runs: string[] = [];
  private folder: string | undefined;
  /** Records added in all. */
  records = 0;

  constructor(private readonly options: HashedRunsOptions) {
    this.arena = Buffer.allocUnsafe(options.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  }

  get runsWritten(): number {
    return this.runs.length;
  }

  /** Adds `value` under `key`; resolves once it is held (after a run was written, when memory was full). */
  add(key: string, value: string): Promise<void> | undefined {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    const room = this.arena.length - this.used;
    if (room < value.length * 3 || this.count === MAX_RECORDS_PER_RUN) {
      if (this.count > 0) return this.spill().then(() => this.add(key, value));
      // One entry larger than the whole budget (a thousand images with long captions): room for it alone.
      if (room < value.length * 3) this.arena = Buffer.allocUnsafe(value.length * 3);
    }
    if (this.count === this.high.length) this.grow();
    fingerprint(key, this.scratch);
    const at = this.count++;
    this.high[at] = this.scratch[0]!;
    this.low[at] = this.scratch[1]!;
    this.offset[at] = this.used;
    const bytes = (this.arena as Utf8Writable).utf8Write(value, this.used);
    this.length[at] = bytes;
    this.used += bytes;
    this.records += 1;
    return undefined;
  }

  /** Every record, by fingerprint. Read it once, after the last add; the runs are removed as it ends. */
  async *sorted(): AsyncGenerator<HashedRecord> {
    const order = this.order();
    if (this.runs.length === 0) {
      for (const i of order) yield { high: this.high[i]!, low: this.low[i]!, value: this.valueOf(i) };
      return;
    }
    if (this.count > 0) await this.write(order);
    const readers = await Promise.all(this.runs.map((path, run) => RunReader.open(path, run)));
    try {
      yield* merge(readers);
    } finally {
      await Promise.all(readers.map((reader) => reader.close()));
      await this.dispose();
    }
  }

  /** Removes the runs (when the sorted stream was not read to its end). */
  async dispose(): Promise<void> {
    if (this.folder !== undefined) await rm(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  private valueOf(i: number): string {
    const start = this.offset[i]!;
    return this.arena.toString('utf8', start, start + this.length[i]!);
  }

  /**
   * The records' indexes by (high, low, index): a native sort of high·2²¹ + index, then the rare
   * stretches of equal highs put in order of low (about n²/2³³ pairs: a handful per run).
   */
  private order(): Uint32Array {
    const n = this.count;
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = this.high[i]! * INDEX_SCALE + i;
    keys.sort();
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = keys[i]! % INDEX_SCALE;
    for (let start = 0; start < n;) {
      let end = start + 1;
      while (end < n && this.high[order[end]!] === this.high[order[start]!]) end++;
      if (end - start > 1) {
        const stretch = Array.from(order.subarray(start, end)).sort((a, b) => this.low[a]! - this.low[b]! || a - b);
        order.set(stretch, start);
      }
      start = end;
    }
    return order;
  }

  private async spill(): Promise<void> {
    await this.write(this.order());
  }

  /** Writes the records held, in `order`, as one run; memory is free again after it. */
  private async write(order: Uint32Array): Promise<void> {
    this.folder ??= await mkdtemp(join(this.options.tempDir, 'sitemapkit-diff-'));
    const path = join(this.folder, `run-${this.runs.length}`);
    const file = await open(path, 'w');
    const block = Buffer.allocUnsafe(BLOCK_BYTES);
    let filled = 0;
    try {
      for (const i of order) {
        const length = this.length[i]!;
        if (filled + HEADER_BYTES + length > BLOCK_BYTES) {
          await file.write(block, 0, filled);
          filled = 0;
        }
        if (HEADER_BYTES + length > BLOCK_BYTES) {
          await file.write(header(this.high[i]!, this.low[i]!, length));
          await file.write(this.arena, this.offset[i], length);
          continue;
        }
        block.writeUInt32LE(this.high[i]!, filled);
        block.writeUInt32LE(this.low[i]!, filled + 4);
        block.writeUInt32LE(length, filled + 8);
        this.arena.copy(block, filled + HEADER_BYTES, this.offset[i], this.offset[i]! + length);
        filled += HEADER_BYTES + length;
      }
      if (filled > 0) await file.write(block, 0, filled);
    } finally {
      await file.close();
    }
    this.runs.push(path);
    this.count = 0;
    this.used = 0;
  }

  private grow(): void {
    const size = this.high.length * 2;
    const grown = (from: Uint32Array) => {
      const to = new Uint32Array(size);
      to.set(from);
      return to;
    };
    this.high = grown(this.high);
    this.low = grown(this.low);
    this.offset = grown(this.offset);
    this.length = grown(this.length);
  }
}

function header(high: number, low: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(HEADER_BYTES);
  bytes.writeUInt32LE(high, 0);
  bytes.writeUInt32LE(low, 4);
  bytes.writeUInt32LE(length, 8);
  return bytes;
}

/** Merges the runs on a heap by (high, low, run): equal fingerprints come out earliest run first. */
async function* merge(readers: RunReader[]): AsyncGenerator<HashedRecord> {
  const heap: RunReader[] = [];
  for (const reader of readers) if (await reader.advance()) heap.push(reader);
  const before = (a: RunReader, b: RunReader) =>
    a.high !== b.high ? a.high < b.high : a.low !== b.low ? a.low < b.low : a.run < b.run;
  const down = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let first = at;
      if (left < heap.length && before(heap[left]!, heap[first]!)) first = left;
      if (right < heap.length && before(heap[right]!, heap[first]!)) first = right;
      if (first === at) return;
      [heap[at], heap[first]] = [heap[first]!, heap[at]!];
      at = first;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const top = heap[0]!;
    yield { high: top.high, low: top.low, value: top.value };
    if (!(await top.advance())) {
      const last = heap.pop()!;
      if (heap.length === 0) return;
      heap[0] = last;
    }
    down(0);
  }
}

/** One run read back a block at a time. */
class RunReader {
  high = 0;
  low = 0;
  value = '';
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  /** Bytes of the block read from the file, and the first not yet handed out. */
  private end = 0;
  private at = 0;
  private eof = false;

  private constructor(
    private readonly file: FileHandle,
    readonly run: number,
  ) {}

  static async open(path: string, run: number): Promise<RunReader> {
    return new RunReader(await open(path, 'r'), run);
  }

  /** Moves to the next record; false at the end of the run. */
  async advance(): Promise<boolean> {
    if (!(await this.ensure(HEADER_BYTES))) return false;
    const length = this.block.readUInt32LE(this.at + 8);
    await this.ensure(HEADER_BYTES + length);
    this.high = this.block.readUInt32LE(this.at);
    this.low = this.block.readUInt32LE(this.at + 4);
    const start = this.at + HEADER_BYTES;
    this.value = this.block.toString('utf8', start, start + length);
    this.at = start + length;
    return true;
  }

  /** Makes `bytes` bytes from `at` available in the block; false when the run ended before any. */
  private async ensure(bytes: number): Promise<boolean> {
    if (this.end - this.at >= bytes) return true;
    const rest = this.end - this.at;
    if (bytes > this.block.length) {
      const larger = Buffer.allocUnsafe(bytes);
      this.block.copy(larger, 0, this.at, this.end);
      this.block = larger;
    } else {
      this.block.copy(this.block, 0, this.at, this.end);
    }
    this.at = 0;
    this.end = rest;
    while (!this.eof && this.end < bytes) {
      const { bytesRead } = await this.file.read(this.block, this.end, this.block.length - this.end, null);
      if (bytesRead === 0) this.eof = true;
      this.end += bytesRead;
    }
    if (this.end === 0) return false;
    if (this.end < bytes)
      throw new Error('a sort run of the diff ends inside a record: was its folder changed meanwhile?');
    return true;
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}
