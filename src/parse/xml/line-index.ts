/**
 * Where the lines of a document start: the one owner of positions while a document is read. It
 * holds the text in hand (the lexer's, the same string: nothing is copied) and forgets what was
 * released, so it indexes the lines of that text, never the whole document's. Line breaks are
 * looked for only once a place is asked for (text released before that is only counted: a reader
 * that asks for no positions pays for no index). A place is found by binary search over the line
 * starts, unless it lies a few lines past the one found last, as places are mostly asked for in
 * increasing order.
 *
 * Lines start after a line feed (a carriage return alone starts none, as in XML's end-of-line
 * handling of CRLF); columns count UTF-16 code units from 1.
 */
import type { Position } from '../../core/position.js';

export class LineIndex {
  /** The document offsets where the lines found start, increasing; `starts[0]` starts line `firstLine`. */
  private starts: number[] = [0];
  private firstLine = 1;
  /** The text held but not yet searched for line breaks, and the document offset where it starts. */
  private unread = '';
  private unreadAt = 0;
  /** The index in `starts` of the line found last. */
  private last = 0;

  /**
   * The text in hand is now `text`, from document offset `offset` on: no place before `offset` is
   * asked for again, and the text goes on as far as it does (it only ever grows at its end).
   */
  hold(text: string, offset: number): void {
    if (offset > this.unreadAt) this.countTo(offset);
    else if (offset > this.starts[0]!) this.forgetBefore(offset);
    this.unread = text.slice(this.unreadAt - offset);
  }

  /** The line and column of a document offset (one not before what was released). */
  positionOf(offset: number): Position {
    if (offset >= this.unreadAt) this.index();
    const line = this.lineAt(offset);
    return { line: this.firstLine + line, column: offset - this.starts[line]! + 1 };
  }

  /** Forgets the lines found before the one holding `offset`. */
  private forgetBefore(offset: number): void {
    const line = this.lineAt(offset);
    this.starts = this.starts.slice(line);
    this.firstLine += line;
    this.last = 0;
  }

  /** Counts the lines of the unread text before `offset`, and forgets every line before the one holding it. */
  private countTo(offset: number): void {
    const cut = offset - this.unreadAt;
    const unread = this.unread;
    let breaks = 0;
    let lastBreak = -1;
    for (let nl = unread.indexOf('\n'); nl !== -1 && nl < cut; nl = unread.indexOf('\n', nl + 1)) {
      breaks++;
      lastBreak = nl;
    }
    const lastLine = this.starts.length - 1;
    this.firstLine += lastLine + breaks;
    this.starts = [breaks === 0 ? this.starts[lastLine]! : this.unreadAt + lastBreak + 1];
    this.unreadAt = offset;
    this.last = 0;
  }

  /** Records where the lines of the unread text start. */
  private index(): void {
    const { unread, unreadAt, starts } = this;
    for (let nl = unread.indexOf('\n'); nl !== -1; nl = unread.indexOf('\n', nl + 1)) starts.push(unreadAt + nl + 1);
    this.unreadAt += unread.length;
    this.unread = '';
  }

  /** The index in `starts` of the line holding `offset`. */
  private lineAt(offset: number): number {
    const starts = this.starts;
    let line = this.last;
    if (starts[line]! <= offset) {
      // Places are mostly asked for in increasing order, a few lines apart: walk on from the last.
      const walk = Math.min(starts.length, line + NEARBY_LINES);
      while (line + 1 < walk && starts[line + 1]! <= offset) line++;
      if (line + 1 === starts.length || offset < starts[line + 1]!) return (this.last = line);
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return (this.last = low);
  }
}

/** How far past the line found last a place is looked for line by line, before a binary search. */
const NEARBY_LINES = 8;
