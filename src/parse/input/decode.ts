/**
 * Bytes → text. The encoding comes from the bytes: a byte-order mark (UTF-8, UTF-16 LE/BE), the
 * shape of UTF-16 without one, or the XML declaration's `encoding`; UTF-8 otherwise. Anything
 * but UTF-8 is decoded correctly and reported (XML-003), and so are invalid UTF-8 bytes.
 */
import { TextDecoder } from 'node:util';
import type { Report } from '../diagnostics.js';
import { peek } from './decompress.js';

const SNIFF_BYTES = 1024;
const DECLARED_ENCODING = /<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

export async function* decodeText(bytes: AsyncIterable<Uint8Array>, report: Report): AsyncGenerator<string> {
  const { head, all } = await peek(bytes, SNIFF_BYTES);
  const decoder = chooseDecoder(head, report);
  const checkInvalid = decoder.encoding === 'utf-8';
  let invalidReported = false;
  for await (const chunk of all) {
    const text = decoder.decode(chunk, { stream: true });
    if (checkInvalid && !invalidReported && text.indexOf('\uFFFD') !== -1) {
      invalidReported = true;
      report('XML-003', 'the document has bytes that are not valid UTF-8 (read as U+FFFD)');
    }
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

function chooseDecoder(head: Uint8Array, report: Report): TextDecoder {
  const [b0, b1, b2, b3] = head;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) {
    // Legal XML (RULES.md XML-002 accepts it), but worth knowing: some older tools choke on it.
    report('XML-002', 'the document starts with a UTF-8 byte-order mark: accepted, but some tools reject it; save the file without the BOM', { line: 1, column: 1 }, undefined, 'info');
    return new TextDecoder('utf-8');
  }
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00)) {
    report('XML-003', 'the document is UTF-16 (little-endian); sitemaps must be UTF-8 (decoded anyway)', { line: 1, column: 1 });
    return new TextDecoder('utf-16le');
  }
  if ((b0 === 0xfe && b1 === 0xff) || (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f)) {
    report('XML-003', 'the document is UTF-16 (big-endian); sitemaps must be UTF-8 (decoded anyway)', { line: 1, column: 1 });
    return new TextDecoder('utf-16be');
  }
  const declared = DECLARED_ENCODING.exec(Buffer.from(head.buffer, head.byteOffset, head.length).toString('latin1'))?.[1];
  if (declared === undefined || /^utf-?8$/i.test(declared)) return new TextDecoder('utf-8');
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared);
  } catch {
    report('XML-003', `unknown encoding "${declared}"; read as UTF-8 (sitemaps must be UTF-8)`, { line: 1, column: 1 });
    return new TextDecoder('utf-8');
  }
  if (decoder.encoding.startsWith('utf-16')) {
    report('XML-003', `the declaration says ${declared} but the bytes are not UTF-16; read as UTF-8`, { line: 1, column: 1 });
    return new TextDecoder('utf-8');
  }
  report('XML-003', `the document is encoded as ${declared}; sitemaps must be UTF-8 (decoded as ${declared})`, { line: 1, column: 1 });
  return decoder;
}
