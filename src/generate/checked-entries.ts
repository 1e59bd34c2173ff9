/**
 * Entries as one document writes them, on any runtime: each checked and put in written form by
 * prepareEntry (an error in `loc` drops the entry, an error in another field leaves that field
 * out, warnings are only reported), repeated URLs skipped (URL-006), every problem reported as a
 * diagnostic naming its URL. `strict` stops at the first problem instead.
 */
import { diagnostic, type Diagnostic, type UrlEntry } from '../core/index.js';
import { FingerprintSet } from '../core/fingerprint-set.js';
import { GenerateError } from './errors.js';
import { prepareEntry, type PrepareContext } from './prepare.js';

/** An entry as a program hands it in: `kind` may be left out, anything else is checked. */
export type UrlInput = Omit<UrlEntry, 'kind'> & { kind?: 'url' };

export interface CheckOptions {
  /** Stop at the first error: a GenerateError carrying it is thrown (warnings are still only reported). */
  strict?: boolean | undefined;
  /** Skip repeated URLs (first wins); default true. Costs 8 bytes per distinct URL. */
  dedupe?: boolean | undefined;
  /** Called for each problem: errors drop the entry or the field, warnings are only reported. */
  onProblem?: ((problem: Diagnostic) => void) | undefined;
  /** Called, after onProblem, for each entry left out (bad `loc`, repeated URL), with the problem that left it out. */
  onDropped?: ((problem: Diagnostic) => void) | undefined;
}

export interface CheckedEntry {
  entry: UrlEntry;
  /** The instant of lastmod, when it has one. */
  lastmodMillis: number | undefined;
}

/** Checks entries one by one; `check` returns the entry to write, or undefined when it is dropped. */
export class EntryChecker {
  private readonly seen: FingerprintSet | undefined;
  errors = 0;
  warnings = 0;

  constructor(
    private readonly context: PrepareContext,
    private readonly options: CheckOptions,
  ) {
    this.seen = options.dedupe === false ? undefined : new FingerprintSet(1 << 12);
  }

  check(raw: unknown): CheckedEntry | undefined {
    const prepared = prepareEntry(raw, this.context);
    if (!prepared.ok) {
      const loc = (raw as { loc?: unknown } | null)?.loc;
      this.drop(
        diagnostic(prepared.problem.code, prepared.problem.message, typeof loc === 'string' ? { url: loc } : {}),
      );
      return undefined;
    }
    const { entry } = prepared;
    for (const found of prepared.problems) {
      this.report(
        diagnostic(found.code, found.message, {
          url: entry.loc,
          ...(found.severity === undefined ? {} : { severity: found.severity }),
        }),
      );
    }
    if (this.seen !== undefined && !this.seen.add(entry.loc)) {
      this.drop(
        diagnostic('URL-006', `duplicate URL ${entry.loc}: written once, at its first occurrence`, { url: entry.loc }),
      );
      return undefined;
    }
    return { entry, lastmodMillis: prepared.lastmodMillis };
  }

  private drop(problem: Diagnostic): void {
    this.report(problem);
    this.options.onDropped?.(problem);
  }

  private report(problem: Diagnostic): void {
    if (problem.severity === 'error') {
      this.errors++;
      if (this.options.strict)
        throw new GenerateError(`stopped at the first problem (strict): ${problem.message}`, problem);
    } else {
      this.warnings++;
    }
    this.options.onProblem?.(problem);
  }
}

/** The public URL of the folder sitemaps are served from, ending in '/' (relative locs resolve against it). */
export function folderUrl(baseUrl: string): string {
  return new URL(baseUrl).href.replace(/\/?$/, '/');
}
