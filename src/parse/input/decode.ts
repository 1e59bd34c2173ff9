/**
 * Bytes → text. The encoding comes from the bytes: a byte-order mark (UTF-8, UTF-16 LE/BE), the
 * shape of UTF-16 without one, or the XML declaration's `encoding`; UTF-8 otherwise. Anything
 * but UTF-8 is decoded correctly and reported (XML-003), and so are invalid UTF-8 bytes.
 */
import { StringDecoder } from 'node:string_decoder';
import { TextDecoder } from 'node:util';
import type { Report } from '../diagnostics.js';
import { peek } from './decompress.js';

const SNIFF_BYTES = 1024;
/** Bytes decoded at a time. */
const TEXT_PIECE = 64 * 1024;
const DECLARED_ENCODING = /<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

export async function* decodeText(bytes: AsyncIterable<Uint8Array>, report: Report): AsyncGenerator<string> {
  const { head, all } = await peek(bytes, SNIFF_BYTES);
  const decoder = chooseDecoder(head, report);
  const checkInvalid = decoder.encoding === 'utf-8';
  let invalidReported = false;
  for await (const chunk of all) {
    // In pieces: strings of this size are young objects, and each piece's entries go out before
    // the next is read (large batches outlive the young generation's collections).
    for (let offset = 0; offset < chunk.length; offset += TEXT_PIECE) {
      const text = decoder.decode(chunk.subarray(offset, offset + TEXT_PIECE));
      if (checkInvalid && !invalidReported && text.indexOf('\uFFFD') !== -1) {
        invalidReported = true;
        report('XML-003', 'the document has bytes that are not valid UTF-8 (read as U+FFFD)');
      }
      if (text !== '') yield text;
    }
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/** Decodes a byte stream chunk by chunk (characters cut between chunks are carried over). */
interface ChunkDecoder {
  readonly encoding: string;
  decode(chunk: Uint8Array): string;
  end(): string;
}

/** UTF-8 through Node's StringDecoder: twice as fast as TextDecoder here; a leading BOM is dropped as TextDecoder would. */
function utf8Decoder(): ChunkDecoder {
  const decoder = new StringDecoder('utf8');
  let first = true;
  return {
    encoding: 'utf-8',
    decode(chunk) {
      let text = decoder.write(chunk);
      if (first && text !== '') {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      return text;
    },
    end: () => decoder.end(),
  };
}

/** Any other encoding the WHATWG Encoding Standard knows. */
function textDecoder(encoding: string): ChunkDecoder {
  const decoder = new TextDecoder(encoding);
  return {
    encoding: decoder.encoding,
    decode: (chunk) => decoder.decode(chunk, { stream: true }),
    end: () => decoder.decode(),
  };
}

function chooseDecoder(head: Uint8Array, report: Report): ChunkDecoder {
  const [b0, b1, b2, b3] = head;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) {
    // Legal XML (docs/rules.md XML-002 accepts it), but worth knowing: some older tools choke on it.
    report(
      'XML-002',
      'the document starts with a UTF-8 byte-order mark: accepted, but some tools reject it; save the file without the BOM',
      { line: 1, column: 1 },
      undefined,
      'info',
    );
    return utf8Decoder();
  }
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00)) {
    report('XML-003', 'the document is UTF-16 (little-endian); sitemaps must be UTF-8 (decoded anyway)', {
      line: 1,
      column: 1,
    });
    return textDecoder('utf-16le');
  }
  if ((b0 === 0xfe && b1 === 0xff) || (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f)) {
    report('XML-003', 'the document is UTF-16 (big-endian); sitemaps must be UTF-8 (decoded anyway)', {
      line: 1,
      column: 1,
    });
    return textDecoder('utf-16be');
  }
  // The declaration is at the very start: the head may be a whole chunk, of which the first kilobyte is enough.
  const start = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, SNIFF_BYTES));
  const declared = DECLARED_ENCODING.exec(start.toString('latin1'))?.[1];
  if (declared === undefined || /^utf-?8$/i.test(declared)) return utf8Decoder();
  let decoder: ChunkDecoder;
  try {
    decoder = textDecoder(declared);
  } catch {
    report('XML-003', `unknown encoding "${declared}"; read as UTF-8 (sitemaps must be UTF-8)`, { line: 1, column: 1 });
    return utf8Decoder();
  }
  if (decoder.encoding.startsWith('utf-16')) {
    report('XML-003', `the declaration says ${declared} but the bytes are not UTF-16; read as UTF-8`, {
      line: 1,
      column: 1,
    });
    return utf8Decoder();
  }
  report('XML-003', `the document is encoded as ${declared}; sitemaps must be UTF-8 (decoded as ${declared})`, {
    line: 1,
    column: 1,
  });
  return decoder;
}
