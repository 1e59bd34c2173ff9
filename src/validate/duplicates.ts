/**
 * The URL set behind URL-006 and IDX-005: every loc seen, by a key under which http/https and
 * www/non-www twins of one page collide. It is the one structure that grows with the number of
 * URLs, and it is shared by all the sources of one run so duplicates across sitemaps are found.
 *
 * Memory budget: a URL costs 16 bytes in one typed array (its key's 64-bit fingerprint, its
 * prefix, source and line), never its text; a URL whose host has capitals costs about 16 more, to
 * tell its spelling. The table holds at most 3,145,728 URLs in 64 MiB (it doubles in place); past
 * that the set stops remembering new URLs (LIMIT-004), so that a never-ending stream cannot exhaust
 * memory. A URL's text is rebuilt for messages from the URL that repeats it: its shared prefix
 * ("https://www.") and the key are all it takes. Bytes matter twice here: each page of the table
 * is first touched at a random probe, and on a virtual machine that first touch can cost more
 * than hashing the URL.
 */
import { fingerprint } from '../core/fingerprint.js';
import { FingerprintMap } from '../core/fingerprint-map.js';
import { FrontCodedStrings } from '../core/front-coded-strings.js';
import { authorityEnd, endsAuthority } from '../core/url.js';
import type { Position } from '../core/position.js';

/** The first occurrence of a page. */
export interface FirstSeen {
  /** The loc as first listed (its host in lower case when it was written with capitals). */
  loc: string;
  /** Index into the registry's source names. */
  sourceIndex: number;
  line: number;
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
  const prefixEnd = keyStart(loc);
  return keyOf(loc, prefixEnd, hostHasCapitals(loc, prefixEnd));
}

/** The twin key of a loc: its host lower-cased (when it has capitals) and what follows, from `prefixEnd` on. */
function keyOf(loc: string, prefixEnd: number, lowered: boolean): string {
  if (!lowered) return loc.slice(prefixEnd);
  const hostEnd = authorityEnd(loc, prefixEnd);
  return loc.slice(prefixEnd, hostEnd).toLowerCase() + loc.slice(hostEnd);
}

/** Where the twin key starts: past the scheme and a leading `www.` (0 when there is no scheme). */
function keyStart(loc: string): number {
  // String scanning rather than a regex or a URL parse: this runs once per URL of the run.
  const schemeEnd = loc.indexOf('://');
  if (schemeEnd < 0) return 0;
  const hostStart = schemeEnd + 3;
  return loc.startsWith('www.', hostStart) || loc.startsWith('WWW.', hostStart) ? hostStart + 4 : hostStart;
}

/** Whether the host that starts at `from` holds an ASCII capital (false when the loc has no scheme). */
function hostHasCapitals(loc: string, from: number): boolean {
  if (from === 0) return false;
  // One pass that stops at the host's end: this runs once per URL of the run.
  for (let i = from; i < loc.length; i++) {
    const c = loc.charCodeAt(i);
    if (endsAuthority(c)) return false;
    if (c >= 0x41 && c <= 0x5a) return true;
  }
  return false;
}

/** 32-bit words per slot: key fingerprint (2), origin, line. */
const WORDS = 4;
const KEY_HIGH = 0;
const KEY_LOW = 1;
/** The prefix's index in the low 8 bits, then a bit set when the host had capitals, then the source. */
const ORIGIN = 2;
const LINE = 3;
const CAPITALS = 0x100;
const SOURCE_SHIFT = 9;

/** Slots of the largest table (16 bytes each: 64 MiB), filled at most to three quarters. */
const MAX_SLOTS = 1 << 22;
export const MAX_REMEMBERED_URLS = (MAX_SLOTS / 4) * 3;
/** Distinct prefixes ("https://www.", "http://") kept by index; a rarer one is not rebuilt in messages. */
const MAX_PREFIXES = 0xff;

/** What `add` answers the first time a URL cannot be remembered: the budget is spent. */
export const BUDGET_SPENT = 'budget-spent';

export class UrlRegistry {
  /** The table's memory, resizable up to the table `maxUrls` needs: it grows in place (see grow). */
  private readonly memory: ArrayBuffer;
  /** A view that follows the memory's length. */
  private readonly table: Uint32Array;
  private mask = 1023;
  private count = 0;
  private stopped = false;
  private readonly prefixes: string[] = [];
  private readonly prefixIndexes = new Map<string, number>();
  /** The prefix met last and its index: nearly every loc of a run shares it, and is not sliced to look it up. */
  private lastPrefix: string | undefined;
  private lastPrefixIndex = 0;
  /**
   * Source names by index, compact: a tree walk names a million sitemaps. A source met again after
   * another (documents read at once interleave) takes a new index: a few bytes, no lookup.
   */
  private readonly sources = new FrontCodedStrings();
  private lastSource: string | undefined;
  private lastSourceIndex = 0;
  /** By key, for a URL whose host had capitals: a hash of how it was spelt (a repeat may spell it otherwise). */
  private readonly spellings = new FingerprintMap();
  /** Scratch space for fingerprints: no allocation per URL. */
  private readonly hash = new Uint32Array(2);
  private readonly spellingHash = new Uint32Array(2);
  /** The loc `find` split last: where its key starts, and whether its host had capitals. */
  private prefixEnd = 0;
  private lowered = false;
  private readonly maxUrls: number;

  /** `maxUrls`: how many URLs to remember at most (MAX_REMEMBERED_URLS, or fewer). */
  constructor(maxUrls = MAX_REMEMBERED_URLS) {
    this.maxUrls = Math.min(maxUrls, MAX_REMEMBERED_URLS);
    // Address space is reserved for the largest table, and memory taken as the table grows.
    const largest = Math.max(this.mask + 1, Math.min(MAX_SLOTS, 2 ** Math.ceil(Math.log2((this.maxUrls * 4) / 3 + 1))));
    this.memory = new ArrayBuffer((this.mask + 1) * WORDS * 4, { maxByteLength: largest * WORDS * 4 });
    this.table = new Uint32Array(this.memory);
  }

  get size(): number {
    return this.count;
  }

  /** True when exactly this loc was recorded. */
  has(loc: string): boolean {
    const slot = this.find(loc);
    return slot >= 0 && this.sameSpelling(slot, loc);
  }

  /**
   * Records a loc; returns what it repeats, or undefined the first time a page is met. Once the
   * budget is spent, new URLs are not remembered: BUDGET_SPENT is answered for the first of them,
   * undefined for the rest (repeats of remembered URLs are still found).
   */
  add(loc: string, source: string, position: Position): Repeat | typeof BUDGET_SPENT | undefined {
    const slot = this.find(loc);
    if (slot < 0) return this.insert(~slot, loc, source, position);
    const at = slot * WORDS;
    const prefix = this.prefixes[(this.table[at + ORIGIN]! & 0xff) - 1];
    const key = keyOf(loc, this.prefixEnd, this.lowered);
    const first: FirstSeen = {
      loc: prefix === undefined ? key : prefix + key,
      sourceIndex: this.table[at + ORIGIN]! >>> SOURCE_SHIFT,
      line: this.table[at + LINE]!,
    };
    const duplicate = this.sameSpelling(slot, loc);
    if (duplicate) first.loc = loc;
    const firstSource = this.sources.at(first.sourceIndex);
    const where = firstSource === source ? `line ${first.line}` : `${firstSource}:${first.line}`;
    return { kind: duplicate ? 'duplicate' : 'twin', first, where };
  }

  /**
   * The slot holding the twin key of `loc`, or the one's complement of the empty slot where it
   * would go. The key is fingerprinted where it lies in the loc: no string is made for it, unless
   * the host has capitals to lower.
   */
  private find(loc: string): number {
    const prefixEnd = keyStart(loc);
    this.prefixEnd = prefixEnd;
    this.lowered = hostHasCapitals(loc, prefixEnd);
    if (this.lowered) fingerprint(keyOf(loc, prefixEnd, true), this.hash);
    else fingerprint(loc, this.hash, prefixEnd);
    // Read one by one: destructuring a typed array goes through its iterator, per URL.
    const high = this.hash[0]!;
    const low = this.hash[1]!;
    const table = this.table;
    for (let slot = (high ^ low) & this.mask; ; slot = (slot + 1) & this.mask) {
      const at = slot * WORDS;
      const storedLow = table[at + KEY_LOW]!;
      if (storedLow === 0) return ~slot;
      if (storedLow === low && table[at + KEY_HIGH] === high) return slot;
    }
  }

  /** Fills `slot` with the loc `find` was last given. */
  private insert(slot: number, loc: string, source: string, position: Position): typeof BUDGET_SPENT | undefined {
    if (this.count >= this.maxUrls) {
      if (this.stopped) return undefined;
      this.stopped = true;
      return BUDGET_SPENT;
    }
    const at = slot * WORDS;
    const table = this.table;
    table[at + KEY_HIGH] = this.hash[0]!;
    table[at + KEY_LOW] = this.hash[1]!;
    table[at + ORIGIN] =
      this.prefixIndexOf(loc) | (this.lowered ? CAPITALS : 0) | (this.sourceIndex(source) << SOURCE_SHIFT);
    table[at + LINE] = position.line;
    if (this.lowered) this.spellings.putIfAbsent(this.hash[0]!, this.hash[1]!, this.spelling(loc));
    if (++this.count * 4 > (this.mask + 1) * 3) this.grow();
    return undefined;
  }

  /** Whether the loc in `slot` was spelt exactly as `loc`, which `find` was last given (its prefix and its host's case). */
  private sameSpelling(slot: number, loc: string): boolean {
    const at = slot * WORDS;
    const origin = this.table[at + ORIGIN]!;
    const prefix = this.prefixes[(origin & 0xff) - 1];
    if (prefix === undefined || !loc.startsWith(prefix) || prefix.length !== this.prefixEnd) return false;
    if ((origin & CAPITALS) === 0) return !this.lowered;
    return (
      this.lowered && this.spellings.get(this.table[at + KEY_HIGH]!, this.table[at + KEY_LOW]!) === this.spelling(loc)
    );
  }

  /** A hash of the whole loc, which `find` was last given. */
  private spelling(loc: string): number {
    fingerprint(loc, this.spellingHash);
    return this.spellingHash[1]!;
  }

  /** The index of the prefix of the loc `find` was last given (see prefixIndex). */
  private prefixIndexOf(loc: string): number {
    const last = this.lastPrefix;
    if (last !== undefined && last.length === this.prefixEnd && loc.startsWith(last)) return this.lastPrefixIndex;
    const prefix = loc.slice(0, this.prefixEnd);
    this.lastPrefix = prefix;
    this.lastPrefixIndex = this.prefixIndex(prefix);
    return this.lastPrefixIndex;
  }

  /** 1-based index of a shared prefix; 0 for a rare one not kept. */
  private prefixIndex(prefix: string): number {
    let index = this.prefixIndexes.get(prefix);
    if (index === undefined) {
      if (this.prefixes.length >= MAX_PREFIXES) return 0;
      index = this.prefixes.push(prefix);
      this.prefixIndexes.set(prefix, index);
    }
    return index;
  }

  /** The source's index (sources beyond 2²³ share the last one: a run reads far fewer documents). */
  private sourceIndex(source: string): number {
    // The URLs of one document come one after the other: its index is not looked up for each.
    if (source === this.lastSource) return this.lastSourceIndex;
    this.lastSource = source;
    this.lastSourceIndex =
      this.sources.size >= 1 << (32 - SOURCE_SHIFT) ? this.sources.size - 1 : this.sources.append(source);
    return this.lastSourceIndex;
  }

  /**
   * Doubles the table in place: the memory grows, and each entry moves to its slot under the new
   * mask. No second table is made, so the pages touched are those of the final table alone (a copy
   * touched as many again, and a fresh page costs more than moving an entry). An entry must never
   * be placed past one not yet moved, or the move would leave a hole in its probe path. So entries
   * go in slot order from the first empty slot, and two kinds are set aside and placed last: those
   * before that slot (they may have wrapped around the old end), and any that would land past an
   * entry not yet moved.
   */
  private grow(): void {
    const oldSlots = this.mask + 1;
    const slots = oldSlots * 2;
    if (slots * WORDS * 4 > this.memory.maxByteLength) return;
    this.memory.resize(slots * WORDS * 4);
    this.mask = slots - 1;
    const table = this.table;
    let firstEmpty = 0;
    while (table[firstEmpty * WORDS + KEY_LOW] !== 0) firstEmpty++;
    const aside: number[] = [];
    for (let at = 0; at < firstEmpty * WORDS; at++) {
      aside.push(table[at]!);
      table[at] = 0;
    }
    for (let slot = firstEmpty + 1; slot < oldSlots; slot++) {
      const at = slot * WORDS;
      if (table[at + KEY_LOW] === 0) continue;
      const to = this.freeSlotFor(table[at + KEY_HIGH]!, table[at + KEY_LOW]!, slot);
      if (to === slot) continue;
      const placed = to < slot || to >= oldSlots;
      for (let word = 0; word < WORDS; word++) {
        if (placed) table[to * WORDS + word] = table[at + word]!;
        else aside.push(table[at + word]!);
        table[at + word] = 0;
      }
    }
    for (let at = 0; at < aside.length; at += WORDS) {
      const to = this.freeSlotFor(aside[at + KEY_HIGH]!, aside[at + KEY_LOW]!, -1) * WORDS;
      for (let word = 0; word < WORDS; word++) table[to + word] = aside[at + word]!;
    }
  }

  /** The first slot from the key's home that is empty or is `own` (the slot of the entry being moved). */
  private freeSlotFor(high: number, low: number, own: number): number {
    const table = this.table;
    let slot = (high ^ low) & this.mask;
    while (slot !== own && table[slot * WORDS + KEY_LOW] !== 0) slot = (slot + 1) & this.mask;
    return slot;
  }
}
