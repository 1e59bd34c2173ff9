/**
 * The progress line of every long command, on stderr and never on stdout: redrawn in place on a
 * terminal (at most every `terminalEveryMs`), and off a terminal (a CI log, a file) a plain line
 * every `plainEveryMs`, or none. A new command makes one and calls update() as its work advances.
 */
import { forTerminal } from '../core/terminal.js';
import type { Io } from './command.js';

/** Erases the current line of a terminal. */
export const CLEAR_LINE = '\r\u001b[K';

export interface ProgressOptions {
  /** Least time between two redraws on a terminal (default 100 ms). */
  terminalEveryMs?: number;
  /** Least time between two plain lines off a terminal (default 10 s); 'never': none. */
  plainEveryMs?: number | 'never';
}

export class ProgressLine {
  private readonly everyMs: number | undefined;
  private drawnAt = Date.now();
  private drawn = false;
  private last: (() => string) | undefined;

  constructor(
    private readonly io: Io,
    { terminalEveryMs = 100, plainEveryMs = 10_000 }: ProgressOptions = {},
  ) {
    this.everyMs = io.stderrIsTerminal ? terminalEveryMs : plainEveryMs === 'never' ? undefined : plainEveryMs;
  }

  /** Shows the line `text` makes, when one is due (the text is made only then). */
  readonly update = (text: () => string): void => {
    this.last = text;
    if (this.everyMs !== undefined && Date.now() - this.drawnAt >= this.everyMs) this.draw(text());
  };

  /** Erases the line on a terminal, before the report is printed. */
  clear(): void {
    if (this.drawn) this.io.stderr.write(CLEAR_LINE);
    this.drawn = false;
  }

  /** Draws the last state once more and leaves it standing (ends the line on a terminal). */
  end(): void {
    if (this.last === undefined || this.everyMs === undefined) return;
    this.draw(this.last());
    if (this.io.stderrIsTerminal) this.io.stderr.write('\n');
    this.drawn = false;
    this.last = undefined;
  }

  private draw(text: string): void {
    const line = forTerminal(text); // it may name a URL or a file of the input
    this.io.stderr.write(this.io.stderrIsTerminal ? `${CLEAR_LINE}${line}` : `${line}\n`);
    this.drawn = this.io.stderrIsTerminal;
    this.drawnAt = Date.now();
  }
}
