/**
 * One line of progress on stderr for long work ("reading old: 1,200,000 URLs"): redrawn in place
 * on a terminal, at most 10 times a second; otherwise (a log, CI) a line every 10 seconds.
 */
import type { Io } from './command.js';

export class ProgressLine {
  private lastDraw = Date.now();
  private drawn = false;

  constructor(private readonly io: Io) {}

  /** Shows `line` unless one was shown too recently. */
  draw(line: string): void {
    const now = Date.now();
    if (now - this.lastDraw < (this.io.stderrIsTerminal ? 100 : 10_000)) return;
    this.lastDraw = now;
    if (this.io.stderrIsTerminal) {
      this.io.stderr.write(`\r${line}\u001b[K`);
      this.drawn = true;
    } else {
      this.io.stderr.write(`${line}\n`);
    }
  }

  /** Clears the line on a terminal, before the output that follows it. */
  clear(): void {
    if (this.drawn) this.io.stderr.write('\r\u001b[K');
    this.drawn = false;
  }
}
