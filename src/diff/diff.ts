/**
 * Two sets of page URL entries → what was added, removed and changed, in bounded memory: each set
 * is put on disk in one order (set-on-disk.ts: by the fingerprint of its URLs), then both are
 * walked side by side once. Memory does not grow with the sets (two sets of 10,000,000 URLs:
 * bench/diff.bench.ts), never two maps. The rows, usually few, are then sorted by URL
 * (sorted-runs.ts), so that they come out in URL order.
 *
 * An entry is kept as a record of its values (entry-record.ts). Two entries of one URL whose
 * records have the same fingerprint are the same; only those whose records differ are read back
 * and compared field by field (fields.ts),
 * so most URLs, which did not change, cost a comparison of two numbers. A URL listed twice in one
 * set counts once, as its first listing (the one a crawler keeps); the others are counted as
 * duplicates.
 */
import { tmpdir } from 'node:os';
import type { UrlEntry } from '../core/entry.js';
import { entryOfRecord, entryRecord } from './entry-record.js';
import { changedFields, type EntryField, type EntryFields } from './fields.js';
import { RunMemory, SetOnDisk, type Group, type GroupCursor } from './set-on-disk.js';
import { escapeKey, SortedRuns } from './sorted-runs.js';

export type DiffRow =
  | { change: 'added'; loc: string; new: EntryFields }
  | { change: 'removed'; loc: string; old: EntryFields }
  | { change: 'changed'; loc: string; fields: EntryField[]; old: EntryFields; new: EntryFields }
  | { change: 'moved'; loc: string; to: string };

export interface DiffCounts {
  added: number;
  removed: number;
  changed: number;
  /** Removed URLs that now redirect to an added one (only with a redirect check). */
  moved: number;
  unchanged: number;
  /** Changed URLs per field that changed. */
  fields: Partial<Record<EntryField, number>>;
  /** Removed URLs whose redirects could not be checked (only with a redirect check). */
  unchecked?: number;
  /** Distinct URLs of each set, and URLs listed again within a set. */
  old: { urls: number; duplicates: number };
  new: { urls: number; duplicates: number };
}

export type DiffPhase = 'old' | 'new' | 'compare';

export interface DiffOptions {
  /** Where sorted runs go while the sets are diffed (default the system's temporary folder). */
  tempDir?: string | undefined;
  /** Entries of a set sorted in memory at once, 28 bytes each (default and at most 1,048,576). */
  recordsPerRun?: number | undefined;
  /** Called every PROGRESS_EVERY entries of each phase. */
  onProgress?: ((phase: DiffPhase, entries: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

const PROGRESS_EVERY = 100_000;

/**
 * Diffs `before` and `after`: iterate it for the rows in URL order (added, removed and changed;
 * `moved` comes from a redirect check, redirects.ts); `counts` is complete once the rows are.
 */
export class SitemapDiff implements AsyncIterable<DiffRow> {
  readonly counts: DiffCounts = {
    added: 0,
    removed: 0,
    changed: 0,
    moved: 0,
    unchanged: 0,
    fields: {},
    old: { urls: 0, duplicates: 0 },
    new: { urls: 0, duplicates: 0 },
  };
  private readonly tempDir: string;

  constructor(
    private readonly before: AsyncIterable<UrlEntry>,
    private readonly after: AsyncIterable<UrlEntry>,
    private readonly options: DiffOptions = {},
  ) {
    this.tempDir = options.tempDir ?? tmpdir();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DiffRow> {
    // Rows are usually few; 8 Mi characters of them are held before a run is written.
    const rows = new SortedRuns({ tempDir: this.tempDir, budgetChars: 8 * 1024 * 1024 });
    try {
      for await (const row of this.unordered()) {
        const pending = rows.add(escapeKey(row.loc), JSON.stringify(row));
        if (pending) await pending;
      }
      for await (const { value } of rows.sorted()) yield JSON.parse(value) as DiffRow;
    } finally {
      await rows.dispose();
    }
  }

  /** The rows in no particular order, as the walk finds them (for a consumer that orders them itself). */
  async *unordered(): AsyncGenerator<DiffRow> {
    const sets: SetOnDisk[] = [];
    const cursors: GroupCursor[] = [];
    // One set is read after the other: they sort their runs in the same memory.
    const memory = new RunMemory(this.options.recordsPerRun);
    try {
      const before = await this.sort(this.before, sets, memory, 'old');
      const after = await this.sort(this.after, sets, memory, 'new');
      memory.release();
      const a = await before.groups();
      cursors.push(a);
      const b = await after.groups();
      cursors.push(b);
      yield* this.walk(new Side(before, a, this.counts.old), new Side(after, b, this.counts.new));
    } finally {
      await Promise.all(cursors.map((cursor) => cursor.close()));
      await Promise.all(sets.map((set) => set.dispose()));
    }
  }

  private async sort(
    entries: AsyncIterable<UrlEntry>,
    sets: SetOnDisk[],
    memory: RunMemory,
    phase: DiffPhase,
  ): Promise<SetOnDisk> {
    const set = await SetOnDisk.create(this.tempDir, memory);
    sets.push(set);
    const { signal, onProgress } = this.options;
    let read = 0;
    for await (const entry of entries) {
      const pending = set.add(entry.loc, entryRecord(entry));
      if (pending) await pending;
      if (++read % PROGRESS_EVERY === 0) {
        signal?.throwIfAborted();
        onProgress?.(phase, read);
      }
    }
    signal?.throwIfAborted();
    await set.finish();
    return set;
  }

  /** Both sets side by side, a URL fingerprint at a time: each URL is on one side, or on both. */
  private async *walk(before: Side, after: Side): AsyncGenerator<DiffRow> {
    let a = await before.next();
    let b = await after.next();
    let walked = 0;
    while (a !== undefined || b !== undefined) {
      if (++walked % PROGRESS_EVERY === 0) {
        this.options.signal?.throwIfAborted();
        this.options.onProgress?.('compare', walked);
      }
      const order = a === undefined ? 1 : b === undefined ? -1 : a.high - b.high || a.low - b.low;
      if (order === 0 && a!.count === 1 && b!.count === 1) {
        // One listing of the URL on each side, the usual case: the same JSON, the same entry.
        before.count.urls += 1;
        after.count.urls += 1;
        if (a!.digestHigh[0] === b!.digestHigh[0] && a!.digestLow[0] === b!.digestLow[0]) this.counts.unchanged += 1;
        else yield* this.pair(before.entries(a!, false), after.entries(b!, false));
      } else {
        const none = new Map<string, UrlEntry>();
        yield* this.pair(order <= 0 ? before.entries(a!) : none, order >= 0 ? after.entries(b!) : none);
      }
      if (order <= 0) a = await before.next();
      if (order >= 0) b = await after.next();
    }
  }

  /** The URLs of one fingerprint on each side (usually one, but for a rare collision), paired by URL. */
  private *pair(before: Map<string, UrlEntry>, after: Map<string, UrlEntry>): Generator<DiffRow> {
    for (const [loc, old] of before) {
      const now = after.get(loc);
      if (now === undefined) yield this.removed(old);
      else {
        const row = this.changed(old, now);
        if (row) yield row;
      }
    }
    for (const [loc, now] of after) if (!before.has(loc)) yield this.added(now);
  }

  private added(entry: UrlEntry): DiffRow {
    this.counts.added += 1;
    return { change: 'added', loc: entry.loc, new: fieldsOf(entry) };
  }

  private removed(entry: UrlEntry): DiffRow {
    this.counts.removed += 1;
    return { change: 'removed', loc: entry.loc, old: fieldsOf(entry) };
  }

  private changed(before: UrlEntry, after: UrlEntry): DiffRow | undefined {
    const old = fieldsOf(before);
    const now = fieldsOf(after);
    const fields = changedFields(old, now);
    if (fields.length === 0) {
      this.counts.unchanged += 1;
      return undefined;
    }
    this.counts.changed += 1;
    for (const field of fields) this.counts.fields[field] = (this.counts.fields[field] ?? 0) + 1;
    return { change: 'changed', loc: before.loc, fields, old, new: now };
  }
}

/** One set during the walk: its groups, its log, and the counts of its URLs. */
class Side {
  constructor(
    private readonly set: SetOnDisk,
    private readonly cursor: GroupCursor,
    readonly count: { urls: number; duplicates: number },
  ) {}

  next(): Promise<Group | undefined> {
    return this.cursor.next();
  }

  /**
   * The entries of a group by URL, read from the log: each URL's first listing, the others counted
   * as duplicates (and the URLs counted, unless the caller did).
   */
  entries(group: Group, count = true): Map<string, UrlEntry> {
    const entries = new Map<string, UrlEntry>();
    for (let i = 0; i < group.count; i++) {
      const entry = entryOfRecord(this.set.read(group, i));
      if (entries.has(entry.loc)) this.count.duplicates += 1;
      else entries.set(entry.loc, entry);
    }
    if (count) this.count.urls += entries.size;
    return entries;
  }
}

/** An entry without what names it. */
function fieldsOf(entry: UrlEntry): EntryFields {
  const { kind: _kind, loc: _loc, ...fields } = entry;
  return fields;
}

/** One row as a JSON line (without the newline): change, loc, then what the change carries. */
export function diffRowToJsonLine(row: DiffRow): string {
  return JSON.stringify(row);
}
