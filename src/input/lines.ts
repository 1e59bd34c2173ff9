/**
 * Splits a byte stream into text lines with their 1-based numbers. LF and CRLF both end a
 * line; the text is decoded as a URL list's (text-decoding.ts: UTF-8, or UTF-16 with its byte
 * order mark). A multi-byte character split across two chunks is decoded correctly.
 *
 * Linear in the input whatever the line length: each chunk is searched for line ends once, and a
 * line longer than the reader's limit is not gathered at all but reported (`problem`) and skipped,
 * so that one 300 MB line costs a scan of 300 MB and holds no more than the limit.
 */
import { ListTextDecoder, NotUtf8Error } from './text-decoding.js';

export interface NumberedLine {
  text: string;
  line: number;
  /** Why the line could not be read (too long, not UTF-8); its text is then empty. */
  problem?: string;
}

/** How long a line may be, in characters, and what to say of one longer. */
export interface LineLimit {
  maxLength: number;
  /** The end of the message for a longer line: "…; <this>". */
  hint: string;
}

/** The default limit: one JSON entry with a thousand images and videos fits; a whole list on one line does not. */
export const MAX_LINE_LENGTH: LineLimit = {
  maxLength: 8 * 1024 * 1024,
  hint: 'a URL list holds one URL or one entry per line',
};

export async function* readLines(
  chunks: AsyncIterable<Uint8Array | string>,
  limit: LineLimit = MAX_LINE_LENGTH,
): AsyncGenerator<NumberedLine> {
  for await (const lines of readLineBatches(chunks, limit)) yield* lines;
}

/**
 * The same lines, those of each chunk together (no promise per line). Bytes that are not UTF-8
 * end the reading with a last line that says so.
 */
export async function* readLineBatches(
  chunks: AsyncIterable<Uint8Array | string>,
  limit: LineLimit = MAX_LINE_LENGTH,
): AsyncGenerator<NumberedLine[]> {
  const splitter = new LineSplitter(limit);
  try {
    for await (const piece of decodeText(chunks)) {
      const lines = splitter.split(piece);
      if (lines.length > 0) yield lines;
    }
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    yield [...splitter.split(error.text), splitter.notUtf8(error)];
    return;
  }
  const last = splitter.rest();
  if (last !== undefined) yield [last];
}

/**
 * Lines out of text pieces: the lines each piece completes, and the start of the next held back
 * (as pieces, joined once the line ends; past the limit only counted).
 */
export class LineSplitter {
  /** The number of the last line completed. */
  line = 0;
  private held: string[] = [];
  private heldLength = 0;
  private over = false;

  constructor(private readonly limit: LineLimit) {}

  /** Whether a line has begun in an earlier piece. */
  get pending(): boolean {
    return this.heldLength > 0 || this.over;
  }

  /** The lines that end in `piece`; the start of the next is held. */
  split(piece: string): NumberedLine[] {
    const lines: NumberedLine[] = [];
    let start = 0;
    for (let end = piece.indexOf('\n'); end !== -1; end = piece.indexOf('\n', start)) {
      lines.push(this.complete(piece, start, end));
      start = end + 1;
    }
    this.hold(piece, start);
    return lines;
  }

  /** The line that ends at `end` (a "\n") in `piece`, begun at `start` or in earlier pieces. */
  complete(piece: string, start: number, end: number): NumberedLine {
    const line = ++this.line;
    if (this.over || this.heldLength + end - start > this.limit.maxLength) return this.tooLong(line);
    let text = piece.slice(start, end);
    if (this.heldLength > 0) {
      text = this.held.join('') + text;
      this.held = [];
      this.heldLength = 0;
    }
    return { text: text.endsWith('\r') ? text.slice(0, -1) : text, line };
  }

  /** Holds `piece` from `start` as the beginning of a line. */
  hold(piece: string, start: number): void {
    if (start >= piece.length || this.over) return;
    this.heldLength += piece.length - start;
    if (this.heldLength > this.limit.maxLength) {
      this.over = true;
      this.held = [];
    } else this.held.push(start === 0 ? piece : piece.slice(start));
  }

  /** The last line, when the text does not end with a line end. */
  rest(): NumberedLine | undefined {
    if (!this.pending) return undefined;
    return this.complete('\n', 0, 0);
  }

  /** The line where bytes that are not UTF-8 stopped the reading. */
  notUtf8(error: NotUtf8Error): NumberedLine {
    this.held = [];
    this.heldLength = 0;
    this.over = false;
    return { text: '', line: ++this.line, problem: error.message };
  }

  private tooLong(line: number): NumberedLine {
    this.held = [];
    this.heldLength = 0;
    this.over = false;
    const max = this.limit.maxLength.toLocaleString('en-US');
    return { text: '', line, problem: `the line is longer than ${max} characters; ${this.limit.hint}` };
  }
}

/**
 * A byte stream's text, chunk by chunk, decoded as a URL list's (text-decoding.ts); text chunks
 * pass as they are (they were decoded so already). Throws NotUtf8Error.
 */
export async function* decodeText(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new ListTextDecoder();
  let first = true;
  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk);
    if (text === '') continue;
    // A byte order mark at the start of text given as text (the decoder drops one in bytes).
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}
