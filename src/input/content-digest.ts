/**
 * The digest of what a page says, not of how a build wrote it: two builds of an unchanged page
 * give the same digest, so a page's lastmod can be the time its content last changed rather than
 * the time of the last build (which rewrites every file).
 *
 * The page is read with htmlparser2 and digested as a stream of tags, attributes and text, with
 * what a build changes on every run left out:
 * - scripts and styles: `<script>`, `<style>`, and `<link>`s other than canonical, alternate, prev
 *   and next (style sheets, preloads, icons, manifests);
 * - attributes that serve scripts and styles: `class`, `style`, `on…`, `data-…`, Angular's `_ng…`,
 *   `nonce`, `integrity`;
 * - the generator `<meta>` (it names the generator's version);
 * - hashed asset names and cache-busting queries in asset URLs, and build timestamps in text and
 *   attributes (./build-noise.ts);
 * - comments, and differences of white space (minifiers).
 */
import { createHash } from 'node:crypto';
import { loadHtmlParser, PARSER_OPTIONS, type TagHandler } from '../html/one-pass.js';
import { srcsetWithoutHashedNames, withoutHashedNames, withoutTimestamps } from './build-noise.js';

/** Hex digits kept: 128 bits tell versions of a page apart. */
const DIGEST_CHARS = 32;

/** Elements left out with everything inside them. */
const DROPPED_ELEMENTS = new Set(['script', 'style']);
/** `<link rel>` values that say what the page is (kept); every other link is plumbing. */
const MEANINGFUL_LINKS = new Set(['canonical', 'alternate', 'prev', 'next']);
const DROPPED_ATTRIBUTE = /^(?:class|style|nonce|integrity|on.*|data-.*|_ng.*)$/;
/** Attributes whose value may be the URL of an asset (`srcset`, a list of them, is read apart). */
const URL_ATTRIBUTES = new Set(['src', 'href', 'poster', 'content']);

/**
 * Separators in the digested stream, control characters that pages do not hold, so that
 * `<p>a</p><p>b</p>` and `<p>ab</p>` (or moved attributes) digest differently.
 */
const OPEN = '\u0001';
const ATTRIBUTE = '\u0002';
const TEXT = '\u0003';
const CLOSE = '\u0004';

/** The content digest (hex) of a page read from its UTF-8 bytes. */
export async function pageContentDigest(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): Promise<string> {
  const Parser = await loadHtmlParser();
  const reader = contentDigestReader();
  const parser = new Parser(reader.handler, PARSER_OPTIONS);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks)
    parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  parser.end(decoder.decode());
  return reader.digest();
}

/**
 * What is digested, gathered into pieces of about this many characters before each goes to the
 * hash: a call into the hash per tag cost more than the hashing (the digest is the same either way).
 */
const HASHED_PIECE = 16 * 1024;

/** The content digest as a reader of a page's tokens (see ../html/one-pass.ts): `digest()` once they have all come. */
export function contentDigestReader(): { handler: TagHandler; digest: () => string } {
  const sha256 = createHash('sha256');
  let pending = '';
  const hash = {
    update(piece: string): void {
      pending += piece;
      if (pending.length >= HASHED_PIECE) {
        sha256.update(pending);
        pending = '';
      }
    },
  };
  let text = '';
  /** For each open element, whether it is left out; and how many open elements are. */
  const dropped: boolean[] = [];
  let droppedDepth = 0;
  // Text arrives in pieces; it is normalised whole, when the next tag (or the end) closes it.
  const flushText = (): void => {
    // Between two tags there is most often nothing, or only white space: nothing to digest.
    if (!/\S/.test(text)) {
      text = '';
      return;
    }
    const normalised = collapseSpaces(withoutTimestamps(text));
    text = '';
    if (normalised !== '') hash.update(TEXT + normalised);
  };
  // Every element is closed once, implied or not (htmlparser2 closes what is left open at the
  // end), so `<p>a<p>b` and `<p>a</p><p>b</p>` digest alike, as the same page.
  const handler: TagHandler = {
    onopentag(name, attributes) {
      const leftOut = droppedDepth > 0 || isDropped(name, attributes);
      dropped.push(leftOut);
      if (leftOut) {
        droppedDepth++;
        return;
      }
      flushText();
      hash.update(OPEN + name);
      for (const key of Object.keys(attributes).sort()) {
        if (!DROPPED_ATTRIBUTE.test(key)) hash.update(`${ATTRIBUTE}${key}=${attributeValue(key, attributes[key]!)}`);
      }
    },
    ontext(piece) {
      if (droppedDepth === 0) text += piece;
    },
    onclosetag(name) {
      if (dropped.pop()) {
        droppedDepth--;
        return;
      }
      flushText();
      hash.update(CLOSE + name);
    },
  };
  return {
    handler,
    digest() {
      flushText();
      return sha256.update(pending).digest('hex').slice(0, DIGEST_CHARS);
    },
  };
}

/** A text with its runs of white space made one space, and none at either end. */
function collapseSpaces(text: string): string {
  // Most text is already so (words between single spaces): tested, it need not be copied.
  return UNCOLLAPSED_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

/** White space that collapseSpaces changes: a run, any but a plain space, or at either end. */
const UNCOLLAPSED_SPACE = /\s\s|[^\S ]|^\s|\s$/;

function isDropped(name: string, attributes: Record<string, string>): boolean {
  if (DROPPED_ELEMENTS.has(name)) return true;
  if (name === 'link') return !relTokens(attributes.rel).some((rel) => MEANINGFUL_LINKS.has(rel));
  return name === 'meta' && attributes.name?.trim().toLowerCase() === 'generator';
}

function attributeValue(key: string, value: string): string {
  if (key === 'srcset' || key === 'imagesrcset') return srcsetWithoutHashedNames(value);
  const withoutTime = withoutTimestamps(value);
  // A value with spaces is prose (a <meta content>), not a URL.
  return URL_ATTRIBUTES.has(key) && !/\s/.test(withoutTime.trim()) ? withoutHashedNames(withoutTime) : withoutTime;
}

function relTokens(value: string | undefined): string[] {
  return (value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}
