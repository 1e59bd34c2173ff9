/**
 * How rule modules report: a catalog code, a message that says what is wrong and how to fix it,
 * and where. The reporter adds the source, the entry's url and the position, so rules stay short.
 */
import { diagnostic, type Diagnostic, type Severity } from '../core/diagnostics.js';
import type { RuleProblem } from '../core/rules/problem.js';
import type { Position } from '../core/position.js';
import type { EntryLocation, LocatedEntry } from '../parse/types.js';

export type { Position };

/** No fallback field: one shared array, as `rules` runs for every entry. */
const NO_FALLBACKS: readonly string[] = Object.freeze([]);

/** Where a document-level problem without a better place is reported: the start of the file. */
export const DOCUMENT_START: Position = { line: 1, column: 1 };

export class Reporter {
  constructor(
    readonly source: string,
    private readonly emit: (diagnostic: Diagnostic) => void,
  ) {}

  /** A problem at a place (document-level, or of an entry when `url` is given). */
  at(code: string, message: string, position: Position, url?: string, severity?: Severity): void {
    this.emit(
      diagnostic(code, message, {
        line: position.line,
        column: position.column,
        ...(url === undefined ? {} : { url }),
        source: this.source,
        ...(severity === undefined ? {} : { severity }),
      }),
    );
  }

  /** A problem of one entry, at the first of `paths` the parser located (else the entry's start tag). */
  field(
    code: string,
    message: string,
    located: LocatedEntry,
    paths: string | readonly string[],
    severity?: Severity,
  ): void {
    this.at(code, message, fieldPosition(located.location, paths), located.entry.loc, severity);
  }

  /**
   * Problems a rule checker found in one entry: each at its field (`prefix` + the problem's
   * path) or the nearest field holding it that the parser located ('videos.0.uploader' for
   * 'videos.0.uploader.info'), else at the first of `fallbacks`, else at the entry.
   */
  rules(
    problems: readonly RuleProblem[],
    located: LocatedEntry,
    prefix: string,
    fallbacks: readonly string[] = NO_FALLBACKS,
  ): void {
    // Indexed: an iterator per call was most of what checking a valid entry allocated.
    for (let i = 0; i < problems.length; i++) {
      const found = problems[i]!;
      const path = found.path === undefined ? prefix : prefix === '' ? found.path : `${prefix}.${found.path}`;
      const holders = path.split('.').map((_, i, parts) => parts.slice(0, parts.length - i).join('.'));
      this.field(found.code, found.message, located, [...holders, ...fallbacks], found.severity);
    }
  }
}

/** The position of a field's value, falling back to the element that holds it, then the entry. */
export function fieldPosition(location: EntryLocation, paths: string | readonly string[]): Position {
  // A single path is looked up as it is: this runs for every hreflang link kept.
  if (typeof paths === 'string') return location.fields[paths] ?? location;
  for (const path of paths) {
    const found = location.fields[path];
    if (found) return found;
  }
  return location;
}

/** An entry in a diagnostic message: its URL, shortened when very long. */
export function quote(text: string, max = 120): string {
  return `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
}
