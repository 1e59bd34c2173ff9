/**
 * The shape of a page: what it says, as the content digest reads it (./input/content-digest.ts:
 * no scripts, styles or build noise), with every run of digits read as `#`. The pages of an
 * endless calendar (an empty month linking the next) have one shape; a blog's pages, each listing
 * other posts, do not. The trap rules (./traps.ts) compare a chain's pages by it.
 */
import { pageContentDigest } from '../input/content-digest.js';

/** The shape of a page from its bytes (UTF-8). */
export async function pageShape(chunks: readonly Uint8Array[]): Promise<string> {
  const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  return pageContentDigest([text.replace(/\d+/g, '#')]);
}
