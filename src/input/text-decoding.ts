/**
 * A URL list's bytes as text, chunk by chunk. The encoding is UTF-8, or UTF-16 when the text
 * starts with its byte order mark (what Windows PowerShell's `>` writes); a byte order mark is
 * dropped. Bytes that are not UTF-8 stop the reading with a {@link NotUtf8Error}, which carries
 * the text read before them, so that the line readers can name the line: a Latin-1 `é` read as
 * U+FFFD would otherwise become `%EF%BF%BD` in a URL, silently.
 *
 * A character split between two chunks comes whole (TextDecoder in streaming mode).
 */

/** Bytes that are not UTF-8, met after `text` (the decoded text before them, not yet handed on). */
export class NotUtf8Error extends Error {
  constructor(
    readonly text: string,
    readonly byte: number,
  ) {
    super(
      `byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} is not UTF-8: save the list as UTF-8 (or UTF-16 with a byte order mark)`,
    );
    this.name = 'NotUtf8Error';
  }
}

type Decoder = InstanceType<typeof TextDecoder>;

export class ListTextDecoder {
  private decoder: Decoder | undefined;
  /** The first byte, held until the second tells whether they are a UTF-16 byte order mark. */
  private held: Uint8Array | undefined;
  /** The end of the last chunk that starts a character the next one ends (UTF-8 only). */
  private pending: Uint8Array = new Uint8Array(0);
  private utf8 = true;

  /** The text of the next chunk; throws NotUtf8Error at the first byte that is not UTF-8. */
  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.decoder === undefined) {
      if (this.held !== undefined) bytes = concat(this.held, bytes);
      if (bytes.length < 2) {
        this.held = bytes.slice(); // the caller may read into its buffer again
        return '';
      }
      this.held = undefined;
      this.decoder = this.open(bytes);
    }
    if (!this.utf8) return this.decoder.decode(bytes, { stream: true });
    try {
      const text = this.decoder.decode(bytes, { stream: true });
      this.pending = incompleteEnd(bytes);
      return text;
    } catch {
      throw this.failure(concat(this.pending, bytes));
    }
  }

  /** The text the decoder still holds at the end of the input. */
  end(): string {
    if (this.decoder === undefined) {
      if (this.held === undefined) return '';
      this.decoder = this.open(this.held);
      return this.decodeLast(this.held);
    }
    return this.decodeLast(new Uint8Array(0));
  }

  private decodeLast(bytes: Uint8Array): string {
    try {
      return this.decoder!.decode(bytes);
    } catch {
      throw this.failure(concat(this.pending, bytes));
    }
  }

  private open(start: Uint8Array): Decoder {
    const encoding =
      start[0] === 0xff && start[1] === 0xfe
        ? 'utf-16le'
        : start[0] === 0xfe && start[1] === 0xff
          ? 'utf-16be'
          : 'utf-8';
    this.utf8 = encoding === 'utf-8';
    // UTF-16 is decoded leniently: a lone surrogate becomes U+FFFD, which the URL rules report.
    return new TextDecoder(encoding, { fatal: this.utf8 });
  }

  /** The error for bytes that hold an invalid sequence, with the valid text before it. */
  private failure(bytes: Uint8Array): NotUtf8Error {
    const at = firstInvalidUtf8(bytes);
    const text = new TextDecoder('utf-8').decode(bytes.subarray(0, at));
    return new NotUtf8Error(text, bytes[at] ?? 0);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** How many bytes a UTF-8 sequence that starts with `lead` has (0: no lead byte). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The bytes at the end of valid UTF-8 that start a character not yet complete. */
function incompleteEnd(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    return sequenceLength(byte) > back ? bytes.slice(bytes.length - back) : new Uint8Array(0);
  }
  return new Uint8Array(0);
}

/** The offset of the first byte of an invalid (or cut-off) UTF-8 sequence (the WHATWG decoder's rules). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const length = sequenceLength(lead);
    if (length === 0) return i;
    if (length === 1) {
      i++;
      continue;
    }
    // The second byte's range is narrower after E0, ED, F0 and F4 (no overlong form, no surrogate).
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k];
      if (byte === undefined) return i;
      if (k === 1 ? byte < low || byte > high : (byte & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return bytes.length;
}
