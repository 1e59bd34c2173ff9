/**
 * The parser's diagnostic sink: keeps the first `maxDiagnostics`, counts all, passes each to the
 * caller's `onDiagnostic`, and in strict mode turns the first error into a thrown ParseError.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { Position } from '../core/position.js';
import { ParseError } from './types.js';

import type { Severity } from '../core/diagnostics.js';

export type Report = (code: string, message: string, at?: Position, url?: string, severity?: Severity) => void;

export class DiagnosticSink {
  readonly kept: Diagnostic[] = [];
  count = 0;

  constructor(
    private readonly options: {
      strict: boolean;
      source?: string | undefined;
      maxDiagnostics: number;
      onDiagnostic?: ((d: Diagnostic) => void) | undefined;
    },
  ) {}

  readonly report: Report = (code, message, at, url, severity) => {
    const source = this.options.source;
    const d = diagnostic(code, message, {
      ...(at === undefined ? {} : { line: at.line, column: at.column }),
      ...(url === undefined ? {} : { url }),
      ...(source === undefined ? {} : { source }),
      ...(severity === undefined ? {} : { severity }),
    });
    this.count++;
    if (this.kept.length < this.options.maxDiagnostics) this.kept.push(d);
    this.options.onDiagnostic?.(d);
    if (this.options.strict && d.severity === 'error') throw new ParseError(d);
  };
}
