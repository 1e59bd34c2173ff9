/**
 * Is this document an HTML page? Sitemap readers meet HTML where a sitemap or a robots.txt should
 * be (an error page, a login wall, a soft 404), and a crawler must tell HTML from the rest: they
 * all ask here, so they all agree.
 */

/** How many leading bytes are enough to tell: a byte-order mark, white space and the start tag. */
const HEAD_BYTES = 512;

/** True when the text starts as HTML pages do: `<!doctype html` or `<html`, after a byte-order mark and white space (any case). */
export function startsLikeHtml(text: string): boolean {
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 14)
    .toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

/** The same test on the first bytes of a body (UTF-8). */
export function bytesStartLikeHtml(bytes: Uint8Array): boolean {
  return startsLikeHtml(new TextDecoder().decode(bytes.subarray(0, HEAD_BYTES)));
}
