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

/** Problems one block may hold back (a hostile block could otherwise fill memory with them). */
const MAX_WAITING_PROBLEMS = 1_000;

/**
 * Names problems with the URL of the entry they belong to. While a block is open, its problems
 * (the markup's, met before its loc is read, and the block reader's) wait; when it closes they go
 * out in the order they came, those without a URL named with the block's. Strict mode is no
 * different: its stop comes when the block closes, named. Past MAX_WAITING_PROBLEMS problems go
 * out at once, unnamed.
 */
export class EntryProblems {
  /** The problems of the open block (undefined when none is open). */
  private waiting: Parameters<Report>[] | undefined;

  constructor(private readonly sink: Report) {}

  readonly report: Report = (...problem) => {
    if (this.waiting === undefined || this.waiting.length >= MAX_WAITING_PROBLEMS) this.sink(...problem);
    else this.waiting.push(problem);
  };

  /** A block opens: its problems wait for its URL. */
  open(): void {
    this.waiting = [];
  }

  /** The block closed, read as the entry of `url` (undefined: none, or the document ended inside it). */
  close(url: string | undefined): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    for (const [code, message, at, own, severity] of waiting ?? []) this.sink(code, message, at, own ?? url, severity);
  }
}
