/**
 * A live progress line on stderr: on a terminal redrawn in place at most 10 times a second (and
 * erased when the work is done), elsewhere (a log, CI) printed as a plain line every 10 seconds.
 */
import type { Io } from './command.js';

export class ProgressLine {
  private lastDraw = Date.now();
  private drawn = false;

  constructor(private readonly io: Io) {}

  /** True when a line would be drawn now: build the text only then. */
  get due(): boolean {
    return Date.now() - this.lastDraw >= (this.io.stderrIsTerminal ? 100 : 10_000);
  }

  /** Draws `line` if it is time to. */
  show(line: string): void {
    if (!this.due) return;
    this.lastDraw = Date.now();
    if (this.io.stderrIsTerminal) {
      this.io.stderr.write(`\r${line}\u001b[K`);
      this.drawn = true;
    } else {
      this.io.stderr.write(`${line}\n`);
    }
  }

  /** Erases the line on a terminal. */
  clear(): void {
    if (this.drawn) this.io.stderr.write('\r\u001b[K');
    this.drawn = false;
  }
}
