/**
 * One set of a diff, on disk, in an order two sets share: its entries (as text: entry-record.ts)
 * appended to a log as they come (entry-log.ts), and for each entry a small fixed record (the
 * 64-bit fingerprint of its URL, the 64-bit fingerprint of its text, where its text is in the
 * log) sorted by an external sort: runs of records sorted in memory, written, merged back on a
 * heap.
 *
 * Why fingerprints, and not the URLs: URLs of one site share long prefixes, so sorting them as
 * strings costs long comparisons, an object per record and the garbage collector's time; and
 * moving whole entries through the runs moves every byte twice more. Measured on a set of a
 * million URLs, that diff took 3.3× the CPU of parsing both sets. Here a run is sorted by a native
 * sort of numbers, and two entries of one URL are compared by their fingerprints: the log is read
 * only for the entries that make a row. The order is the fingerprints', not the URLs' (the rows,
 * usually few, are sorted by URL afterwards: sorted-runs.ts).
 *
 * Records of one URL fingerprint come out in the order they were added (earliest run first), so
 * a URL's first listing is first. Two URLs may share a fingerprint (about n²/2⁶⁵ among n URLs):
 * the walk reads their text and tells them apart by URL.
 */
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fingerprint } from '../core/fingerprint.js';
import { EntryLog } from './entry-log.js';

/** Records sorted in memory at once: 28 MiB of typed arrays at most. */
const MAX_RUN_RECORDS = 1 << 20;
/** The sort packs a record's index below its fingerprint's high half. */
const INDEX_SCALE = 2 ** 20;
/**
 * A record on disk, 32 bytes so that typed arrays can read and write it in place: the offset
 * (float64), then key high, key low, digest high, digest low and length (uint32), and 4 bytes of
 * padding; in the machine's byte order (runs never leave the machine).
 */
const RECORD_BYTES = 32;
const RECORD_WORDS = RECORD_BYTES / 4;
/** Records read from a run at a time. */
const BLOCK_RECORDS = 8192;

/** The records of one URL fingerprint: usually one. Reused by the cursor: read it before the next. */
export interface Group {
  high: number;
  low: number;
  count: number;
  digestHigh: number[];
  digestLow: number[];
  length: number[];
  offset: number[];
}

/**
 * The records of one run in memory: typed arrays, grown as needed up to a run's size and then
 * reused for every run of both sets of a diff (one set is read after the other). Fresh memory
 * costs a page fault per 4 KiB, which on a virtual machine cost more than the sort itself.
 */
export class RunMemory {
  readonly capacity: number;
  keyHigh = new Uint32Array(0);
  keyLow = new Uint32Array(0);
  digestHigh = new Uint32Array(0);
  digestLow = new Uint32Array(0);
  length = new Uint32Array(0);
  offset = new Float64Array(0);
  /** The sort's keys and the order it gives, for a run. */
  keys = new Float64Array(0);
  order = new Uint32Array(0);

  /** `capacity`: records sorted in memory at once (at most, and by default, 1,048,576). */
  constructor(capacity = MAX_RUN_RECORDS) {
    this.capacity = Math.max(1, Math.min(capacity, MAX_RUN_RECORDS));
  }

  /** Lets the arrays go, once every set was sorted. */
  release(): void {
    this.keyHigh = this.keyLow = this.digestHigh = this.digestLow = this.length = this.order = new Uint32Array(0);
    this.offset = this.keys = new Float64Array(0);
  }

  /** Room for `records` records (at most the capacity), their contents kept. */
  reserve(records: number): void {
    if (records <= this.keyHigh.length) return;
    const size = Math.min(this.capacity, Math.max(records, 1 << 16, this.keyHigh.length * 2));
    const u32 = (from: Uint32Array<ArrayBuffer>) => grown(from, new Uint32Array(size));
    this.keyHigh = u32(this.keyHigh);
    this.keyLow = u32(this.keyLow);
    this.digestHigh = u32(this.digestHigh);
    this.digestLow = u32(this.digestLow);
    this.length = u32(this.length);
    this.offset = grown(this.offset, new Float64Array(size));
    this.keys = new Float64Array(size);
    this.order = new Uint32Array(size);
  }
}

function grown<T extends Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(from: T, to: T): T {
  to.set(from);
  return to;
}

export class SetOnDisk {
  private count = 0;
  private readonly key = new Uint32Array(2);
  private readonly digest = new Uint32Array(2);
  private readonly runs: string[] = [];
  /** Entries added. */
  records = 0;

  private constructor(
    private readonly folder: string,
    private readonly log: EntryLog,
    private readonly memory: RunMemory,
  ) {}

  /**
   * A set whose files go in a folder of their own under `tempDir`, sorting its runs in `memory`
   * (which the set uses until finish()).
   */
  static async create(tempDir: string, memory = new RunMemory()): Promise<SetOnDisk> {
    const folder = await mkdtemp(join(tempDir, 'sitemapkit-diff-'));
    const log = await EntryLog.create(join(folder, 'entries'));
    return new SetOnDisk(folder, log, memory);
  }

  get runsWritten(): number {
    return this.runs.length;
  }

  /** Adds an entry by its URL and its text; resolves when it is held (after a write, when memory was full). */
  add(loc: string, json: string): Promise<void> | undefined {
    const memory = this.memory;
    if (this.count === memory.capacity) return this.writeRun().then(() => this.add(loc, json));
    if (this.log.needsRoom(json)) return this.log.makeRoom(json).then(() => this.add(loc, json));
    if (this.count === memory.keyHigh.length) memory.reserve(this.count + 1);
    const at = this.count++;
    this.records += 1;
    fingerprint(loc, this.key);
    fingerprint(json, this.digest);
    memory.keyHigh[at] = this.key[0]!;
    memory.keyLow[at] = this.key[1]!;
    memory.digestHigh[at] = this.digest[0]!;
    memory.digestLow[at] = this.digest[1]!;
    memory.offset[at] = this.log.offset;
    memory.length[at] = this.log.append(json);
    return undefined;
  }

  /** Ends the adding: what is held in memory is written, and the memory free for another set. */
  async finish(): Promise<void> {
    if (this.count > 0 || this.runs.length === 0) await this.writeRun();
    await this.log.end();
  }

  /** The records by fingerprint, a group at a time (after finish). */
  async groups(): Promise<GroupCursor> {
    const readers = await Promise.all(this.runs.map((path, run) => RunReader.open(path, run)));
    return new GroupCursor(readers);
  }

  /** The text of an entry, from the log. */
  read(group: Group, i: number): string {
    return this.log.read(group.offset[i]!, group.length[i]!);
  }

  /** Removes the set's files. */
  async dispose(): Promise<void> {
    this.log.close();
    await rm(this.folder, { recursive: true, force: true });
  }

  /** Sorts the records held and writes them as a run; memory is free again after it. */
  private async writeRun(): Promise<void> {
    const memory = this.memory;
    const order = this.order();
    const path = join(this.folder, `run-${this.runs.length}`);
    const file = await open(path, 'w');
    const block = new ArrayBuffer(BLOCK_RECORDS * RECORD_BYTES);
    const words = new Uint32Array(block);
    const doubles = new Float64Array(block);
    try {
      for (let from = 0; from < order.length; from += BLOCK_RECORDS) {
        const to = Math.min(order.length, from + BLOCK_RECORDS);
        for (let k = from; k < to; k++) {
          const i = order[k]!;
          const at = (k - from) * RECORD_WORDS;
          doubles[at >> 1] = memory.offset[i]!;
          words[at + 2] = memory.keyHigh[i]!;
          words[at + 3] = memory.keyLow[i]!;
          words[at + 4] = memory.digestHigh[i]!;
          words[at + 5] = memory.digestLow[i]!;
          words[at + 6] = memory.length[i]!;
        }
        await file.write(new Uint8Array(block, 0, (to - from) * RECORD_BYTES));
      }
    } finally {
      await file.close();
    }
    this.runs.push(path);
    this.count = 0;
  }

  /**
   * The records' indexes by (key high, key low, index): a native sort of high·2²⁰ + index, then
   * the rare stretches of equal highs put in order of low (about n²/2³³ pairs: a few per run).
   */
  private order(): Uint32Array {
    const { keyHigh, keyLow } = this.memory;
    const n = this.count;
    const keys = this.memory.keys.subarray(0, n);
    for (let i = 0; i < n; i++) keys[i] = keyHigh[i]! * INDEX_SCALE + i;
    keys.sort();
    const order = this.memory.order.subarray(0, n);
    for (let i = 0; i < n; i++) order[i] = keys[i]! % INDEX_SCALE;
    for (let start = 0; start < n;) {
      let end = start + 1;
      while (end < n && keyHigh[order[end]!] === keyHigh[order[start]!]) end++;
      if (end - start > 1)
        order.set(
          Array.from(order.subarray(start, end)).sort((a, b) => keyLow[a]! - keyLow[b]! || a - b),
          start,
        );
      start = end;
    }
    return order;
  }
}

/** The runs merged on a heap by (key, run), handed out a group of one key at a time. */
export class GroupCursor {
  private readonly heap: RunReader[] = [];
  private started = false;
  private readonly group: Group = {
    high: 0,
    low: 0,
    count: 0,
    digestHigh: [],
    digestLow: [],
    length: [],
    offset: [],
  };

  constructor(private readonly readers: RunReader[]) {}

  /** The next group, or undefined at the end. The object is reused: read it before calling again. */
  async next(): Promise<Group | undefined> {
    if (!this.started) {
      this.started = true;
      for (const reader of this.readers) if (await reader.advance()) this.heap.push(reader);
      for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
    }
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const group = this.group;
    group.high = heap[0]!.keyHigh;
    group.low = heap[0]!.keyLow;
    group.count = 0;
    while (heap.length > 0 && heap[0]!.keyHigh === group.high && heap[0]!.keyLow === group.low) {
      const top = heap[0]!;
      const i = group.count++;
      group.digestHigh[i] = top.digestHigh;
      group.digestLow[i] = top.digestLow;
      group.length[i] = top.length;
      group.offset[i] = top.offset;
      if (!(await top.advance())) {
        const last = heap.pop()!;
        if (heap.length === 0) break;
        heap[0] = last;
      }
      this.down(0);
    }
    return group;
  }

  async close(): Promise<void> {
    await Promise.all(this.readers.map((reader) => reader.close()));
  }

  private down(from: number): void {
    const heap = this.heap;
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
  }
}

function before(a: RunReader, b: RunReader): boolean {
  return a.keyHigh !== b.keyHigh ? a.keyHigh < b.keyHigh : a.keyLow !== b.keyLow ? a.keyLow < b.keyLow : a.run < b.run;
}

/** One run read back a block of records at a time. */
class RunReader {
  keyHigh = 0;
  keyLow = 0;
  digestHigh = 0;
  digestLow = 0;
  length = 0;
  offset = 0;
  private readonly block = new ArrayBuffer(BLOCK_RECORDS * RECORD_BYTES);
  private readonly bytes = new Uint8Array(this.block);
  private readonly words = new Uint32Array(this.block);
  private readonly doubles = new Float64Array(this.block);
  /** Words of the block read from the file, and the first word of the next record. */
  private end = 0;
  private at = 0;

  private constructor(
    private readonly file: FileHandle,
    readonly run: number,
  ) {}

  static async open(path: string, run: number): Promise<RunReader> {
    return new RunReader(await open(path, 'r'), run);
  }

  /** Moves to the next record; false at the end of the run. */
  async advance(): Promise<boolean> {
    if (this.at === this.end) {
      this.at = 0;
      let bytes = 0;
      // Runs hold whole records: a read ends on a record's end, or at the end of the file.
      for (;;) {
        const { bytesRead } = await this.file.read(this.bytes, bytes, this.bytes.length - bytes, null);
        bytes += bytesRead;
        if (bytesRead === 0 || bytes % RECORD_BYTES === 0) break;
      }
      this.end = bytes / 4;
      if (bytes === 0) return false;
    }
    const at = this.at;
    const words = this.words;
    this.offset = this.doubles[at >> 1]!;
    this.keyHigh = words[at + 2]!;
    this.keyLow = words[at + 3]!;
    this.digestHigh = words[at + 4]!;
    this.digestLow = words[at + 5]!;
    this.length = words[at + 6]!;
    this.at = at + RECORD_WORDS;
    return true;
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}
