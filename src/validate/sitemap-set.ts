/**
 * The validator for documents someone else reads: every rule of the catalog on each document of a
 * set as its entries stream by (with their places), and the cross-file rules once the set is read.
 * `validateSources` reads its sources itself, one at a time; the sitemap tree walk reads many at
 * once over HTTP, and hands each document's entries here (`audit` walks the tree this way, so each
 * sitemap is fetched once, for the tree and for the rules).
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { DocumentKind } from '../core/entry.js';
import { firstPossibleFutureDay } from '../core/rules/dates.js';
import type { LocatedEntry } from '../parse/types.js';
import { StampingDetector } from './dates.js';
import { DocumentValidator, RunState } from './document.js';
import { Reporter } from './reporter.js';
import { scopeFor } from './scope.js';

/** One document of the set, as its reader knows it. */
export interface SetDocument {
  /** The URL it was listed at (its diagnostics' source). */
  url: string;
  /** The URL that answered, after redirects: scope rules and relative locs go by it. */
  finalUrl: string;
  /** Declared in its site's robots.txt, or listed by an index that is: it may list any URL of the origin (SCOPE-EX). */
  crossSubmitted: boolean;
  /** Where its diagnostics go while the document is read. */
  report: (diagnostic: Diagnostic) => void;
}

/** The rules' view of one document: each entry as the parser located it, then the end. */
export interface DocumentChecks {
  entry(located: LocatedEntry): void;
  /** `hadErrors`: the reader found errors, so entries may be missing (no "empty sitemap" then). */
  end(kind: DocumentKind | undefined, hadErrors: boolean): void;
}

export interface SitemapSetOptions {
  /** The clock for DATE-005 and NEWS-003 (epoch ms). */
  now: number;
  /** Scope violations are errors: no document is cross-submitted (see ValidateOptions.strictScope). */
  strictScope?: boolean | undefined;
}

export class SitemapSetValidator {
  private readonly run = new RunState();
  private documents = 0;
  /**
   * The documents that listed hreflang alternates, by number: the return-link rules report on them
   * at finish. Nothing else of a document is held once it ends, for a walk may read a million.
   */
  private readonly withAlternates = new Map<number, string>();
  /** Build-time stamping across the whole set (DATE-006 per document is the document's own). */
  private readonly stamping = new StampingDetector();

  constructor(private readonly options: SitemapSetOptions) {}

  /** Starts a document: feed it every entry, in order, then end it. */
  document(document: SetDocument): DocumentChecks {
    const sourceIndex = this.documents++;
    const reporter = new Reporter(document.url, document.report);
    const strict = this.options.strictScope ?? false;
    const scopeLocation =
      document.crossSubmitted && !strict ? `${new URL(document.finalUrl).origin}/` : document.finalUrl;
    const validator = new DocumentValidator(
      {
        location: document.finalUrl,
        scope: scopeFor(scopeLocation, strict),
        sourceIndex,
        now: this.options.now,
        safeDay: firstPossibleFutureDay(this.options.now),
      },
      this.run,
      reporter,
    );
    return {
      entry: (located) => {
        validator.entry(located);
        const { entry, location } = located;
        if (entry.kind !== 'url') return;
        if (entry.lastmod !== undefined)
          this.stamping.record(entry.lastmod, location.fields.lastmod ?? location, entry.loc);
        if (entry.alternates !== undefined && entry.alternates.length > 0)
          this.withAlternates.set(sourceIndex, document.url);
      },
      end: (kind, hadErrors) => validator.finish(kind, hadErrors),
    };
  }

  /**
   * The rules that need the whole set: hreflang return links and agreement (HREF-004, HREF-005)
   * and, when the set has several documents, one lastmod day shared by most URLs of all of them
   * (DATE-006, sourced to `setName` and placed nowhere). Every diagnostic goes to `report`.
   */
  finish(report: (diagnostic: Diagnostic) => void, setName: string): void {
    this.run.hreflang.finish(
      (index) => new Reporter(this.withAlternates.get(index) ?? setName, report),
      (url) => this.run.urls.has(url),
    );
    if (this.documents < 2) return;
    // Placed nowhere: the first URL of that day is in some document, the finding is the set's.
    this.stamping.finish(
      new Reporter(setName, ({ line: _line, column: _column, ...d }) => report({ ...d, source: setName })),
    );
  }
}
