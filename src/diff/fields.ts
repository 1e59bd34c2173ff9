/**
 * What differs between two entries of one URL: the names of the fields (lastmod, changefreq,
 * priority, images, videos, news, alternates) whose values are not the same. A lastmod is the
 * same when it names the same instant (2024-05-01T10:00:00Z and 2024-05-01T12:00:00+02:00);
 * a field present on one side only differs. Pure: used by `diff`.
 */
import { w3cToEpochMillis } from '../core/datetime.js';
import type { UrlEntry } from '../core/entry.js';

/** An entry without what names it: the `old` and `new` of a diff row. */
export type EntryFields = Omit<UrlEntry, 'kind' | 'loc'>;

/** The fields in the order rows list them (the entry model's order). */
export const ENTRY_FIELDS = ['lastmod', 'changefreq', 'priority', 'images', 'videos', 'news', 'alternates'] as const;
export type EntryField = (typeof ENTRY_FIELDS)[number];

export function changedFields(before: EntryFields, after: EntryFields): EntryField[] {
  const changed: EntryField[] = [];
  for (const field of ENTRY_FIELDS) {
    const a = before[field];
    const b = after[field];
    if (a === undefined && b === undefined) continue;
    if (field === 'lastmod' ? !sameInstant(a as string | undefined, b as string | undefined) : !sameValue(a, b))
      changed.push(field);
  }
  return changed;
}

function sameInstant(a: string | undefined, b: string | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const ms = w3cToEpochMillis(a);
  return ms !== undefined && ms === w3cToEpochMillis(b);
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
}
