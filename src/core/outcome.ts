/**
 * How one document was read, decided here once for every command (parse, validate, tree, audit,
 * crawl --use-sitemaps, diff, submit), so that they never disagree about the same bytes:
 *
 * - `whole`: read to its end as a sitemap (it may still have problems of its own);
 * - `cut-off`: something was read, but the bytes ended (or reading stopped) inside the document:
 *   a plain or gzip file cut short, a transfer that broke off, a size or entry cap;
 * - `not-read`: nothing was read as a sitemap: no answer, not 200, an empty body, an HTML page;
 * - `unchanged`: as it was when last read whole (tree --state); its remembered problems are
 *   reported again, as a compiler's cache replays warnings.
 *
 * The decision comes from the document's kind and the codes reported for it, so that it holds
 * wherever diagnostics go (a tree node, a validation result, a stored state).
 */
import type { DocumentKind } from './entry.js';

export type ReadOutcome = 'whole' | 'cut-off' | 'not-read' | 'unchanged';

/**
 * Codes that mean the document was not read to its end: FETCH-001 (no answer, not 200, empty, a
 * transfer that broke off), FETCH-005 (gzip that does not inflate), FETCH-006 (the size cap),
 * LIMIT-002 (the entry limit), XML-014 (the XML ends inside an element: cut off).
 */
export const DATA_LOSS_CODES: ReadonlySet<string> = new Set([
  'FETCH-001',
  'FETCH-005',
  'FETCH-006',
  'LIMIT-002',
  'XML-014',
]);

/** What the outcome is decided from. */
export interface ReadFacts {
  /** The document's kind as the parser found it (undefined: nothing was read). */
  kind: DocumentKind | undefined;
  /** Whether a problem of `code` was reported for this document. */
  reported: (code: string) => boolean;
  /** Found unchanged since it was last read whole (a 304, or the same body). */
  unchanged?: boolean | undefined;
}

/** The one decision: see the module comment. */
export function readOutcome({ kind, reported, unchanged }: ReadFacts): ReadOutcome {
  if (unchanged === true) return 'unchanged';
  if (kind === undefined || kind === 'html' || kind === 'unknown') return 'not-read';
  for (const code of DATA_LOSS_CODES) if (reported(code)) return 'cut-off';
  return 'whole';
}

/** True when nothing of the document is missing: read whole now, or unchanged since it was. */
export function readWhole(outcome: ReadOutcome): boolean {
  return outcome === 'whole' || outcome === 'unchanged';
}
