/**
 * Is this body HTML? The Content-Type is a claim; the first bytes decide (WHATWG MIME Sniffing).
 * A body declared HTML is taken as HTML unless its bytes are binary, as a gzip file served as
 * text/html (a `.html.gz` without `Content-Encoding`, or compressed twice) is; a body with no type
 * must look like HTML. file-type names what binary bytes are, so the report can say it.
 */
import { bytesStartLikeHtml } from '../core/html.js';

/** How many leading bytes are looked at: the resource header of WHATWG MIME Sniffing §7.1. */
export const SNIFF_BYTES = 1445;

/**
 * Why `head` (the first SNIFF_BYTES of the body, or all of it) is not HTML, or undefined when it
 * may be.
 * @param contentType the Content-Type the server sent, if any
 */
export async function whyNotHtml(head: Uint8Array, contentType: string | undefined): Promise<string | undefined> {
  const declared = contentType?.split(';')[0]?.trim() ?? '';
  if (contentType === undefined || declared === '') {
    return bytesStartLikeHtml(head) ? undefined : 'no Content-Type, and the body does not start like HTML';
  }
  if (isUtf16(head, contentType) || !hasBinaryBytes(head)) return undefined;
  // Loaded on the first binary body only: file-type and its tokenizers are 30 modules to start.
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(head);
  const what = type === undefined ? 'binary data' : `${type.ext} data (${type.mime})`;
  return `served as ${declared}, but the body is ${what}`;
}

/**
 * WHATWG's binary data bytes (0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F): no text contains them, and
 * every compressed, image or document format has some in its first bytes.
 */
function hasBinaryBytes(head: Uint8Array): boolean {
  // An index loop: iterating the typed array (`for…of`) cost three times as much, on every page.
  const end = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) {
    const byte = head[i]!;
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return true;
  }
  return false;
}

/** UTF-16 text is full of zero bytes: a BOM or the declared charset says it is text all the same. */
function isUtf16(head: Uint8Array, contentType: string): boolean {
  const bom = (head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe);
  return bom || /;\s*charset\s*=\s*"?utf-16/i.test(contentType);
}
