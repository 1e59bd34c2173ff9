/**
 * Counting problems without keeping them all: every diagnostic is counted by severity and by code,
 * and only the first few of each code are kept as examples. A verdict ("ok", "valid", the exit code)
 * must come from the counts, never from the examples: a cut-off document with 400 problems keeps
 * 20 examples but still counts 400.
 */
import { detach } from './detach.js';
import type { Diagnostic, Severity } from './diagnostics.js';

/** The problems of one code: how many, at which severity, and the first ones as examples. */
export interface CodeTally {
  code: string;
  severity: Severity;
  count: number;
  examples: Diagnostic[];
}

/** Problems counted by severity. */
export interface TallyCounts {
  errors: number;
  warnings: number;
  infos: number;
}

/**
 * Counts every problem by severity and code while keeping only the first `examplesPerCode` of each
 * as examples: verdicts come from the counts, output from the examples.
 */
export class DiagnosticTally {
  private readonly codes = new Map<string, CodeTally>();
  private readonly counts: TallyCounts = { errors: 0, warnings: 0, infos: 0 };

  /**
   * `examplesPerCode`: diagnostics kept for each code (0 keeps every one). `within`: the tally of
   * the whole run this one is part of (one per document, one for the tree): it counts every problem
   * too, and its own cap per code bounds the examples of all its parts together, however many
   * documents a run meets.
   */
  constructor(
    readonly examplesPerCode = 20,
    private readonly within?: DiagnosticTally,
  ) {}

  /** Counts `d`; true when it was kept as an example (so a caller printing as it goes prints it). */
  add(d: Diagnostic): boolean {
    this.counts[COUNT_OF[d.severity]] += 1;
    let tally = this.codes.get(d.code);
    if (!tally) this.codes.set(d.code, (tally = { code: d.code, severity: d.severity, count: 0, examples: [] }));
    tally.count += 1;
    if (this.examplesPerCode !== 0 && tally.examples.length >= this.examplesPerCode) {
      this.within?.addUnkept(d.code, d.severity, 1);
      return false;
    }
    if (this.within) {
      if (!this.within.add(d)) return false; // kept apart there
    } else keepApart(d);
    tally.examples.push(d);
    return true;
  }

  /** Counts `count` more problems of `code` that are not kept (a remembered tally replayed). */
  addUnkept(code: string, severity: Severity, count: number): void {
    if (count <= 0) return;
    this.within?.addUnkept(code, severity, count);
    this.counts[COUNT_OF[severity]] += count;
    let tally = this.codes.get(code);
    if (!tally) this.codes.set(code, (tally = { code, severity, count: 0, examples: [] }));
    tally.count += count;
  }

  get errors(): number {
    return this.counts.errors;
  }

  get warnings(): number {
    return this.counts.warnings;
  }

  get infos(): number {
    return this.counts.infos;
  }

  get total(): number {
    return this.counts.errors + this.counts.warnings + this.counts.infos;
  }

  /** Counts by severity, as a plain object for JSON output. */
  severities(): TallyCounts {
    return { ...this.counts };
  }

  /** Every code met, in the order first met. */
  byCode(): CodeTally[] {
    return [...this.codes.values()];
  }

  /** The examples of every code, in the order they were added per code. */
  examples(): Diagnostic[] {
    return this.byCode().flatMap((tally) => tally.examples);
  }

  /** Diagnostics counted but not kept, per code (for "… 12 more URL-006 warnings not shown"). */
  folded(): { code: string; severity: Severity; count: number }[] {
    return this.byCode()
      .filter((tally) => tally.count > tally.examples.length)
      .map((tally) => ({ code: tally.code, severity: tally.severity, count: tally.count - tally.examples.length }));
  }

  /** True when at least one counted problem is at `severity` or worse. */
  reaches(severity: Severity): boolean {
    if (severity === 'info') return this.total > 0;
    if (severity === 'warning') return this.counts.errors + this.counts.warnings > 0;
    return this.counts.errors > 0;
  }
}

const COUNT_OF = { error: 'errors', warning: 'warnings', info: 'infos' } as const;

/**
 * An example is kept to the end of a run, but its URL and message may be slices of the document's
 * text (a URL sliced from a decoded chunk holds the whole chunk): their own copies instead, in the
 * same object (callers compare diagnostics by identity).
 */
function keepApart(d: Diagnostic): void {
  d.message = detach(d.message);
  if (d.url !== undefined) d.url = detach(d.url);
  if (d.source !== undefined) d.source = detach(d.source);
}
