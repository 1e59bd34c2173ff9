/**
 * Text sitemaps: one absolute http(s) URL per line. Other lines are skipped with TXT-001,
 * surrounding whitespace is trimmed with URL-003, blank lines are skipped (reported once).
 */
import { findUrlSyntaxProblem } from '../../core/url.js';
import { splitUserinfo, userinfoProblem } from '../../core/url-userinfo.js';
import type { Report } from '../diagnostics.js';
import type { EntryQueue } from '../emitted.js';
import { abbreviate } from './values.js';
import { looksAbsoluteHttp } from '../../core/url.js';

export class TextSitemapReader {
  private carry = '';
  private line = 1;
  private blankReported = false;
  private skipping = false;

  constructor(
    private readonly report: Report,
    private readonly out: EntryQueue,
    private readonly maxLineLength: number,
  ) {}

  write(chunk: string): void {
    let text = this.carry + chunk;
    let from = 0;
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      if (this.skipping) this.skipping = false;
      else this.readLine(text.slice(from, nl));
      this.line++;
      from = nl + 1;
      nl = text.indexOf('\n', from);
    }
    text = text.slice(from);
    if (!this.skipping && text.length > this.maxLineLength) {
      this.report('LIMIT-001', `line longer than ${this.maxLineLength} characters; skipped`, {
        line: this.line,
        column: 1,
      });
      this.skipping = true;
    }
    this.carry = this.skipping ? '' : text;
  }

  end(): void {
    if (this.carry !== '' && !this.skipping) this.readLine(this.carry, true);
    this.carry = '';
  }

  private readLine(raw: string, last = false): void {
    const at = { line: this.line, column: 1 };
    const value = raw.trim();
    if (value === '') {
      if (!last && !this.blankReported) {
        this.blankReported = true;
        this.report(
          'TXT-001',
          'blank lines in a text sitemap are skipped (this is the first)',
          at,
          undefined,
          'warning',
        );
      }
      return;
    }
    if (!looksAbsoluteHttp(value)) {
      this.report('TXT-001', `"${abbreviate(value)}" is not an absolute http(s) URL; line skipped`, at);
      return;
    }
    const column = raw.indexOf(value) + 1;
    // A user name and password are never kept (core/url-userinfo.ts): what is read is printed and stored.
    const userinfo = splitUserinfo(value);
    const loc = userinfo?.url ?? value;
    if (userinfo) this.report('URL-024', userinfoProblem(userinfo.host).message, { line: this.line, column }, loc);
    if (value.length !== raw.replace(/\r$/, '').length) {
      this.report('URL-003', 'whitespace around the URL was removed', at, loc, 'warning');
    }
    const problem = findUrlSyntaxProblem(loc);
    if (problem) this.report('URL-003', problem.message, { line: this.line, column }, loc);
    this.out.emit({
      entry: { kind: 'url', loc },
      location: { line: this.line, column, fields: { loc: { line: this.line, column } } },
    });
  }
}
