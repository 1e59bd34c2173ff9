/**
 * The terminal report of `validate`: for each source, its diagnostics in document order in the
 * one form of every command (`source:line:column: severity CODE message`), repeated rules folded past a limit, then one
 * summary line per source. Diagnostics are taken as they stream, so memory stays bounded by the
 * limit, not by the number of problems.
 */
import { formatDiagnostic, type Diagnostic, type Severity } from '../core/diagnostics.js';
import { forTerminal } from '../core/terminal.js';
import { DiagnosticHold, MAX_KEPT_DIAGNOSTICS } from '../validate/result.js';
import type { ValidationResult } from '../validate/types.js';
import { countOf, formatFolded } from './format.js';
import { painter, type Style } from './paint.js';

export interface ValidationReportOptions {
  /** Diagnostics shown per rule and source; the rest are counted (0: show all). */
  maxPerRule: number;
  /** Show errors only. */
  quiet: boolean;
  /** ANSI colours (only on a terminal). */
  color: boolean;
}

interface RuleBucket {
  shown: Diagnostic[];
  folded: number;
  severity: Severity;
}

export class ValidationReport {
  private readonly bySource = new Map<string, Map<string, RuleBucket>>();
  /** What the report may hold, whatever --max-per-rule asks; and per source, how many it did not. */
  private readonly hold = new DiagnosticHold();
  private readonly notHeld = new Map<string, number>();

  constructor(private readonly options: ValidationReportOptions) {
    this.paint = painter(options.color);
  }

  readonly add = (d: Diagnostic): void => {
    if (this.options.quiet && d.severity !== 'error') return;
    const source = d.source ?? '';
    let rules = this.bySource.get(source);
    if (!rules) this.bySource.set(source, (rules = new Map<string, RuleBucket>()));
    let bucket = rules.get(d.code);
    if (!bucket) rules.set(d.code, (bucket = { shown: [], folded: 0, severity: d.severity }));
    if (this.options.maxPerRule !== 0 && bucket.shown.length >= this.options.maxPerRule) bucket.folded++;
    else if (this.hold.admit(d)) bucket.shown.push(d);
    else this.notHeld.set(source, (this.notHeld.get(source) ?? 0) + 1);
  };

  /** The whole report, for the results the diagnostics belong to. */
  render(results: readonly ValidationResult[]): string {
    const blocks = results.map((result) => this.sourceBlock(result.source)).filter((block) => block !== '');
    const summaries = results.map((result) => this.summary(result));
    if (results.length > 1) summaries.push(this.total(results));
    return `${blocks.join('\n')}${blocks.length ? '\n' : ''}${summaries.join('\n')}\n`;
  }

  private sourceBlock(source: string): string {
    const rules = this.bySource.get(source);
    if (!rules) return '';
    const shown = [...rules.values()].flatMap((bucket) => bucket.shown).sort(byPosition);
    const lines = shown.map((d) => formatDiagnostic(d, { source, paint: this.paint }));
    for (const [code, bucket] of rules) {
      if (bucket.folded > 0) {
        lines.push(
          this.paint(
            'dim',
            `${forTerminal(source)}: ${formatFolded({ code, severity: bucket.severity, count: bucket.folded })}`,
          ),
        );
      }
    }
    const beyond = this.notHeld.get(source) ?? 0;
    if (beyond > 0) {
      const most = MAX_KEPT_DIAGNOSTICS.toLocaleString('en-US');
      lines.push(
        this.paint(
          'dim',
          `${forTerminal(source)}: … ${countOf(beyond, 'more problem')} not shown (a run holds ${most} of each severity, then a few of each code)`,
        ),
      );
    }
    return `${lines.join('\n')}\n`;
  }

  private summary(result: ValidationResult): string {
    const verdict = result.valid ? this.paint('ok', 'valid') : this.paint('error', 'invalid');
    const counts = [
      result.kind ?? 'unreadable',
      result.kind === 'sitemapindex' ? countOf(result.sitemaps ?? 0, 'sitemap') : countOf(result.urls, 'URL'),
      this.paint(result.errors ? 'error' : 'dim', countOf(result.errors, 'error')),
      this.paint(result.warnings ? 'warning' : 'dim', countOf(result.warnings, 'warning')),
    ];
    if (result.infos) counts.push(countOf(result.infos, 'info', 'infos'));
    return `${this.paint('bold', forTerminal(result.source))}: ${counts.join(', ')}: ${verdict}`;
  }

  private total(results: readonly ValidationResult[]): string {
    const invalid = results.filter((result) => !result.valid).length;
    const sum = (key: 'errors' | 'warnings' | 'urls') => results.reduce((total, result) => total + result[key], 0);
    return `${countOf(results.length, 'source')}, ${countOf(sum('urls'), 'URL')}, ${countOf(sum('errors'), 'error')}, ${countOf(sum('warnings'), 'warning')}: ${invalid === 0 ? this.paint('ok', 'all valid') : this.paint('error', `${invalid} invalid`)}`;
  }

  private readonly paint: (style: Style, text: string) => string;
}

function byPosition(a: Diagnostic, b: Diagnostic): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}
