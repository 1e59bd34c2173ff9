/**
 * What the document readers hand to the parser: an entry with its location, or, from the fast
 * path when no positions were asked for, with the offset its block starts at in the document
 * (placed only if a diagnostic about the entry needs it, while its text is still at hand).
 */
import type { Entry } from '../core/entry.js';
import type { EntryLocation } from './types.js';

export type EmittedEntry = { entry: Entry; location: EntryLocation; offset?: undefined } | { entry: Entry; location?: undefined; offset: number };
