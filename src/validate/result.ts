/** Collects one source's diagnostics into its ValidationResult: counts all, keeps a bounded number. */
import type { Diagnostic, Severity } from '../core/diagnostics.js';
import type { DocumentKind } from '../core/entry.js';
import { readOutcome } from '../core/outcome.js';
import type { ValidationResult } from './types.js';

export const DEFAULT_MAX_DIAGNOSTICS = 10_000;

/** The diagnostics of each severity a run holds in memory at most, whatever is asked for (some 10 MB). */
export const MAX_KEPT_DIAGNOSTICS = 20_000;
/** Past MAX_KEPT_DIAGNOSTICS, the first diagnostics of each code are still held: a problem met late has its examples. */
const FIRST_OF_EACH_CODE = 20;

/**
 * What one run may hold in memory as examples, asked for or not (no bound, no limit per rule),
 * across all its sources: MAX_KEPT_DIAGNOSTICS of each severity, then only the first few of each
 * code. A document with a problem in every entry, or an index of 50,000 children with a few
 * each, then cannot fill memory (a run stays under 400 MB on any input), and the byte cap met
 * after a million bad dates is still shown. What is not held is still counted by its source.
 */
export class DiagnosticHold {
  private readonly held: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  private readonly heldPerCode = new Map<string, number>();

  /** Whether to hold one more diagnostic (asked once the caller's own limits have let it through). */
  admit({ code, severity }: Pick<Diagnostic, 'code' | 'severity'>): boolean {
    const ofCode = this.heldPerCode.get(code) ?? 0;
    if (this.held[severity] >= MAX_KEPT_DIAGNOSTICS && ofCode >= FIRST_OF_EACH_CODE) return false;
    this.held[severity]++;
    this.heldPerCode.set(code, ofCode + 1);
    return true;
  }
}

export class ResultBuilder {
  kind: DocumentKind | undefined;
  urls = 0;
  sitemaps = 0;
  private readonly counts = { error: 0, warning: 0, info: 0 };
  private readonly kept: Diagnostic[] = [];
  private readonly keptPerCode = new Map<string, number>();
  /** Every code reported, for the read outcome. */
  private readonly reported = new Set<string>();

  constructor(
    readonly source: string,
    private readonly maxDiagnostics: number,
    private readonly onDiagnostic?: (diagnostic: Diagnostic) => void,
    /** Diagnostics kept per code (0: no limit), so that a flood of one problem cannot fill memory. */
    private readonly maxPerRule = 0,
    /** What the run may hold, shared by the builders of all its sources. */
    private readonly hold = new DiagnosticHold(),
  ) {}

  get errors(): number {
    return this.counts.error;
  }

  readonly add = (diagnostic: Diagnostic): void => {
    this.reported.add(diagnostic.code);
    const sourced = diagnostic.source === this.source ? diagnostic : { ...diagnostic, source: this.source };
    // Each severity has its own quota, so a flood of warnings never hides an error.
    if (this.counts[sourced.severity]++ < this.maxDiagnostics && this.roomFor(sourced)) this.kept.push(sourced);
    this.onDiagnostic?.(sourced);
  };

  private roomFor(diagnostic: Diagnostic): boolean {
    const kept = this.keptPerCode.get(diagnostic.code) ?? 0;
    if ((this.maxPerRule !== 0 && kept >= this.maxPerRule) || !this.hold.admit(diagnostic)) return false;
    this.keptPerCode.set(diagnostic.code, kept + 1);
    return true;
  }

  result(): ValidationResult {
    const total = this.counts.error + this.counts.warning + this.counts.info;
    return {
      source: this.source,
      kind: this.kind,
      valid: this.counts.error === 0,
      read: readOutcome({ kind: this.kind, reported: (code) => this.reported.has(code) }),
      urls: this.urls,
      ...(this.kind === 'sitemapindex' ? { sitemaps: this.sitemaps } : {}),
      errors: this.counts.error,
      warnings: this.counts.warning,
      infos: this.counts.info,
      diagnostics: this.kept,
      ...(total > this.kept.length ? { omitted: total - this.kept.length } : {}),
    };
  }
}
