/**
 * Rules on the children of a sitemap index (docs/rules.md): complete URLs (IDX-003), the index's
 * host and directory (IDX-004), no duplicates or self-references (IDX-005). Nesting (IDX-002)
 * needs the child itself and is checked by the recursive run.
 */
import { looksAbsoluteHttp } from '../core/url.js';
import type { LocatedEntry } from '../parse/types.js';
import { BUDGET_SPENT, MAX_REMEMBERED_URLS, UrlRegistry } from './duplicates.js';
import { quote, type Reporter } from './reporter.js';
import type { Scope } from './scope.js';

export class SitemapRefRules {
  /** Made at the first child: most documents are urlsets, which list none. */
  private children: UrlRegistry | undefined;

  constructor(
    private readonly scope: Scope | undefined,
    /** The index's own URL, when known: a child equal to it is a self-reference. */
    private readonly location: string | undefined,
  ) {}

  /**
   * Checks one child; true when a recursive run is to read it: not a repeat of an earlier child
   * and not the index itself, which are reported here once (IDX-005) and not read again.
   */
  check(located: LocatedEntry, report: Reporter): boolean {
    const loc = located.entry.loc;
    if (!looksAbsoluteHttp(loc)) {
      report.field(
        'IDX-003',
        `the child sitemap ${quote(loc)} is not a complete URL; write it with https:// and the host`,
        located,
        'loc',
      );
      return false;
    }
    const itself = this.location !== undefined && loc === this.location;
    if (itself) {
      report.field('IDX-005', 'the index lists itself as a child; remove this entry (it makes a loop)', located, 'loc');
    }
    const repeat = (this.children ??= new UrlRegistry()).add(
      loc,
      report.source,
      located.location.fields.loc ?? located.location,
    );
    if (repeat === BUDGET_SPENT) {
      report.field(
        'LIMIT-004',
        `this index has listed ${MAX_REMEMBERED_URLS.toLocaleString('en-US')} children, all the memory budget lets it remember: children from here on are not checked for repeats (IDX-005)`,
        located,
        'loc',
      );
    } else if (repeat) {
      const what =
        repeat.kind === 'duplicate'
          ? 'listed again'
          : `the same file as ${quote(repeat.first.loc)} on another scheme or host spelling`;
      report.field(
        'IDX-005',
        `the child sitemap is ${what} (first at ${repeat.where}); list each child once`,
        located,
        'loc',
      );
    }
    if (this.scope) {
      const result = this.scope.check(loc);
      if (result !== 'in-scope') {
        const where = result === 'other-host' ? `not on ${this.scope.origin}` : `outside ${this.scope.directory}`;
        report.field(
          'IDX-004',
          `the child sitemap is ${where}, where this index is: ${this.scope.advice()}`,
          located,
          'loc',
          this.scope.severity,
        );
      }
    }
    return !itself && (repeat === undefined || repeat === BUDGET_SPENT);
  }
}
