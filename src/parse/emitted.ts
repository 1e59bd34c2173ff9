/**
 * What the document readers hand to the parser: an entry with its location, or, from the fast
 * path when no positions were asked for, with the offset its block starts at in the document
 * (placed only if a diagnostic about the entry needs it, while its text is still at hand).
 */
import type { Entry } from '../core/entry.js';
import type { EntryLocation } from './types.js';

export type EmittedEntry =
  | { entry: Entry; location: EntryLocation; offset?: undefined }
  | { entry: Entry; location?: undefined; offset: number };

/**
 * Where the readers put the entries they read; the parser takes them out a chunk's worth at a
 * time. Readers call its one method for every entry: a method shared by every document keeps
 * that call the same for V8 (a fresh closure per document made it recompile the hot path).
 */
export class EntryQueue {
  private items: EmittedEntry[] = [];

  emit(entry: EmittedEntry): void {
    this.items.push(entry);
  }

  get size(): number {
    return this.items.length;
  }

  /** The entries queued so far, leaving the queue empty. */
  take(): EmittedEntry[] {
    const items = this.items;
    this.items = [];
    return items;
  }
}
