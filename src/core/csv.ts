/**
 * One cell of every CSV file sitemapkit writes (parse --csv, audit --rows, crawl --report).
 * Values come from the sites read (a Content-Type, a page's dates, a redirect's target), and a
 * spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(…)`,
 * `=cmd|…`); a tab or a carriage return in front hides such a start. As OWASP recommends, such a
 * cell is written with a single quote before it, which spreadsheets show as text.
 */

/** Starts that a spreadsheet may read as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180: quoted when the value holds a comma, a quote or a line break, quotes doubled; a formula-like start neutralised. */
export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
