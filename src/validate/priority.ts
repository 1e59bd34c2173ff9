/** PRIO-001 (info): a priority that is the same on every URL says nothing; the parser checks values. */
import type { Position } from '../core/position.js';
import { detach } from '../core/detach.js';
import type { Reporter } from './reporter.js';

export class PriorityUniformity {
  private first: { value: number; position: Position; url: string } | undefined;
  private count = 0;
  private varied = false;

  record(value: number, position: Position, url: string): void {
    this.count++;
    if (this.first === undefined)
      this.first = { value, position: { line: position.line, column: position.column }, url: detach(url) };
    else if (value !== this.first.value) this.varied = true;
  }

  finish(report: Reporter): void {
    if (this.varied || this.count < 2 || this.first === undefined) return;
    report.at(
      'PRIO-001',
      `all ${this.count} URLs have priority ${this.first.value.toFixed(1)}, which tells crawlers nothing; give priorities that differ, or leave them out`,
      this.first.position,
      this.first.url,
      'info',
    );
  }
}
