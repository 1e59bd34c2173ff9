/**
 * An external sort of text records in bounded memory: records are buffered up to a budget of
 * characters, each full buffer is sorted and written to disk as a run, and the runs are merged
 * back into one sorted stream (a k-way merge over a heap, each run read a block at a time). Sets
 * that fit the budget never touch the disk. The diff sorts its rows by URL with it: they are
 * usually few, and people read them.
 *
 * A record is one line: its sort key, a tab, its value. Keys hold no tab or newline (escapeKey),
 * values no newline (JSON). Lines are sorted whole, by UTF-16 code unit, which orders them by key
 * first because the tab sorts below every character an escaped key holds.
 */
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export interface SortedRecord {
  key: string;
  value: string;
}

export interface SortedRunsOptions {
  /** Where the runs are written (a folder of their own is made inside it, and removed). */
  tempDir: string;
  /** Characters buffered before a run is written (default 16 Mi). */
  budgetChars?: number | undefined;
}

const DEFAULT_BUDGET_CHARS = 16 * 1024 * 1024;
/** Bytes read from a run at a time during the merge: with ~100 runs, a few MiB in all. */
const READ_BLOCK = 64 * 1024;

export class SortedRuns {
  private lines: string[] = [];
  private chars = 0;
  private readonly runs: string[] = [];
  private folder: string | undefined;
  private readonly budget: number;
  /** Records added, and runs written to disk so far. */
  records = 0;

  constructor(private readonly options: SortedRunsOptions) {
    this.budget = options.budgetChars ?? DEFAULT_BUDGET_CHARS;
  }

  get runsWritten(): number {
    return this.runs.length;
  }

  /** Adds a record; resolves once it is buffered (after writing a run, when the buffer was full). */
  add(key: string, value: string): Promise<void> | undefined {
    const line = `${key}\t${value}`;
    this.lines.push(line);
    this.records += 1;
    this.chars += line.length + 1;
    return this.chars >= this.budget ? this.spill() : undefined;
  }

  /** Every record, sorted. Read it once, after the last add; the runs are removed as it ends. */
  async *sorted(): AsyncGenerator<SortedRecord> {
    this.lines.sort();
    if (this.runs.length === 0) {
      const lines = this.lines;
      this.lines = [];
      for (const line of lines) yield split(line);
      return;
    }
    if (this.lines.length > 0) await this.spill();
    const readers = await Promise.all(this.runs.map((path) => RunReader.open(path)));
    try {
      yield* merge(readers);
    } finally {
      await Promise.all(readers.map((reader) => reader.close()));
      await this.dispose();
    }
  }

  /** Removes the runs (when the sorted stream was not read to its end). */
  async dispose(): Promise<void> {
    this.lines = [];
    if (this.folder !== undefined) await rm(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  private async spill(): Promise<void> {
    const lines = this.lines;
    this.lines = [];
    this.chars = 0;
    lines.sort();
    this.folder ??= await mkdtemp(join(this.options.tempDir, 'sitemapkit-sort-'));
    const path = join(this.folder, `run-${this.runs.length}`);
    const file = await open(path, 'w');
    try {
      // Written in pieces: one string of the whole run would double its memory for a moment.
      for (let at = 0; at < lines.length; at += 4096) await file.write(`${lines.slice(at, at + 4096).join('\n')}\n`);
    } finally {
      await file.close();
    }
    this.runs.push(path);
  }
}

function split(line: string): SortedRecord {
  const tab = line.indexOf('\t');
  return { key: line.slice(0, tab), value: line.slice(tab + 1) };
}

/** The smallest line of every run, on a binary heap. */
async function* merge(readers: RunReader[]): AsyncGenerator<SortedRecord> {
  const heap: RunReader[] = [];
  for (const reader of readers) if (await reader.advance()) heap.push(reader);
  const before = (a: RunReader, b: RunReader) => a.line < b.line;
  const down = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let smallest = at;
      if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === at) return;
      [heap[at], heap[smallest]] = [heap[smallest]!, heap[at]!];
      at = smallest;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const top = heap[0]!;
    yield split(top.line);
    if (!(await top.advance())) {
      const last = heap.pop()!;
      if (heap.length === 0) return;
      heap[0] = last;
    }
    down(0);
  }
}

/** One run read back a block at a time, a line at a time. */
class RunReader {
  line = '';
  private lines: string[] = [];
  private next = 0;
  private carry = '';
  private done = false;
  private readonly decoder = new StringDecoder('utf8');
  private readonly buffer = Buffer.allocUnsafe(READ_BLOCK);

  private constructor(private readonly file: FileHandle) {}

  static async open(path: string): Promise<RunReader> {
    return new RunReader(await open(path, 'r'));
  }

  /** Moves to the next line; false at the end of the run. */
  async advance(): Promise<boolean> {
    while (this.next >= this.lines.length) {
      if (this.done) return false;
      await this.fill();
    }
    this.line = this.lines[this.next++]!;
    return true;
  }

  private async fill(): Promise<void> {
    const { bytesRead } = await this.file.read(this.buffer, 0, READ_BLOCK, null);
    if (bytesRead === 0) {
      this.done = true;
      const rest = this.carry + this.decoder.end();
      this.lines = rest === '' ? [] : [rest];
      this.next = 0;
      this.carry = '';
      return;
    }
    const text = this.carry + this.decoder.write(this.buffer.subarray(0, bytesRead));
    const lines = text.split('\n');
    this.carry = lines.pop()!;
    this.lines = lines;
    this.next = 0;
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

/** A key with no tab or newline in it (and so no line break in a run), backslashes escaped to stay unambiguous. */
export function escapeKey(key: string): string {
  return /[\\\t\n\r]/.test(key)
    ? key.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : key;
}

/** The key escapeKey was given. */
export function unescapeKey(key: string): string {
  return key.includes('\\')
    ? key.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c))
    : key;
}
