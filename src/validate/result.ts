/** Collects one source's diagnostics into its ValidationResult: counts all, keeps a bounded number. */
import type { Diagnostic } from '../core/diagnostics.js';
import type { DocumentKind } from '../core/entry.js';
import type { ValidationResult } from './types.js';

export const DEFAULT_MAX_DIAGNOSTICS = 10_000;

export class ResultBuilder {
  kind: DocumentKind | undefined;
  urls = 0;
  sitemaps = 0;
  private readonly counts = { error: 0, warning: 0, info: 0 };
  private readonly kept: Diagnostic[] = [];
  /** Diagnostics kept per code, when maxPerRule bounds them. */
  private readonly keptPerCode = new Map<string, number>();

  constructor(
    readonly source: string,
    private readonly maxDiagnostics: number,
    private readonly onDiagnostic?: (diagnostic: Diagnostic) => void,
    /** Diagnostics kept per code (0: no limit), so that a flood of one problem cannot fill memory. */
    private readonly maxPerRule = 0,
  ) {}

  get errors(): number {
    return this.counts.error;
  }

  readonly add = (diagnostic: Diagnostic): void => {
    const sourced = diagnostic.source === this.source ? diagnostic : { ...diagnostic, source: this.source };
    // Each severity has its own quota, so a flood of warnings never hides an error.
    if (this.counts[sourced.severity]++ < this.maxDiagnostics && this.roomFor(sourced.code)) this.kept.push(sourced);
    this.onDiagnostic?.(sourced);
  };

  private roomFor(code: string): boolean {
    if (this.maxPerRule === 0) return true;
    const kept = this.keptPerCode.get(code) ?? 0;
    if (kept >= this.maxPerRule) return false;
    this.keptPerCode.set(code, kept + 1);
    return true;
  }

  result(): ValidationResult {
    const total = this.counts.error + this.counts.warning + this.counts.info;
    return {
      source: this.source,
      kind: this.kind,
      valid: this.counts.error === 0,
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
