/**
 * Splits a byte stream into text lines with their 1-based numbers. LF and CRLF both end a
 * line; a UTF-8 byte order mark at the very start is dropped. A multi-byte character split
 * across two chunks is decoded correctly (TextDecoder in streaming mode).
 */
export interface NumberedLine {
  text: string;
  line: number;
}

export async function* readLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<NumberedLine> {
  for await (const lines of readLineBatches(chunks)) yield* lines;
}

/** The same lines, those of each chunk together (no promise per line). */
export async function* readLineBatches(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<NumberedLine[]> {
  let carry = '';
  let line = 0;
  for await (const piece of decodeUtf8(chunks)) {
    const text = carry + piece;
    const lines: NumberedLine[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      lines.push({ text: text.slice(start, stop), line: ++line });
      start = end + 1;
    }
    carry = text.slice(start);
    if (lines.length > 0) yield lines;
  }
  if (carry.length > 0) yield [{ text: carry.endsWith('\r') ? carry.slice(0, -1) : carry, line: line + 1 }];
}

/**
 * A byte stream's text, chunk by chunk: UTF-8 decoded in streaming mode (a character split
 * between two chunks comes whole), a byte order mark at the very start dropped.
 */
export async function* decodeUtf8(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}
