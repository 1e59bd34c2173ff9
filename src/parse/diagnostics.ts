/**
 * The parser's diagnostic sink: keeps the first `maxDiagnostics`, counts all, passes each to the
 * caller's `onDiagnostic`, and in strict mode turns the first error into a thrown ParseError.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import { ParseError, type Position } from './types.js';

import type { Severity } from '../core/diagnostics.js';

export type Report = (code: string, message: string, at?: Position, url?: string, severity?: Severity) => void;

export class DiagnosticSink {
  readonly kept: Diagnostic[] = [];
  count = 0;

  constructor(
    private readonly options: {
      strict: boolean;
      source?: string;
      maxDiagnostics: number;
      onDiagnostic?: (d: Diagnostic) => void;
    },
  ) {}

  readonly report: Report = (code, message, at, url, severity) => {
    const d = diagnostic(code, message, {
      line: at?.line,
      column: at?.column,
      url,
      source: this.options.source,
      severity,
    });
    for (const key of ['line', 'column', 'url', 'source'] as const) if (d[key] === undefined) delete d[key];
    this.count++;
    if (this.kept.length < this.options.maxDiagnostics) this.kept.push(d);
    this.options.onDiagnostic?.(d);
    if (this.options.strict && d.severity === 'error') throw new ParseError(d);
  };
}
