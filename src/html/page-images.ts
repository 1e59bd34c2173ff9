/**
 * The images a page shows (`<img src>` and every `srcset` candidate), for an image sitemap: read
 * from the whole document by htmlparser2, resolved against the page URL and its `<base href>`,
 * http(s) only, each once, at most LIMITS.maxImagesPerUrl. Which of them stand on most pages of
 * the site (a logo) is decided across pages (core/common-images.ts).
 */
import { Parser } from 'htmlparser2';
import { LIMITS } from '../core/limits.js';

/**
 * The URLs of a `srcset` attribute ("a.jpg 1x, b.jpg 2x"), without their descriptors, read as
 * the HTML standard does: a URL runs to the next whitespace (commas inside it stay), and a
 * candidate ends at a comma after its descriptors.
 */
export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f';
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && (isSpace(srcset[i]) || srcset[i] === ',')) i++;
    const start = i;
    while (i < srcset.length && !isSpace(srcset[i])) i++;
    let url = srcset.slice(start, i);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      // Descriptors, up to a comma outside parentheses.
      let depth = 0;
      for (; i < srcset.length; i++) {
        const ch = srcset[i];
        if (ch === '(') depth++;
        else if (ch === ')') depth = Math.max(0, depth - 1);
        else if (ch === ',' && depth === 0) break;
      }
    }
    if (url !== '') urls.push(url);
  }
  return urls;
}

/** The image URLs of the page at `pageUrl`, from its UTF-8 bytes (or text). */
export function readPageImages(chunks: Iterable<Uint8Array | string>, pageUrl: string): string[] {
  const found: string[] = [];
  let baseHref: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'base' && baseHref === undefined && attributes.href !== undefined) baseHref = attributes.href;
        if (name !== 'img') return;
        if (attributes.src) found.push(attributes.src);
        if (attributes.srcset) found.push(...srcsetUrls(attributes.srcset));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const decoder = new TextDecoder('utf-8');
  for (const chunk of chunks) parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  parser.end(decoder.decode());
  const base = absolute(baseHref ?? '', pageUrl) ?? pageUrl;
  const images = new Set<string>();
  for (const src of found) {
    const url = absolute(src, base);
    if (url !== undefined && /^https?:/.test(url)) images.add(url);
    if (images.size >= LIMITS.maxImagesPerUrl) break;
  }
  return [...images];
}

function absolute(href: string, base: string): string | undefined {
  const text = href.trim();
  if (text === '') return undefined;
  try {
    return new URL(text, base).href;
  } catch {
    return undefined;
  }
}
