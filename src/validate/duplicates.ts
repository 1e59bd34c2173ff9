/**
 * The URL set behind URL-006 and IDX-005: every loc seen, by a key under which http/https and
 * www/non-www twins of one page collide. It is the one structure that grows with the number of
 * URLs, and it is shared by all the sources of one run so duplicates across sitemaps are found.
 */
import type { Position } from '../parse/types.js';
import { detach } from './detach.js';

/** The first occurrence of a page, kept compactly: the URL set is the run's largest structure. */
export interface FirstSeen {
  /** The loc as first listed. */
  loc: string;
  /** Index into the registry's source names. */
  sourceIndex: number;
  line: number;
  column: number;
}

interface Stored {
  /** What precedes the key in the loc ("https://www."), or the whole loc when the host had capitals. */
  prefix: string;
  /** True when `prefix` is the whole loc. */
  whole: boolean;
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

export class UrlRegistry {
  private readonly seen = new Map<string, Stored>();
  private readonly sources: string[] = [];
  private readonly sourceIndexes = new Map<string, number>();
  /** The few distinct prefixes ("https://www.", "http://"), shared by all stored URLs. */
  private readonly prefixes = new Map<string, string>();

  get size(): number {
    return this.seen.size;
  }

  /** True when exactly this loc was recorded. */
  has(loc: string): boolean {
    const { key } = splitTwin(loc);
    const stored = this.seen.get(key);
    return stored !== undefined && this.locOf(stored, key) === loc;
  }

  /** Records a loc; returns what it repeats, or undefined the first time a page is met. */
  add(loc: string, source: string, position: Position): Repeat | undefined {
    const { key, prefixEnd, lowered } = splitTwin(loc);
    const stored = this.seen.get(key);
    if (stored === undefined) {
      const prefix = lowered ? detach(loc) : this.intern(loc.slice(0, prefixEnd));
      this.seen.set(detach(key), { prefix, whole: lowered, sourceIndex: this.indexOf(source), line: position.line, column: position.column });
      return undefined;
    }
    const first: FirstSeen = { loc: this.locOf(stored, key), sourceIndex: stored.sourceIndex, line: stored.line, column: stored.column };
    const firstSource = this.sources[first.sourceIndex]!;
    const where = firstSource === source ? `line ${first.line}` : `${firstSource}:${first.line}`;
    return { kind: first.loc === loc ? 'duplicate' : 'twin', first, where };
  }

  private locOf(stored: Stored, key: string): string {
    return stored.whole ? stored.prefix : stored.prefix + key;
  }

  private intern(prefix: string): string {
    let shared = this.prefixes.get(prefix);
    if (shared === undefined) this.prefixes.set(prefix, (shared = detach(prefix)));
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
