/**
 * The URL set behind URL-006 and IDX-005: every loc seen, by a key under which http/https and
 * www/non-www twins of one page collide. It is the one structure that grows with the number of
 * URLs, and it is shared by all the sources of one run so duplicates across sitemaps are found.
 */
import type { Position } from '../parse/types.js';

export interface FirstSeen {
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
  const match = /^https?:\/\/(?:www\.)?([^/?#]*)/i.exec(loc);
  if (!match) return loc;
  return match[1]!.toLowerCase() + loc.slice(match[0].length);
}

export class UrlRegistry {
  private readonly seen = new Map<string, FirstSeen>();
  private readonly sources: string[] = [];
  private readonly sourceIndexes = new Map<string, number>();

  get size(): number {
    return this.seen.size;
  }

  /** True when exactly this loc was recorded. */
  has(loc: string): boolean {
    return this.seen.get(twinKey(loc))?.loc === loc;
  }

  /** Records a loc; returns what it repeats, or undefined the first time a page is met. */
  add(loc: string, source: string, position: Position): Repeat | undefined {
    const key = twinKey(loc);
    const first = this.seen.get(key);
    if (first === undefined) {
      this.seen.set(key, { loc, sourceIndex: this.indexOf(source), line: position.line, column: position.column });
      return undefined;
    }
    const firstSource = this.sources[first.sourceIndex]!;
    const where = firstSource === source ? `line ${first.line}` : `${firstSource}:${first.line}`;
    return { kind: first.loc === loc ? 'duplicate' : 'twin', first, where };
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
