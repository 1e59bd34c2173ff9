/**
 * Problems printed on stderr as they come (`source:line:column: severity CODE message`), at most
 * `maxPerRule` of each code (0: all), then one line per code for the rest not shown.
 */
import { DiagnosticTally } from '../core/diagnostic-tally.js';
import { formatDiagnostic, type Diagnostic } from '../core/diagnostics.js';
import { formatFolded } from '../report/format.js';
import type { Io } from './command.js';

export class ProblemPrinter {
  private readonly tally: DiagnosticTally;

  constructor(
    private readonly io: Io,
    maxPerRule: number,
    /** Which problems are printed at all (default: errors and warnings). */
    private readonly shown: (problem: Diagnostic) => boolean = (problem) => problem.severity !== 'info',
  ) {
    this.tally = new DiagnosticTally(maxPerRule);
  }

  readonly print = (problem: Diagnostic): void => {
    if (this.shown(problem) && this.tally.add(problem)) this.io.stderr.write(`${formatDiagnostic(problem)}\n`);
  };

  /** The counts of what was not shown. */
  end(): void {
    const lines = this.tally.folded().map(formatFolded);
    if (lines.length > 0) this.io.stderr.write(`${lines.join('\n')}\n`);
  }
}
