/**
 * The URL set behind URL-006 and IDX-005: every loc seen, by a key under which http/https and
 * www/non-www twins of one page collide. It is the one structure that grows with the number of
 * URLs, and it is shared by all the sources of one run so duplicates across sitemaps are found.
 */
import type { Position } from '../core/position.js';
import { detach } from '../core/detach.js';

/** The first occurrence of a page, kept compactly: the URL set is the run's largest structure. */
export interface FirstSeen {
  /** The loc as first listed. */
  loc: string;
  /** Index into the registry's source names. */
  sourceIndex: number;
  line: number;
  column: number;
}

export interface Repeat {
  /** 'duplicate': the same loc; 'twin': the same page on another scheme or with/without www. */
  kind: 'duplicate' | 'twin';
  first: FirstSeen;
  /** Where the first one was, for messages: "line 12" or "other.xml:12". */
  where: string;
}

/** `host/path?query` with the scheme and a leading `www.` dropped and the host lower-cased. */
export function twinKey(loc: string): string {
  return splitTwin(loc).key;
}

/** The twin key of a loc and what precedes it; `lowered` when the host had capitals. */
function splitTwin(loc: string): { key: string; prefixEnd: number; lowered: boolean } {
  // String scanning rather than a regex or a URL parse: this runs once per URL of the run.
  const schemeEnd = loc.indexOf('://');
  if (schemeEnd < 0) return { key: loc, prefixEnd: 0, lowered: false };
  let hostStart = schemeEnd + 3;
  if (loc.startsWith('www.', hostStart) || loc.startsWith('WWW.', hostStart)) hostStart += 4;
  let hostEnd = hostStart;
  while (hostEnd < loc.length && loc[hostEnd] !== '/' && loc[hostEnd] !== '?' && loc[hostEnd] !== '#') hostEnd++;
  const host = loc.slice(hostStart, hostEnd);
  return HAS_UPPER_CASE.test(host)
    ? { key: host.toLowerCase() + loc.slice(hostEnd), prefixEnd: hostStart, lowered: true }
    : { key: loc.slice(hostStart), prefixEnd: hostStart, lowered: false };
}

const HAS_UPPER_CASE = /[A-Z]/;

/**
 * The set itself: a Map from twin key to an index into parallel arrays of small numbers and
 * shared prefix strings, so a URL costs its key and a few array slots, not an object.
 */
export class UrlRegistry {
  private readonly seen = new Map<string, number>();
  /** What precedes the key in the loc ("https://www."), or the whole loc when the host had capitals. */
  private readonly prefixes: string[] = [];
  private readonly wholes: boolean[] = [];
  private readonly sourceOf: number[] = [];
  private readonly lines: number[] = [];
  private readonly columns: number[] = [];
  private readonly sources: string[] = [];
  private readonly sourceIndexes = new Map<string, number>();
  /** The few distinct prefixes ("https://www.", "http://"), shared by all stored URLs. */
  private readonly sharedPrefixes = new Map<string, string>();
  private lastPrefix = '';

  get size(): number {
    return this.seen.size;
  }

  /** True when exactly this loc was recorded. */
  has(loc: string): boolean {
    const { key } = splitTwin(loc);
    const slot = this.seen.get(key);
    return slot !== undefined && this.locOf(slot, key) === loc;
  }

  /** Records a loc; returns what it repeats, or undefined the first time a page is met. */
  add(loc: string, source: string, position: Position): Repeat | undefined {
    const split = splitTwin(loc);
    // Detached first: the copy is hashed once, for the lookup and the insertion alike.
    const key = detach(split.key);
    const slot = this.seen.get(key);
    if (slot === undefined) {
      this.seen.set(key, this.prefixes.length);
      this.prefixes.push(split.lowered ? detach(loc) : this.share(loc, split.prefixEnd));
      this.wholes.push(split.lowered);
      this.sourceOf.push(this.indexOf(source));
      this.lines.push(position.line);
      this.columns.push(position.column);
      return undefined;
    }
    const first: FirstSeen = {
      loc: this.locOf(slot, key),
      sourceIndex: this.sourceOf[slot]!,
      line: this.lines[slot]!,
      column: this.columns[slot]!,
    };
    const firstSource = this.sources[first.sourceIndex]!;
    const where = firstSource === source ? `line ${first.line}` : `${firstSource}:${first.line}`;
    return { kind: first.loc === loc ? 'duplicate' : 'twin', first, where };
  }

  private locOf(slot: number, key: string): string {
    return this.wholes[slot] ? this.prefixes[slot]! : this.prefixes[slot]! + key;
  }

  /** The shared copy of `loc`'s first `end` characters (most URLs repeat the previous prefix). */
  private share(loc: string, end: number): string {
    const last = this.lastPrefix;
    if (last.length === end && loc.startsWith(last)) return last;
    const prefix = loc.slice(0, end);
    let shared = this.sharedPrefixes.get(prefix);
    if (shared === undefined) this.sharedPrefixes.set(prefix, (shared = detach(prefix)));
    this.lastPrefix = shared;
    return shared;
  }

  private indexOf(source: string): number {
    let index = this.sourceIndexes.get(source);
    if (index === undefined) {
      index = this.sources.push(source) - 1;
      this.sourceIndexes.set(source, index);
    }
    return index;
  }
}
