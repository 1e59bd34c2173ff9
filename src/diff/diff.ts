/**
 * Two sets of page URL entries → what was added, removed and changed, in bounded memory: each set
 * is put in one order on disk (hashed-runs.ts: by the fingerprint of its URL), then both are
 * walked side by side once. Memory does not grow with the sets (two sets of 10,000,000 URLs:
 * bench/diff.bench.ts), never two maps. The rows, usually few, are then sorted by URL
 * (sorted-runs.ts), so that they come out in URL order.
 *
 * An entry is kept as its JSON; two entries whose JSON is the same are the same, and only those
 * whose JSON differs are compared field by field (fields.ts): most URLs, which did not change,
 * cost a string comparison. A URL listed twice in one set counts once, as its first listing (the
 * one a crawler keeps); the others are counted as duplicates.
 */
import { tmpdir } from 'node:os';
import type { UrlEntry } from '../core/entry.js';
import { changedFields, type EntryField, type EntryFields } from './fields.js';
import { HashedRuns, type HashedRecord } from './hashed-runs.js';
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
  /** Bytes of each set held in memory before a run is written (default 24 MiB). */
  budgetBytes?: number | undefined;
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
    const rows = new SortedRuns({ tempDir: this.tempDir });
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
    const sort = { tempDir: this.tempDir, budgetBytes: this.options.budgetBytes };
    const oldRuns = new HashedRuns(sort);
    const newRuns = new HashedRuns(sort);
    try {
      await this.sort(this.before, oldRuns, 'old');
      await this.sort(this.after, newRuns, 'new');
      yield* this.walk(new Groups(oldRuns.sorted()), new Groups(newRuns.sorted()));
    } finally {
      await Promise.all([oldRuns.dispose(), newRuns.dispose()]);
    }
  }

  private async sort(entries: AsyncIterable<UrlEntry>, runs: HashedRuns, phase: DiffPhase): Promise<void> {
    const { signal, onProgress } = this.options;
    let read = 0;
    for await (const entry of entries) {
      const pending = runs.add(entry.loc, JSON.stringify(entry));
      if (pending) await pending;
      if (++read % PROGRESS_EVERY === 0) {
        signal?.throwIfAborted();
        onProgress?.(phase, read);
      }
    }
    signal?.throwIfAborted();
  }

  /** Both sets side by side, a fingerprint at a time: each URL is on one side, or on both. */
  private async *walk(before: Groups, after: Groups): AsyncGenerator<DiffRow> {
    let a = await before.next();
    let b = await after.next();
    let walked = 0;
    while (a !== undefined || b !== undefined) {
      if (++walked % PROGRESS_EVERY === 0) {
        this.options.signal?.throwIfAborted();
        this.options.onProgress?.('compare', walked);
      }
      const order = a === undefined ? 1 : b === undefined ? -1 : a.high - b.high || a.low - b.low;
      if (order < 0) {
        yield* this.pair(distinctEntries(a!, this.counts.old), new Map());
        a = await before.next();
      } else if (order > 0) {
        yield* this.pair(new Map(), distinctEntries(b!, this.counts.new));
        b = await after.next();
      } else if (a!.values.length === 1 && b!.values.length === 1) {
        yield* this.one(a!.values[0]!, b!.values[0]!);
        a = await before.next();
        b = await after.next();
      } else {
        yield* this.pair(distinctEntries(a!, this.counts.old), distinctEntries(b!, this.counts.new));
        a = await before.next();
        b = await after.next();
      }
    }
  }

  /** One listing on each side with one fingerprint: the same URL, but for a collision of fingerprints. */
  private *one(before: string, after: string): Generator<DiffRow> {
    this.counts.old.urls += 1;
    this.counts.new.urls += 1;
    if (before === after) {
      this.counts.unchanged += 1;
      return;
    }
    const old = JSON.parse(before) as UrlEntry;
    const now = JSON.parse(after) as UrlEntry;
    if (old.loc !== now.loc) {
      yield this.removed(old);
      yield this.added(now);
      return;
    }
    const row = this.changed(old, now);
    if (row) yield row;
  }

  /** The URLs of one fingerprint on each side (usually one), paired by URL. */
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

/** The records of a sorted set, a fingerprint at a time. */
class Groups {
  private current: IteratorResult<HashedRecord> | undefined;

  constructor(private readonly records: AsyncIterator<HashedRecord>) {}

  async next(): Promise<{ high: number; low: number; values: string[] } | undefined> {
    this.current ??= await this.records.next();
    if (this.current.done) return undefined;
    const { high, low, value } = this.current.value;
    const values = [value];
    for (;;) {
      this.current = await this.records.next();
      if (this.current.done || this.current.value.high !== high || this.current.value.low !== low) break;
      values.push(this.current.value.value);
    }
    return { high, low, values };
  }
}

/** The entries of one fingerprint of a set by URL, each URL's first listing; the others counted as duplicates. */
function distinctEntries(
  group: { values: string[] },
  count: { urls: number; duplicates: number },
): Map<string, UrlEntry> {
  const entries = new Map<string, UrlEntry>();
  for (const value of group.values) {
    const entry = JSON.parse(value) as UrlEntry;
    if (entries.has(entry.loc)) count.duplicates += 1;
    else entries.set(entry.loc, entry);
  }
  count.urls += entries.size;
  return entries;
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
